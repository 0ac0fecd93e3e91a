"""An eval session: the steps ``slopmark eval`` and the API's ``/api/eval/*`` share.

Each edge parses its input its own way (options and stdin, or a JSON body),
then calls these, so the CLI and the API cannot drift:

- which providers a model may name and what makes an endpoint URL usable
  (`slopmark.evals.endpoint`, light enough for option parsing);
- a suite: the domain's approved tasks (`domain_tasks`), the series they run
  under (`suite_for`: mode checked, task-set version), asked through the
  provider the request names with each run stored as it finishes (`ask`, or
  `run_request` outside an event loop);
- a paste: the task found by id and the series of its domain's task set
  (`paste_target`), then the answer scored and stored (`PasteTarget.store`).
  The two steps are apart so the CLI finds the task before it reads an answer.
"""

from __future__ import annotations

import asyncio
from collections.abc import Iterable, Sequence
from contextlib import AbstractContextManager, nullcontext
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from sqlalchemy import Engine

from slopmark.errors import BadInput
from slopmark.evals.endpoint import check_provider
from slopmark.evals.harness import HARNESS, check_mode
from slopmark.evals.pool import find_task, load_pool, task_set_version
from slopmark.evals.runner import PASTE_PROVIDER, Outcome, Progress, Suite, paste_run, run_suite
from slopmark.evals.task import Task
from slopmark.store.runs import Run, Series, insert_run

if TYPE_CHECKING:
    from slopmark.llm.cache import ResponseCache
    from slopmark.llm.openai_compat import OpenAICompatProvider
    from slopmark.llm.retry import OnRetry


@dataclass(frozen=True)
class SuiteRequest:
    """What to ask: a model at an endpoint, a domain's tasks, and how."""

    provider: str
    model: str
    base_url: str
    domain: str
    api_key: str | None = None
    concurrency: int = 16
    mode: str = "standard"
    db: str | None = None
    limit: int | None = None
    retry_errors: bool = False
    tasks: tuple[Path, ...] = ()
    timeout_s: float = 60.0
    retries: int = 4
    cache: Path | None = None


def domain_tasks(
    tasks: Sequence[Task], domain: str, where: str, what: str = "--domain"
) -> list[Task]:
    """``tasks`` (the approved ones of ``domain`` found in ``where``); `BadInput` when none."""
    if not tasks:
        raise BadInput(f"{what} {domain!r}: no approved tasks in {where}")
    return list(tasks)


def suite_tasks(domain: str, paths: tuple[Path, ...]) -> list[Task]:
    """The approved tasks of ``domain`` (shipped, or in ``paths``); `BadInput` when none."""
    where = ", ".join(map(str, paths)) if paths else "the shipped pool"
    return domain_tasks(load_pool(domain, paths), domain, where)


def series_of(request: SuiteRequest, tasks: Iterable[Task]) -> Series:
    """The series the request's runs of ``tasks`` are stored under."""
    return Series(request.model, request.provider, HARNESS.version, request.mode,
                  task_set_version(tasks))  # fmt: skip


def suite_for(request: SuiteRequest, tasks: Sequence[Task]) -> Suite:
    """The suite of ``tasks`` under the request's series; its mode and provider checked."""
    check_mode(request.mode)
    check_provider(request.provider, f"provider {request.provider!r}")
    return Suite(tuple(tasks), series_of(request, tasks))


def _cache(path: Path | None) -> AbstractContextManager[ResponseCache | None]:
    from slopmark.llm.cache import ResponseCache

    return ResponseCache(path, HARNESS.version) if path else nullcontext()


def _provider(
    request: SuiteRequest, cache: ResponseCache | None, on_retry: OnRetry | None
) -> OpenAICompatProvider:
    from slopmark.llm.openai_compat import OpenAICompatProvider

    return OpenAICompatProvider(request.base_url, api_key=request.api_key,
                                timeout_s=request.timeout_s, max_retries=request.retries,
                                cache=cache, on_retry=on_retry)  # fmt: skip


async def ask(
    request: SuiteRequest,
    engine: Engine,
    suite: Suite,
    progress: Progress | None = None,
    on_retry: OnRetry | None = None,
) -> Outcome:
    """Ask what is left of ``suite`` (made by `suite_for`, which checked the request's
    mode and provider) through the request's provider, storing each run; ``on_retry``
    hears of each failed request that will be tried again."""
    with _cache(request.cache) as cache:
        async with _provider(request, cache, on_retry) as provider:
            return await run_suite(
                engine, provider, suite, request.concurrency, retry_errors=request.retry_errors,
                limit=request.limit, progress=progress,
            )  # fmt: skip


def run_request(
    request: SuiteRequest,
    engine: Engine,
    progress: Progress | None = None,
    tasks: list[Task] | None = None,
    on_retry: OnRetry | None = None,
) -> tuple[Series, Outcome]:
    """Ask what is left of the request's suite (its ``tasks`` when loaded already) from
    outside an event loop; the suite's series and this run's outcome."""
    check_mode(request.mode)
    tasks = tasks if tasks is not None else suite_tasks(request.domain, request.tasks)
    suite = suite_for(request, tasks)
    return suite.series, asyncio.run(ask(request, engine, suite, progress, on_retry))


@dataclass(frozen=True)
class PasteTarget:
    """The task a pasted answer is for, and the series its paste run joins."""

    task: Task
    series: Series

    def store(self, engine: Engine, answer: str) -> Run:
        """Score ``answer`` and store it as a paste run (an empty or oversized one is
        `BadInput`, see `slopmark.evals.runner.check_paste`)."""
        stored = insert_run(engine, paste_run(self.task, answer, self.series))
        assert stored is not None, "paste runs are never refused as duplicates"
        return stored


def paste_target(pool: Sequence[Task], task_id: str, model: str) -> PasteTarget:
    """Task ``task_id`` of ``pool`` (`BadInput` with the closest id when none), with the
    series of ``model``'s pastes on the task set of its domain in ``pool``."""
    task = find_task(pool, task_id)
    version = task_set_version(t for t in pool if t.domain == task.domain)
    return PasteTarget(task, Series(model, PASTE_PROVIDER, HARNESS.version, "standard", version))
