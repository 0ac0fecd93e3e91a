"""The matrix's pure core: cells from the store's numbers, row filters, template pairs."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from board.runs import series_run
from slopmark.board.counted import counted, outcome
from slopmark.board.matrix import (
    ERRORED,
    FAIL,
    PASS,
    Cell,
    Filters,
    Row,
    cell,
    significant,
    template_pairs,
)


@pytest.mark.parametrize(
    ("latest_ok", "latest", "runs", "expected"),
    [
        (4 * 17 + 2, 17, 1, Cell(PASS, 17, 1)),
        (4 * 17 + 1, 20, 3, Cell(FAIL, 17, 3)),  # a later errored run: the ok one is shown
        (None, 20, 2, Cell(ERRORED, 20, 2)),  # every run errored: the latest is shown
    ],
)
def test_a_cell_is_the_latest_ok_run_or_the_latest_errored_one(
    latest_ok: int | None, latest: int, runs: int, expected: Cell
) -> None:
    assert cell(latest_ok, latest, runs) == expected


@given(st.integers(min_value=1, max_value=2**40), st.booleans())
def test_a_packed_verdict_gives_back_its_run_and_verdict(run_id: int, passed: bool) -> None:
    packed = 4 * run_id + (2 if passed else 1)
    assert cell(packed, run_id, 1) == Cell(PASS if passed else FAIL, run_id, 1)


def row(*verdicts: str, template: str | None = "t") -> Row:
    cells = {f"m{i}": Cell(verdict, i + 1, 1) for i, verdict in enumerate(verdicts)}
    return Row(template, "task", cells)


@pytest.mark.parametrize(
    ("verdicts", "failures", "differ"),
    [
        ((PASS, PASS), False, False),
        ((PASS, FAIL), True, True),
        ((FAIL, FAIL), True, False),
        ((PASS, ERRORED), False, False),  # an errored run is no failure, no differing verdict
        ((FAIL, ERRORED), True, False),
        ((), False, False),
    ],
)
def test_rows_kept_by_only_failures_and_only_where_models_differ(
    verdicts: tuple[str, ...], failures: bool, differ: bool
) -> None:
    assert Filters(failures=True).keeps(row(*verdicts)) is failures
    assert Filters(differ=True).keeps(row(*verdicts)) is differ
    assert Filters().keeps(row(*verdicts))


def test_the_template_filter_keeps_its_templates_and_tasks_without_one_by_cluster() -> None:
    only = Filters(templates=frozenset({"t", "task:task"}))
    assert only.keeps(row(PASS)) and only.keeps(row(PASS, template=None))
    assert not only.keeps(row(PASS, template="other"))
    assert not Filters(templates=frozenset()).keeps(row(PASS))


def counted_rows(model: str, template: str, results: list[bool], **values: Any) -> dict[str, Any]:
    found = {}
    for index, passed in enumerate(results):
        run = series_run(model, f"{template}-{index}", template_id=template, passed=passed,
                         score=float(passed), id=index + 1, **values)  # fmt: skip
        found[run.task_id] = counted(outcome(run))
    return found


def test_a_template_is_significant_when_mcnemar_says_so() -> None:
    six, five = [True] * 6, [True] * 5
    a = counted_rows("a", "six", six) | counted_rows("a", "five", five)
    b = counted_rows("b", "six", [not x for x in six]) | counted_rows("b", "five", [False] * 5)
    pairs = template_pairs(a, b)
    assert pairs["six"].comparison.discordant == (6, 0)
    assert pairs["six"].comparison.mcnemar_p == pytest.approx(2 * 0.5**6)
    assert pairs["six"].comparison.mean_difference == 1.0
    assert pairs["five"].comparison.mcnemar_p == pytest.approx(2 * 0.5**5)  # 0.0625: not yet
    assert significant(pairs.values()) == {"six"}


def test_template_pairs_use_only_tasks_both_ran_and_scored() -> None:
    a = counted_rows("a", "t", [True, True, True])
    b = counted_rows("b", "t", [False, False])
    unscored = series_run("b", "t-1", template_id="t", passed=False, id=9)
    b[unscored.task_id] = counted(outcome(unscored))
    comparison = template_pairs(a, b)["t"].comparison
    assert comparison.n == 1 and comparison.discordant == (1, 0)  # t-1 has no score, t-2 no run
    assert template_pairs(a, {}) == {}
