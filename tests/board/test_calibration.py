"""Calibration (ECE, Brier, overconfidence, reliability bins) against scikit-learn's numbers.

References in ``reference/calibration.json`` come from
``sklearn.calibration.calibration_curve`` and ``sklearn.metrics.brier_score_loss``
(see ``reference/make_reference.py``; the suite does not run it). sklearn's
bins are closed on the right and ours on the left, so the reference data
avoids bin edges and the edges are pinned by the inline cases below.
"""

from __future__ import annotations

import json
import math
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from slopmark.board.calibration import Bin, CalibrationReport, calibration
from slopmark.errors import BadInput

CASES = json.loads(
    (Path(__file__).parent / "reference" / "calibration.json").read_text(encoding="utf-8")
)


@pytest.mark.parametrize("case", CASES, ids=lambda c: c["name"])
def test_calibration_matches_sklearn(case: dict[str, Any]) -> None:
    got = calibration(case["confidences"], case["correct"])
    assert got.n == len(case["confidences"])
    assert got.ece is not None and got.brier is not None and got.overconfidence is not None
    assert math.isclose(got.ece, case["ece"], rel_tol=1e-12, abs_tol=1e-15)
    assert math.isclose(got.brier, case["brier"], rel_tol=1e-12, abs_tol=1e-15)
    assert math.isclose(got.overconfidence, case["overconfidence"], rel_tol=1e-12, abs_tol=1e-15)
    assert [b.count for b in got.bins] == case["counts"]
    full = [b for b in got.bins if b.count]
    for ours, accuracy, confidence in zip(
        full, case["accuracy"], case["mean_confidence"], strict=True
    ):
        assert ours.accuracy is not None and ours.mean_confidence is not None
        assert math.isclose(ours.accuracy, accuracy, rel_tol=1e-12)
        assert math.isclose(ours.mean_confidence, confidence, rel_tol=1e-12)


def test_a_worked_example() -> None:
    # bin [0.9, 1.0]: 4 answers, accuracy 0.75 at confidence 0.9 → 4/5 · 0.15 = 0.12
    # bin [0.1, 0.2): 1 answer, accuracy 0 at confidence 0.1    → 1/5 · 0.10 = 0.02
    got = calibration([0.9, 0.9, 0.9, 0.9, 0.1], [True, True, True, False, False])
    assert got.ece is not None and math.isclose(got.ece, 0.14)  # ECE = 0.14
    assert got.brier is not None and math.isclose(got.brier, 0.17)  # (3·0.01 + 0.81 + 0.01)/5
    assert got.overconfidence is not None and math.isclose(got.overconfidence, 0.14)


def test_perfect_calibration_has_no_error() -> None:
    got = calibration([0.25] * 4 + [0.75] * 4, [True, False, False, False, True, True, True, False])
    assert got.ece == 0.0 and got.overconfidence == 0.0


def test_bins_are_closed_on_the_left_and_the_last_holds_1() -> None:
    got = calibration([0.0, 0.1, 0.3, 0.7, 0.9999, 1.0], [True] * 6)
    assert [b.count for b in got.bins] == [1, 1, 0, 1, 0, 0, 0, 1, 0, 2]
    assert (got.bins[3].low, got.bins[3].high) == (0.3, 0.4)
    four = calibration([0.25, 0.5, 0.749], [False] * 3, bins=4)
    assert [b.count for b in four.bins] == [0, 1, 2, 0]


def test_no_answers_is_undefined_with_empty_bins() -> None:
    got = calibration([], [])
    assert (got.n, got.ece, got.brier, got.overconfidence) == (0, None, None, None)
    assert len(got.bins) == 10 and got.bins[0] == Bin(0.0, 0.1, 0, None, None)


def test_empty_bins_say_none_not_zero() -> None:
    got = calibration([0.55], [True])
    assert got.bins[5].accuracy == 1.0 and got.bins[5].mean_confidence == 0.55
    assert all(b.accuracy is None and b.mean_confidence is None for b in got.bins if not b.count)


@pytest.mark.parametrize(
    ("args", "fragment"),
    [
        (([1.2], [True]), r"confidences\[0\] = 1.2"),
        (([math.nan], [True]), r"confidences\[0\] = nan"),
        (([0.5, 0.5], [True]), "2 confidences but 1 correctness"),
        (([0.5], [True], 0), "bins=0"),
    ],
)
def test_bad_input_names_the_value(args: tuple[Any, ...], fragment: str) -> None:
    with pytest.raises(BadInput, match=fragment):
        calibration(*args)


_answers = st.lists(
    st.tuples(st.floats(min_value=0.0, max_value=1.0, allow_nan=False), st.booleans()),
    max_size=80,
)


@settings(max_examples=150, deadline=None)
@given(answers=_answers, bins=st.integers(1, 20), seed=st.randoms(use_true_random=False))
def test_reports_are_bounded_and_order_free(
    answers: list[tuple[float, bool]], bins: int, seed: Any
) -> None:
    got = calibration([c for c, _ in answers], [ok for _, ok in answers], bins)
    assert isinstance(got, CalibrationReport) and len(got.bins) == bins
    assert sum(b.count for b in got.bins) == got.n == len(answers)
    if answers:
        assert got.ece is not None and got.brier is not None and got.overconfidence is not None
        assert 0.0 <= got.ece <= 1.0 and 0.0 <= got.brier <= 1.0
        assert -1.0 <= got.overconfidence <= 1.0
        assert abs(got.overconfidence) <= got.ece + 1e-12  # |Σ w·gap| ≤ Σ w·|gap|
    for b in got.bins:
        if b.mean_confidence is not None:
            assert b.low <= b.mean_confidence <= b.high
    shuffled = list(answers)
    seed.shuffle(shuffled)
    assert calibration([c for c, _ in shuffled], [ok for _, ok in shuffled], bins) == got
