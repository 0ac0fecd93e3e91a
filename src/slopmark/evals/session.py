"""An eval session: the steps ``slopmark eval`` and the API's ``/api/eval/*`` share.

Each edge parses its input its own way (options and stdin, or a JSON body),
then calls these, so the CLI and the API cannot drift:

- which providers a model may name and what makes an endpoint URL usable
  (`slopmark.evals.endpoint`, light enough for option parsing);
- a suite: the request checked once where it comes in (`plan_suite`: its mode
  and provider, its domain's approved tasks loaded once, the series they run
  under), giving a `SuitePlan` that travels down as it is, asked through the
  provider the request names with each run stored as it finishes (`ask`, or
  `run_plan` outside an event loop). Nothing below the edge checks the mode
  again or loads the tasks again;
- a paste: the task found by id and the series of its domain's task set
  (`paste_target`), then the answer scored and stored (`PasteTarget.store`).
  The two steps are apart so the CLI finds the task before it reads an answer.
"""

from __future__ import annotations

import asyncio
from collections.abc import Iterable, Sequence
from contextlib import AbstractContextManager, nullcontext
from dataclasses import dataclass, replace
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


@dataclass(frozen=True)
class SuitePlan:
    """A `SuiteRequest` checked once, at the edge it came in by: its mode and provider
    known, its domain's approved tasks loaded and the series they run under fixed.

    Made by `plan_suite` (or, from a checked suite file, `plan_of`); `ask` and `run_plan`
    take it as it is."""

    request: SuiteRequest
    suite: Suite

    @property
    def series(self) -> Series:
        return self.suite.series

    def with_key(self, api_key: str | None) -> SuitePlan:
        """The same plan asking with ``api_key`` (a worker reads its key where it runs)."""
        return replace(self, request=replace(self.request, api_key=api_key))


def plan_of(request: SuiteRequest, tasks: Sequence[Task]) -> SuitePlan:
    """The plan of a request already checked (a suite file's slice) over ``tasks``."""
    return SuitePlan(request, Suite(tuple(tasks), series_of(request, tasks)))


def plan_suite(
    request: SuiteRequest, tasks: Sequence[Task] | None = None, *, what: str = "--domain"
) -> SuitePlan:
    """``request`` checked: its mode, its provider, then its domain's approved tasks, loaded
    here (shipped, or from the request's files) unless the edge has them (``tasks``: the
    server's pool of the domain); `BadInput` naming ``what`` when there are none."""
    check_mode(request.mode)
    check_provider(request.provider, f"provider {request.provider!r}")
    if tasks is None:
        return plan_of(request, suite_tasks(request.domain, request.tasks))
    return plan_of(request, domain_tasks(tasks, request.domain, "the shipped pool", what))


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
    plan: SuitePlan,
    engine: Engine,
    progress: Progress | None = None,
    on_retry: OnRetry | None = None,
) -> Outcome:
    """Ask what is left of the plan's suite through its request's provider, storing each
    run; ``on_retry`` hears of each failed request that will be tried again."""
    request = plan.request
    with _cache(request.cache) as cache:
        async with _provider(request, cache, on_retry) as provider:
            return await run_suite(
                engine, provider, plan.suite, request.concurrency,
                retry_errors=request.retry_errors, limit=request.limit, progress=progress,
            )  # fmt: skip


def run_plan(
    plan: SuitePlan,
    engine: Engine,
    progress: Progress | None = None,
    on_retry: OnRetry | None = None,
) -> Outcome:
    """`ask`, from outside an event loop."""
    return asyncio.run(ask(plan, engine, progress, on_retry))


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
