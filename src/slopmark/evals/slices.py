"""A suite file as a sweep: one unit per slice, one model asked one domain's tasks.

Each unit does on a worker what ``slopmark eval run`` does
(`slopmark.evals.session.run_plan`), each run stored as it finishes. The suite file
was checked when it was read, and each domain's tasks are loaded once, here, on the
driver: a slice carries its `SuitePlan` to the worker.
"""

from __future__ import annotations

import os
from dataclasses import dataclass

from slopmark.evals.session import SuitePlan, SuiteRequest, plan_of, run_plan, suite_tasks
from slopmark.evals.suitefile import SuiteFile
from slopmark.executor import Resources, Unit
from slopmark.llm.keys import named_key
from slopmark.sweep.worker import host_name


@dataclass(frozen=True)
class SliceJob:
    """One (model, domain) of a suite; the key is read on the worker from ``key_env``."""

    plan: SuitePlan
    key_env: str | None = None

    @property
    def request(self) -> SuiteRequest:
        return self.plan.request

    @property
    def key(self) -> str:
        return f"{self.request.provider}:{self.request.model}/{self.request.domain}"


#: What to do when a suite's ``key_env`` is not set where a slice runs.
KEY_HINT = "set it in the environment of every node (where `ray start` runs) or of this command"


def _api_key(key_env: str | None) -> str | None:
    if key_env is None:
        return None
    return named_key(key_env, os.environ, f"node {host_name()}", KEY_HINT)


def run_slice(job: SliceJob, db_url: str) -> dict[str, int]:
    """Ask one slice on a worker, storing each run as it finishes; what this run did."""
    from slopmark.store.db import cached_store

    outcome = run_plan(job.plan.with_key(_api_key(job.key_env)), cached_store(db_url))
    return {"asked": outcome.planned, "stored": len(outcome.stored),
            "skipped": outcome.skipped, "duplicates": outcome.duplicates}  # fmt: skip


def suite_jobs(suite: SuiteFile) -> list[SliceJob]:
    """Every (model, domain) of the suite, models first, in file order; each domain's
    approved tasks loaded once (`BadInput`, one line, before any slice starts)."""
    tasks = {domain: suite_tasks(domain, suite.tasks) for domain in suite.domains}
    return [
        SliceJob(plan_of(SuiteRequest(
            provider=model.provider, model=model.model, base_url=model.base_url, domain=domain,
            api_key=None, concurrency=suite.concurrency, mode=suite.mode, db=None,
            limit=suite.limit, retry_errors=False, tasks=suite.tasks,
            timeout_s=suite.timeout_s, retries=suite.retries, cache=None,
        ), tasks[domain]), model.key_env)  # fmt: skip
        for model in suite.models
        for domain in suite.domains
    ]


def slice_units(jobs: list[SliceJob], db_url: str) -> list[Unit]:
    """A unit per slice; a slice mostly waits on its endpoint, so it asks for a quarter CPU."""
    return [
        Unit.call(job.key, run_slice, job, db_url, resources=Resources(cpus=0.25)) for job in jobs
    ]
