"""Run tasks × one model under the fixed harness and commit each run as it finishes.

Resume: a suite is named by its `Series` (model, provider, harness version,
mode, task-set version). Tasks with an ok run in the series are skipped, so
running the same command again after a crash finishes the suite without
asking any finished task twice. ``retry_errors=True`` runs only the tasks
whose every run errored.

A provider failure (`ProviderError`) is stored as ``status="error"`` with its
text, never as a failed answer. Multi-turn tasks send their turns in order,
feeding the model's answers back.

Paste runs score an answer a person pasted. For a multi-turn task the paste
is the final answer only: the transcript holds every user turn, an empty
assistant message for each earlier answer, and the pasted text last.

Scoring asks the verifier for the problems of the task's config first
(`verdict_of`): a config with problems fails the verdict with one "config"
check naming them, and the verifier never sees it.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Coroutine, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from sqlalchemy import Engine

from slopmark.errors import BadInput
from slopmark.evals.harness import HARNESS, Harness, messages_for, transcript_for
from slopmark.evals.task import Task
from slopmark.evals.verifiers import Check, Verdict, Verifier, get_verifier
from slopmark.llm.base import (
    ChatProvider,
    ChatRequest,
    ChatResponse,
    Message,
    ProviderError,
    Unreachable,
)
from slopmark.store.runs import Run, Series, errored_task_ids, finished_task_ids, insert_run

PASTE_PROVIDER = "paste"
#: The longest pasted answer, in characters: one cap for ``eval paste`` and the API.
MAX_PASTE_CHARS = 200_000
Progress = Callable[[int, int], None]


@dataclass(frozen=True)
class Suite:
    """The tasks of one suite and the series their runs belong to."""

    tasks: tuple[Task, ...]
    series: Series
    harness: Harness = HARNESS


@dataclass(frozen=True)
class Usage:
    """What the provider reported over every turn of one task; unknown is None."""

    first_byte_ms: float | None = None
    total_ms: float | None = None
    input_tokens: int | None = None
    output_tokens: int | None = None
    cost_usd: float | None = None
    finish_reason: str | None = None
    upstream: str | None = None
    cut_short: bool = False


@dataclass(frozen=True)
class Outcome:
    """What one invocation did: ``planned`` tasks asked, the runs stored, and
    ``skipped`` tasks left alone (finished already, or not errored when
    retrying errors). ``duplicates`` counts runs another process stored first."""

    stored: tuple[Run, ...] = ()
    skipped: int = 0
    duplicates: int = 0
    planned: int = 0


def _known_sum(values: Sequence[float | int | None]) -> Any:
    return None if any(v is None for v in values) else sum(v for v in values if v is not None)


def combine(responses: Sequence[ChatResponse]) -> Usage:
    """One usage for a conversation: times, tokens and cost summed over its turns.

    First byte is the first turn's; finish reason and upstream the last turn's.
    A sum with an unknown part is unknown.
    """
    last = responses[-1]
    return Usage(
        first_byte_ms=responses[0].first_byte_ms,
        total_ms=sum(r.total_ms for r in responses),
        input_tokens=_known_sum([r.input_tokens for r in responses]),
        output_tokens=_known_sum([r.output_tokens for r in responses]),
        cost_usd=_known_sum([r.cost_usd for r in responses]),
        finish_reason=last.finish_reason,
        upstream=last.upstream,
        cut_short=any(r.finish_reason == "length" for r in responses),
    )


PASTE_USAGE = Usage(first_byte_ms=0.0, total_ms=0.0, cost_usd=0.0)


def _base(task: Task, series: Series, **values: Any) -> Run:
    return Run(
        task_id=task.id,
        domain=task.domain,
        source=task.source,
        template_id=task.template_id,
        model=series.model,
        provider=series.provider,
        harness_version=series.harness_version,
        mode=series.mode,
        task_set_version=series.task_set_version,
        **values,
    )


def errored_run(task: Task, series: Series, error: str, output: str = "") -> Run:
    """An errored run: no verdict, and kept out of pass rates until retried."""
    return _base(task, series, status="error", error=error, output=output)


def verdict_of(
    verifier: Verifier, config: Mapping[str, Any], output: str, transcript: Sequence[Message]
) -> Verdict:
    """The verdict on ``output``; a "config" check fails it when ``config`` has problems."""
    problems = verifier.problems(config)
    if problems:
        return Verdict(False, 0.0, (Check("config", False, "; ".join(problems)),))
    return verifier.verify(config, output, transcript)


def _verdict(task: Task, output: str, transcript: Sequence[Any]) -> Verdict:
    return verdict_of(get_verifier(task.verifier_type), task.verifier, output, transcript)


def scored_run(
    task: Task, series: Series, answers: Sequence[str], usage: Usage, paste: bool = False
) -> Run:
    """Verify the final answer and record it with its usage.

    A verifier that crashes (a bug: verifiers must not) errors the run rather
    than failing the answer, and the suite goes on.
    """
    output = answers[-1]
    transcript = transcript_for(task, series.mode, answers)
    try:
        verdict = _verdict(task, output, transcript)
    except Exception as error:  # noqa: BLE001 - isolate one task's failure, record it
        message = f"verifier {task.verifier_type!r} crashed: {type(error).__name__}: {error}"
        return errored_run(task, series, message, output)
    return _base(
        task,
        series,
        status="ok",
        output=output,
        passed=verdict.passed,
        score=verdict.score,
        details=verdict.details(),
        ambiguous=verdict.ambiguous,
        upstream=usage.upstream,
        latency_first_byte_ms=usage.first_byte_ms,
        latency_ms=usage.total_ms,
        input_tokens=usage.input_tokens,
        output_tokens=usage.output_tokens,
        finish_reason=usage.finish_reason,
        truncated=usage.cut_short or not output.strip(),
        cost_usd=usage.cost_usd,
        paste=paste,
    )


def check_paste(output: str, where: str = "the pasted answer") -> str:
    """``output`` when it can be scored as a paste: not empty, at most `MAX_PASTE_CHARS`."""
    if not output.strip():
        raise BadInput(f"{where} is empty: paste the model's final answer")
    if len(output) > MAX_PASTE_CHARS:
        raise BadInput(
            f"{where} has {len(output):,} characters, more than the {MAX_PASTE_CHARS:,} "
            "a pasted answer may have"
        )
    return output


def paste_run(task: Task, output: str, series: Series) -> Run:
    """A pasted final answer, scored: latency 0, cost 0, ``paste=True``; an empty or
    oversized paste is `BadInput` (see `check_paste`)."""
    check_paste(output)
    answers = [""] * (len(task.turns) - 1) + [output]
    return scored_run(task, series, answers, PASTE_USAGE, paste=True)


async def attempt(task: Task, provider: ChatProvider, suite: Suite) -> Run:
    """Ask every turn of ``task`` in order, then score the final answer."""
    harness, series = suite.harness, suite.series
    answers: list[str] = []
    responses: list[ChatResponse] = []
    try:
        for _turn in task.turns:
            messages = messages_for(task, series.mode, answers, harness)
            request = ChatRequest(series.model, messages, harness.temperature, harness.max_tokens)
            responses.append(await provider.complete(request))
            answers.append(responses[-1].text)
    except ProviderError as error:
        return errored_run(task, series, str(error) or type(error).__name__)
    # off the event loop: a slow check (SymPy may take up to its time limit)
    # must not stall, and so lengthen, the latencies of the requests in flight
    return await asyncio.to_thread(scored_run, task, series, answers, combine(responses))


def pending(engine: Engine, suite: Suite, retry_errors: bool = False) -> list[Task]:
    """The tasks still to run, in suite order: those without an ok run, or
    (``retry_errors``) only those whose every run errored."""
    if retry_errors:
        wanted = errored_task_ids(engine, suite.series)
        return [t for t in suite.tasks if t.id in wanted]
    done = finished_task_ids(engine, suite.series)
    return [t for t in suite.tasks if t.id not in done]


class EndpointUnreachable(BadInput):
    """The model's endpoint could not be reached before it answered anything: the suite
    stops at once instead of storing every task as errored."""


class _Watched:
    """A provider watched for the first answer: until one comes, an unreachable endpoint
    raises `EndpointUnreachable` (not a `ProviderError`, so no errored run is stored)."""

    def __init__(self, provider: ChatProvider) -> None:
        self.provider = provider
        self.name = provider.name
        self.answered = False

    async def complete(self, request: ChatRequest) -> ChatResponse:
        try:
            response = await self.provider.complete(request)
        except Unreachable as error:
            if self.answered:
                raise
            raise EndpointUnreachable(
                f"{error}; nothing answered before, so the suite stopped with no run stored: "
                "check the URL and that the server is running"
            ) from error
        self.answered = True
        return response


@dataclass
class _Tally:
    total: int
    progress: Progress | None
    stored: list[Run] = field(default_factory=list)
    duplicates: int = 0

    def record(self, stored: Run | None) -> None:
        if stored is None:
            self.duplicates += 1
        else:
            self.stored.append(stored)
        if self.progress is not None:
            self.progress(len(self.stored) + self.duplicates, self.total)


async def run_suite(
    engine: Engine,
    provider: ChatProvider,
    suite: Suite,
    concurrency: int = 16,
    retry_errors: bool = False,
    limit: int | None = None,
    progress: Progress | None = None,
) -> Outcome:
    """Run what is left of ``suite`` with at most ``concurrency`` tasks in flight.

    Each run is committed the moment it finishes, so a killed process loses
    only the tasks that were still in flight. Verifying and storing run in
    worker threads: the event loop only waits on the network.
    """
    if concurrency < 1:
        raise ValueError(f"concurrency {concurrency} must be at least 1")
    left = pending(engine, suite, retry_errors)
    todo = left if limit is None else left[:limit]
    tally = _Tally(len(todo), progress)
    queue = iter(todo)
    watched = _Watched(provider)

    async def worker() -> None:
        for task in queue:
            run = await attempt(task, watched, suite)
            tally.record(await asyncio.to_thread(insert_run, engine, run))

    await _all_or_none([worker() for _ in range(min(concurrency, len(todo)))])
    skipped = len(suite.tasks) - len(left)
    return Outcome(tuple(tally.stored), skipped, tally.duplicates, len(todo))


async def _all_or_none(workers: Sequence[Coroutine[Any, Any, None]]) -> None:
    """Run ``workers`` together; when one raises, cancel the others, then re-raise."""
    tasks = [asyncio.ensure_future(worker) for worker in workers]
    try:
        await asyncio.gather(*tasks)
    except BaseException:
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
        raise
