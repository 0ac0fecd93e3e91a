"""Paired comparison of two models on the tasks both ran, one per board group.

Per (model, task) the latest ok run counts (as on the leaderboard). On the
common tasks, `slopmark.board.stats.paired` gives the mean per-task score
difference A − B with its SE clustered by template and its CI, the
correlation of the two models' scores, and McNemar's exact test on the
pass/fail pairs. Groups (harness version, task-set version, mode) are never
merged: a comparison is made in each group where both models have runs.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import asdict, dataclass
from typing import Any

from slopmark.board.counted import (
    Columns,
    CountedRow,
    Group,
    Outcome,
    collect,
    columns,
    truthy,
)
from slopmark.board.stats import PairedComparison, paired


@dataclass(frozen=True)
class Comparison:
    group: Group
    model_a: str
    model_b: str
    tasks_a: int
    tasks_b: int
    common: int
    templates: int
    #: pass rates on the common tasks (None when there are none)
    pass_rate_a: float | None
    pass_rate_b: float | None
    paired: PairedComparison


def compare(outcomes: Iterable[Outcome], model_a: str, model_b: str) -> tuple[Comparison, ...]:
    """A comparison per group in which both models have ok runs, in group order."""
    groups = collect(item for item in outcomes if item.model in (model_a, model_b))
    return tuple(
        _compare(group, runs.latest[model_a], runs.latest[model_b], model_a, model_b)
        for group, runs in sorted(groups.items())
        if runs.latest.get(model_a) and runs.latest.get(model_b)
    )


def _rate(runs: Columns) -> float | None:
    return sum(truthy(runs.passed)) / len(runs.passed) if runs.passed else None


def _paired(a_runs: Columns, b_runs: Columns) -> PairedComparison:
    """`paired` on the tasks where both runs have a score (row i: one task for both)."""
    kept = [
        i for i, scores in enumerate(zip(a_runs.score, b_runs.score, strict=True))
        if None not in scores
    ]  # fmt: skip
    a_scores = [float(a_runs.score[i] or 0.0) for i in kept]
    b_scores = [float(b_runs.score[i] or 0.0) for i in kept]
    a_passed = truthy(a_runs.passed[i] for i in kept)
    b_passed = truthy(b_runs.passed[i] for i in kept)
    return paired(a_scores, b_scores, [a_runs.cluster[i] for i in kept], a_passed, b_passed)


def _compare(
    group: Group,
    a: Mapping[str, CountedRow],
    b: Mapping[str, CountedRow],
    name_a: str,
    name_b: str,
) -> Comparison:
    common = sorted(a.keys() & b.keys())
    a_runs, b_runs = columns([a[t] for t in common]), columns([b[t] for t in common])
    return Comparison(
        group=group,
        model_a=name_a,
        model_b=name_b,
        tasks_a=len(a),
        tasks_b=len(b),
        common=len(common),
        templates=len(set(a_runs.cluster)),
        pass_rate_a=_rate(a_runs),
        pass_rate_b=_rate(b_runs),
        paired=_paired(a_runs, b_runs),
    )


def comparison_json(comparison: Comparison) -> dict[str, Any]:
    """The comparison as JSON-ready data with its group's label (``board compare --json``
    and ``/api/compare`` print this)."""
    return asdict(comparison) | {"label": comparison.group.label()}
