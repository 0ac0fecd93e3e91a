"""One suite slice: one model asked one domain's tasks, each run stored as it finishes.

`run_request` is what ``slopmark eval run`` does once its options are parsed,
and what each (model, domain) unit of ``slopmark eval suite`` does on a worker.
"""

from __future__ import annotations

import asyncio
import os
from collections.abc import Callable
from contextlib import AbstractContextManager, nullcontext
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from sqlalchemy import Engine

from slopmark.errors import BadInput
from slopmark.evals.harness import HARNESS, check_mode
from slopmark.evals.pool import load_pool, task_set_version
from slopmark.evals.runner import Outcome, Suite, run_suite
from slopmark.evals.suitefile import SuiteFile
from slopmark.evals.task import Task
from slopmark.executor import Resources, Unit
from slopmark.executors.worker import host_name
from slopmark.llm.cache import ResponseCache
from slopmark.store.runs import Series


@dataclass(frozen=True)
class SuiteRequest:
    """What to ask: a model at an endpoint, a domain's tasks, and how."""

    provider: str
    model: str
    base_url: str
    domain: str
    api_key: str | None
    concurrency: int
    mode: str
    db: str | None
    limit: int | None
    retry_errors: bool
    tasks: tuple[Path, ...]
    timeout_s: float
    retries: int
    cache: Path | None


def suite_tasks(domain: str, paths: tuple[Path, ...]) -> list[Task]:
    """The approved tasks of ``domain`` (shipped, or in ``paths``); BadInput when none."""
    tasks = load_pool(domain, paths)
    if not tasks:
        where = ", ".join(map(str, paths)) if paths else "the shipped pool"
        raise BadInput(f"--domain {domain!r}: no approved tasks in {where}")
    return tasks


def series_of(request: SuiteRequest, tasks: list[Task]) -> Series:
    return Series(request.model, request.provider, HARNESS.version, request.mode,
                  task_set_version(tasks))  # fmt: skip


def _cache(path: Path | None) -> AbstractContextManager[ResponseCache | None]:
    return ResponseCache(path, HARNESS.version) if path else nullcontext()


async def _ask(request: SuiteRequest, engine: Engine, suite: Suite, **options: Any) -> Outcome:
    from slopmark.llm.openai_compat import OpenAICompatProvider

    with _cache(request.cache) as cache:
        provider = OpenAICompatProvider(
            request.base_url,
            api_key=request.api_key,
            timeout_s=request.timeout_s,
            max_retries=request.retries,
            cache=cache,
        )
        async with provider:
            return await run_suite(engine, provider, suite, **options)


def run_request(
    request: SuiteRequest,
    engine: Engine,
    progress: Callable[[int, int], None] | None = None,
    tasks: list[Task] | None = None,
) -> tuple[Series, Outcome]:
    """Ask what is left of the request's suite (its ``tasks`` when loaded already);
    the suite's series and this run's outcome."""
    check_mode(request.mode)
    tasks = tasks if tasks is not None else suite_tasks(request.domain, request.tasks)
    series = series_of(request, tasks)
    options = {
        "concurrency": request.concurrency,
        "retry_errors": request.retry_errors,
        "limit": request.limit,
    }
    outcome = asyncio.run(_ask(request, engine, Suite(tuple(tasks), series), progress=progress,
                               **options))  # fmt: skip
    return series, outcome


# --- a suite file as a sweep -----------------------------------------------------------


@dataclass(frozen=True)
class SliceJob:
    """One (model, domain) of a suite; the key is read on the worker from ``key_env``."""

    request: SuiteRequest
    key_env: str | None = None

    @property
    def key(self) -> str:
        return f"{self.request.provider}:{self.request.model}/{self.request.domain}"


def _api_key(key_env: str | None) -> str | None:
    if key_env is None:
        return None
    found = os.environ.get(key_env)
    if not found:
        raise BadInput(
            f"the key variable ${key_env} is not set on node {host_name()}; set it in the "
            "environment of every node (where `ray start` runs) or of this command"
        )
    return found


def run_slice(job: SliceJob, db_url: str) -> dict[str, int]:
    """Ask one slice on a worker, storing each run as it finishes; what this run did."""
    from slopmark.store.db import cached_store

    request = replace(job.request, api_key=_api_key(job.key_env))
    _, outcome = run_request(request, cached_store(db_url))
    return {"asked": outcome.planned, "stored": len(outcome.stored),
            "skipped": outcome.skipped, "duplicates": outcome.duplicates}  # fmt: skip


def suite_jobs(suite: SuiteFile) -> list[SliceJob]:
    """Every (model, domain) of the suite, models first, in file order."""
    return [
        SliceJob(SuiteRequest(
            provider=model.provider, model=model.model, base_url=model.base_url, domain=domain,
            api_key=None, concurrency=suite.concurrency, mode=suite.mode, db=None,
            limit=suite.limit, retry_errors=False, tasks=suite.tasks,
            timeout_s=suite.timeout_s, retries=suite.retries, cache=None,
        ), model.key_env)  # fmt: skip
        for model in suite.models
        for domain in suite.domains
    ]


def slice_units(jobs: list[SliceJob], db_url: str) -> list[Unit]:
    """A unit per slice; a slice mostly waits on its endpoint, so it asks for a quarter CPU."""
    return [
        Unit.call(job.key, run_slice, job, db_url, resources=Resources(cpus=0.25)) for job in jobs
    ]
