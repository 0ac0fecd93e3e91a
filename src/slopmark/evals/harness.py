"""The fixed harness: the same prompt, sampling and limits for every model.

Every constant of the harness hashes into `harness_version`, stored with each
run, so results gathered under different harnesses are never merged.

Modes:

- ``standard`` sends the harness system prompt (followed by the task's own
  system prompt, when the task has one) and then the task's turns.
- ``zero_context`` sends no harness system prompt. A task's own system prompt
  (e.g. the application rules a hierarchy task tests) is part of the task and
  is still sent.

No chain-of-thought instruction is ever added.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Sequence
from dataclasses import asdict, dataclass

from slopmark.errors import BadInput
from slopmark.evals.task import Task
from slopmark.llm.base import Message
from slopmark.plurals import count

MODES = ("standard", "zero_context")

SYSTEM_PROMPT = (
    "Do exactly what the user asks and nothing more. "
    "Give the answer directly: no preamble, no restating of the request, "
    "no closing remarks. Follow every stated format and length requirement."
)


@dataclass(frozen=True)
class Harness:
    """The constants of one harness; `version` changes when any of them does."""

    system_prompt: str = SYSTEM_PROMPT
    #: joins the harness prompt and a task's own system prompt into one message
    system_separator: str = "\n\n"
    temperature: float = 0.0
    max_tokens: int = 600
    modes: tuple[str, ...] = MODES

    @property
    def version(self) -> str:
        """First 12 hex digits of the SHA-256 of the constants as canonical JSON."""
        canonical = json.dumps(asdict(self), sort_keys=True, separators=(",", ":"))
        return hashlib.sha256(canonical.encode("utf-8")).hexdigest()[:12]


HARNESS = Harness()


def harness_version(harness: Harness = HARNESS) -> str:
    return harness.version


def check_mode(mode: str, harness: Harness = HARNESS) -> str:
    """``mode`` when the harness has it, else `BadInput` naming the modes."""
    if mode not in harness.modes:
        raise BadInput(f"--mode {mode!r}: must be one of {', '.join(harness.modes)}")
    return mode


def _system(task: Task, mode: str, harness: Harness) -> str | None:
    parts = [harness.system_prompt] if mode == "standard" else []
    if task.system:
        parts.append(task.system)
    return harness.system_separator.join(parts) or None


def _turn_mismatch(task: Task, answers: Sequence[str]) -> str:
    turns, got = count(len(task.turns), "turn"), count(len(answers), "answer")
    return f"task {task.id!r} has {turns}; got {got}"


def messages_for(
    task: Task, mode: str, answers: Sequence[str] = (), harness: Harness = HARNESS
) -> tuple[Message, ...]:
    """What to send for the next turn, given the model's ``answers`` so far.

    With no answers this is the system message and the first turn; with k
    answers it is the whole conversation up to turn k+1, the model's answers
    fed back as assistant messages. ``mode`` is one the harness has: the request was
    checked where it came in (`check_mode`, through `slopmark.evals.session.plan_suite`).
    """
    if len(answers) >= len(task.turns):
        raise ValueError(_turn_mismatch(task, answers))
    system = _system(task, mode, harness)
    messages = [Message("system", system)] if system else []
    for turn, answer in zip(task.turns, answers, strict=False):
        messages += [Message("user", turn), Message("assistant", answer)]
    messages.append(Message("user", task.turns[len(answers)]))
    return tuple(messages)


def transcript_for(
    task: Task, mode: str, answers: Sequence[str], harness: Harness = HARNESS
) -> tuple[Message, ...]:
    """The finished conversation: every turn and every answer (one answer per turn)."""
    if len(answers) != len(task.turns):
        raise ValueError(_turn_mismatch(task, answers))
    opening = messages_for(task, mode, answers[:-1], harness)
    return (*opening, Message("assistant", answers[-1]))
