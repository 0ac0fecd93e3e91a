"""A study's numbers per scope, side by side (source, tests, examples, docs).

Each sampled commit keeps its numbers per scope (`slopmark.code.measure.scopes.by_scope`:
files, SLOC, erosion and verbosity of that scope's files alone, pooled as the tree's
totals are). A scope's summary is the study's summary computed over those numbers in
place of the whole tree's: the same statistics, the same ``--min-commits`` (a repository
counts in a scope when that many of its commits have files of it) and birth rule. A
commit stored before the per-scope numbers were (NULL ``by_scope``) has none.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from slopmark.code.measure.scopes import SCOPES
from slopmark.code.study.records import CommitPoint, RepoRecord
from slopmark.code.study.summary import StudySummary, summarise_study


def _point(point: CommitPoint, scope: str) -> CommitPoint:
    """``point`` with the numbers of ``scope``'s files only (none: no file of it)."""
    found: dict[str, Any] = (point.by_scope or {}).get(scope) or {}
    return replace(
        point, files=int(found.get("files", 0)), sloc=int(found.get("sloc", 0)),
        erosion=found.get("erosion"), verbosity=found.get("verbosity"),
    )  # fmt: skip


def scoped(record: RepoRecord, scope: str) -> RepoRecord:
    """``record`` as if only ``scope`` had been measured."""
    return replace(record, commits=tuple(_point(p, scope) for p in record.commits))


def scopes_present(records: list[RepoRecord]) -> list[str]:
    """The scopes some sampled commit has files of, in `SCOPES` order."""
    seen = {scope for r in records for p in r.commits for scope in (p.by_scope or {})}
    return [scope for scope in SCOPES if scope in seen]


def scope_summaries(records: list[RepoRecord], overall: StudySummary) -> dict[str, StudySummary]:
    """Each present scope's summary, computed as ``overall`` was; empty when fewer than
    two scopes are present (one scope is the whole study)."""
    present = scopes_present(records)
    if len(present) < 2:
        return {}
    return {
        scope: summarise_study(
            [scoped(r, scope) for r in records], overall.min_commits, None, overall.birth
        )
        for scope in present
    }
