"""A study as a sweep: one unit per repository not yet stored, on any executor."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from slopmark.code.study.measure import study_unit
from slopmark.code.study.records import RepoRecord, StudySettings
from slopmark.code.study.repos import RepoEntry
from slopmark.executor import Executor, Resources, Unit
from slopmark.sweep.drive import SweepView, Tally, run_sweep


@dataclass(frozen=True)
class StudyPlan:
    study: str
    repos_file: Path
    entries: tuple[RepoEntry, ...]
    settings: StudySettings
    db_url: str


def study_units(plan: StudyPlan, finished: set[str]) -> list[Unit]:
    """A unit per repository of ``plan`` not stored ok yet, in REPOS order."""
    units = []
    for entry in plan.entries:
        if entry.repo in finished:
            continue
        unit = Unit.call(entry.repo, study_unit, entry, plan.settings, plan.study, plan.db_url,
                         resources=Resources(cpus=1))  # fmt: skip
        units.append(unit)
    return units


def run_study(
    executor: Executor, plan: StudyPlan, view: SweepView | None = None
) -> tuple[Tally, list[RepoRecord]]:
    """Measure what is left of the study; the tally and every stored repository after."""
    from slopmark.code.study.stored import ensure_study, finished_repos, study_records
    from slopmark.store.db import open_store

    engine = open_store(plan.db_url)
    groups = {e.repo: e.group for e in plan.entries if e.group is not None}
    ensure_study(engine, plan.study, str(plan.repos_file), plan.settings, len(plan.entries), groups)
    units = study_units(plan, finished_repos(engine, plan.study))
    skipped = len(plan.entries) - len(units)
    tally = run_sweep(executor, units, view=view, skipped=skipped)
    return tally, study_records(engine, plan.study)
