"""Solve rates, phases and trajectories, on hand-made checkpoint results."""

from __future__ import annotations

import pytest

from slopmark.code.bench.results import AgentRecord, CaseOutcome, CheckpointResult, Quality
from slopmark.code.bench.scoring import phase, summarize


def quality(erosion: float | None, verbosity: float | None) -> Quality:
    return Quality(erosion, verbosity, 100, 2, 5, 1, 12, 10, 2)


def result(
    index: int,
    count: int,
    outcomes: dict[str, list[bool]],
    q: Quality | None = None,
    status: str = "scored",
    problem: str = "p",
    cost: float | None = 0.5,
) -> CheckpointResult:
    tests = tuple(
        CaseOutcome(f"t::{group}{i}", group, "passed" if ok else "failed")
        for group, flags in outcomes.items()
        for i, ok in enumerate(flags)
    )
    return CheckpointResult(
        problem=problem, problem_version=1, checkpoint=f"checkpoint_{index + 1}",
        order=index + 1, index=index, count=count, status=status,  # type: ignore[arg-type]
        agent=AgentRecord("ok", 10.0, cost_usd=cost, input_tokens=100, output_tokens=20),
        tests=tests, quality=q,
    )  # fmt: skip


@pytest.mark.parametrize(
    ("count", "phases"),
    [
        (1, ["Start"]),
        (2, ["Start", "Final"]),
        (3, ["Start", "Early", "Final"]),
        (5, ["Start", "Early", "Mid", "Late", "Final"]),
        (8, ["Start", "Early", "Early", "Mid", "Mid", "Late", "Late", "Final"]),
    ],
)
def test_phases(count: int, phases: list[str]) -> None:
    assert [phase(i, count) for i in range(count)] == phases


def test_strict_isolated_core() -> None:
    all_pass = result(1, 3, {"core": [True], "error": [True], "regression": [True]})
    regression_fails = result(1, 3, {"core": [True], "error": [True], "regression": [False]})
    error_fails = result(1, 3, {"core": [True], "error": [False], "regression": [True]})
    assert (all_pass.strict, all_pass.isolated, all_pass.core) == (True, True, True)
    assert (regression_fails.strict, regression_fails.isolated, regression_fails.core) == (
        False, True, True,
    )  # fmt: skip
    assert (error_fails.strict, error_fails.isolated, error_fails.core) == (False, False, True)
    assert error_fails.pass_fraction == pytest.approx(2 / 3)


def test_unscored_checkpoints_count_as_zero() -> None:
    failed = result(0, 2, {}, status="agent_failed")
    assert (failed.strict, failed.isolated, failed.core, failed.pass_fraction) == (
        False, False, False, 0.0,
    )  # fmt: skip


def test_summary_uses_fixed_denominator_and_never_imputes_quality() -> None:
    results = [
        result(0, 3, {"core": [True]}, quality(0.1, 0.05)),
        result(1, 3, {"core": [False]}, quality(0.3, 0.02)),
        result(2, 3, {}, None, status="not_run", cost=None),
        result(0, 2, {"core": [True]}, quality(0.0, 0.1), problem="q"),
        result(1, 2, {"core": [True], "regression": [True]}, quality(0.2, 0.1), problem="q"),
    ]
    summary = summarize(results)
    assert summary.overall.checkpoints == 5
    assert summary.overall.strict == pytest.approx(3 / 5)
    assert summary.overall.measured == 4
    assert summary.overall.erosion == pytest.approx((0.1 + 0.3 + 0.0 + 0.2) / 4)
    assert summary.partial == 1.0
    assert summary.phases["Start"].checkpoints == 2
    assert summary.phases["Final"].checkpoints == 2
    assert summary.phases["Final"].measured == 1
    assert summary.phases["Early"].erosion == pytest.approx(0.3)
    trajectories = {t.problem: t for t in summary.trajectories}
    assert trajectories["p"].erosion_rose is True
    assert trajectories["p"].verbosity_rose is False
    assert trajectories["p"].erosion_slope == pytest.approx(0.2)
    assert trajectories["q"].verbosity_rose is False
    assert summary.erosion_rose_share == 1.0
    assert summary.verbosity_rose_share == 0.0
    assert summary.cost_usd == pytest.approx(2.0)
    assert summary.cost_unknown == 1
    assert summary.input_tokens == 500
