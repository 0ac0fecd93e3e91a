"""The study's 95% intervals (pure): Student's t critical values against a printed table,
the Wilson interval against its textbook values, and their invariants."""

from __future__ import annotations

import statistics

import pytest
from hypothesis import given
from hypothesis import strategies as st

from slopmark.code.study.intervals import MeanInterval, t_critical, wilson

#: two-sided 95% critical values of t (a printed table: NIST/SEMATECH e-Handbook, 1.3.6.7.2)
TABLE = {1: 12.706, 2: 4.303, 3: 3.182, 4: 2.776, 5: 2.571, 10: 2.228, 20: 2.086, 30: 2.042,
         60: 2.000, 100: 1.984}  # fmt: skip


@pytest.mark.parametrize(("df", "value"), sorted(TABLE.items()))
def test_t_critical_matches_the_table(df: int, value: float) -> None:
    assert t_critical(df) == pytest.approx(value, abs=5e-4)


def test_wilson_matches_its_textbook_values() -> None:
    # Newcombe (1998), Table I: 81/263 → 0.2553–0.3662; 0/10 → 0–0.2775
    assert wilson(81, 263) == pytest.approx((0.2553, 0.3662), abs=5e-5)
    assert wilson(0, 10) == pytest.approx((0.0, 0.2775), abs=5e-5)
    assert wilson(0, 0) is None


@given(st.integers(1, 500), st.data())
def test_a_wilson_interval_holds_its_share_inside_zero_and_one(n: int, data: st.DataObject) -> None:
    k = data.draw(st.integers(0, n))
    found = wilson(k, n)
    assert found is not None
    low, high = found
    assert 0.0 <= low <= k / n + 1e-12 and k / n - 1e-12 <= high <= 1.0


@given(st.lists(st.floats(-1e3, 1e3), min_size=2, max_size=40))
def test_a_mean_interval_holds_its_mean(values: list[float]) -> None:
    found = MeanInterval.of(values)
    assert found.low is not None and found.high is not None and found.mean is not None
    assert found.low <= found.mean + 1e-9 and found.mean - 1e-9 <= found.high
    assert found.sd == pytest.approx(statistics.stdev(values), abs=1e-9)


def test_undefined_is_none_with_its_n() -> None:
    assert MeanInterval.of([]) == MeanInterval(0, None, None, None, None)
    assert MeanInterval.of([2.0]) == MeanInterval(1, 2.0, None, None, None)
