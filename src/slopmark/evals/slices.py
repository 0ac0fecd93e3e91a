"""A suite file as a sweep: one unit per slice, one model asked one domain's tasks.

Each unit does on a worker what ``slopmark eval run`` does
(`slopmark.evals.session.run_request`), each run stored as it finishes.
"""

from __future__ import annotations

import os
from dataclasses import dataclass, replace

from slopmark.evals.session import SuiteRequest, run_request
from slopmark.evals.suitefile import SuiteFile
from slopmark.executor import Resources, Unit
from slopmark.llm.keys import named_key
from slopmark.sweep.worker import host_name


@dataclass(frozen=True)
class SliceJob:
    """One (model, domain) of a suite; the key is read on the worker from ``key_env``."""

    request: SuiteRequest
    key_env: str | None = None

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
