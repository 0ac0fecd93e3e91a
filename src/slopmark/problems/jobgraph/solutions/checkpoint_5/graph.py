"""The validated dependency graph: unique ids, known dependencies, reverse edges."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass

from errors import InputError
from model import Job


@dataclass(frozen=True)
class JobGraph:
    """Jobs by id plus, for each job, the ids of the jobs that depend on it (sorted)."""

    jobs: Mapping[str, Job]
    dependents: Mapping[str, tuple[str, ...]]

    @classmethod
    def build(cls, jobs: Iterable[Job]) -> JobGraph:
        """Validate `jobs` (unique ids, known deps) and index them."""
        by_id: dict[str, Job] = {}
        for job in jobs:
            if job.id in by_id:
                raise InputError(f"duplicate job id {job.id!r}")
            by_id[job.id] = job
        _check_deps_known(by_id)
        return cls(jobs=by_id, dependents=_reverse_edges(by_id))

    def ids(self) -> list[str]:
        """All job ids in ascending order."""
        return sorted(self.jobs)


def _check_deps_known(jobs: Mapping[str, Job]) -> None:
    for job_id in sorted(jobs):
        for dep in jobs[job_id].deps:
            if dep not in jobs:
                raise InputError(f"job {job_id!r} depends on unknown job {dep!r}")


def _reverse_edges(jobs: Mapping[str, Job]) -> dict[str, tuple[str, ...]]:
    reverse: dict[str, list[str]] = {job_id: [] for job_id in jobs}
    for job in jobs.values():
        for dep in job.deps:
            reverse[dep].append(job.id)
    return {job_id: tuple(sorted(users)) for job_id, users in reverse.items()}
