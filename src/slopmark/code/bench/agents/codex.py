"""`codex`: OpenAI's Codex CLI in exec mode, as a `command` preset.

Runs ``codex exec --json --skip-git-repo-check
--dangerously-bypass-approvals-and-sandbox [--model M] - < prompt.md`` in the
workspace: ``exec`` works non-interactively and exits, ``-`` reads the prompt
from stdin, the workspace need not be a Git repository, and Codex's own
approvals and sandbox are off because slopmark's sandbox is the boundary
(nobody is there to approve, and a second sandbox inside it adds nothing).

``--json`` prints one event per line (JSONL): ``thread.started``,
``turn.started``, ``item.started`` / ``item.completed`` (messages, commands,
file changes), then ``turn.completed`` with
``"usage": {"input_tokens", "cached_input_tokens", "output_tokens"}``, or
``turn.failed`` / ``error`` with a message. Usage is the thread's running
total, so the last ``turn.completed`` counts; ``input_tokens`` already
includes the cached ones. Codex reports no cost: it is priced by the run's
model from slopmark's price table (cached input at the full price, so an upper
bound), None for a model the table lacks. Codex reports no turn count either:
steps is None.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from slopmark.code.bench.agents.base import register
from slopmark.code.bench.agents.command import CommandAgent, Report
from slopmark.code.bench.agents.presets import (
    PRESET_OPTIONS,
    Preset,
    json_objects,
    reported_count,
)
from slopmark.llm.prices import cost


def read_codex_report(stdout: str, model: str | None = None) -> Report | None:
    """The token usage and failure the JSONL events on stdout report; None without events."""
    events = [event for event in json_objects(stdout) if isinstance(event.get("type"), str)]
    if not events:
        return None
    usages = [event.get("usage") for event in events if event["type"] == "turn.completed"]
    usage = usages[-1] if usages and isinstance(usages[-1], dict) else {}
    input_tokens = reported_count(usage.get("input_tokens"))
    output_tokens = reported_count(usage.get("output_tokens"))
    return Report(
        cost_usd=cost(model, input_tokens, output_tokens) if model else None,
        input_tokens=input_tokens,
        output_tokens=output_tokens,
        error=_failure(events),
    )


def _failure(events: list[dict[str, Any]]) -> str | None:
    """The error of the last failure event, unless a turn completed after it."""
    for event in reversed(events):
        kind = event["type"]
        if kind == "turn.completed":
            return None
        if kind == "turn.failed":
            error = event.get("error")
            message = error.get("message") if isinstance(error, dict) else error
            return f"codex: turn failed: {message}"
        if kind == "error":
            return f"codex: {event.get('message', 'error')}"
    return None


CODEX = Preset(
    name="codex",
    binary="codex",
    install_hint="npm install -g @openai/codex",
    flags="exec --json --skip-git-repo-check --dangerously-bypass-approvals-and-sandbox",
    prompt_input="- < {prompt_file}",
    read_report=read_codex_report,
)


@register(
    "codex",
    summary="OpenAI Codex CLI in exec mode (codex exec --json)",
    options=dict(PRESET_OPTIONS),
)
def build(options: Mapping[str, str]) -> CommandAgent:
    return CODEX.build(options)
