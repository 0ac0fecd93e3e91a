"""The pair benchmark's statistics: hand-checked values and brute-force definitions."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from slopmark.paper.pairs import (
    Design,
    auroc,
    evaluate,
    pair_accuracy,
    tpr_at_fpr,
    two_way_interval,
)

scores = st.lists(st.sampled_from([0.0, 0.1, 0.25, 0.5, 0.75, 1.0]), min_size=1, max_size=30)


def test_pair_accuracy_counts_ties_as_half() -> None:
    assert pair_accuracy([(0.5, 0.2), (0.1, 0.3), (0.4, 0.4), (0.9, 0.0)]) == pytest.approx(2.5 / 4)
    assert pair_accuracy([]) is None


@given(scores, scores)
def test_auroc_is_the_mann_whitney_probability(ai: list[float], human: list[float]) -> None:
    brute = sum(1.0 if a > h else 0.5 if a == h else 0.0 for a in ai for h in human)
    assert auroc(ai, human) == pytest.approx(brute / (len(ai) * len(human)))


def test_auroc_known_values() -> None:
    assert auroc([1, 2, 3], [0, 0.5]) == 1.0
    assert auroc([0], [1]) == 0.0
    assert auroc([1, 1], [1]) == 0.5


def test_tpr_at_five_percent_fpr() -> None:
    human = [i / 100 for i in range(20)]  # 0.00 … 0.19: one of 20 may score above the threshold
    ai = [0.185, 0.18, 0.5, 0.05]
    assert tpr_at_fpr(ai, human) == pytest.approx(2 / 4)  # threshold 0.18: only 0.185 and 0.5
    assert tpr_at_fpr(ai, [0.1] * 5) == pytest.approx(3 / 4)  # 5 humans: none may exceed 0.1


@given(scores, scores)
def test_tpr_threshold_keeps_false_positives_at_most_five_percent(
    ai: list[float], human: list[float]
) -> None:
    value = tpr_at_fpr(ai, human)
    assert value is not None and 0.0 <= value <= 1.0


def test_bootstrap_interval_contains_the_estimate_and_is_seeded() -> None:
    pairs = [(0.6, 0.2), (0.5, 0.5), (0.3, 0.4), (0.8, 0.1), (0.7, 0.6), (0.2, 0.1)]
    report = evaluate("m", Design.matched(pairs), samples=500, seed=3)
    assert report.pairs == 6 and report.design == "matched pairs"
    assert report.pair_accuracy.value == pytest.approx(4.5 / 6)
    low, high = report.pair_accuracy.low, report.pair_accuracy.high
    assert low is not None and high is not None and low <= 4.5 / 6 <= high
    design = Design.matched(pairs)
    assert two_way_interval(design, 500, 3) == two_way_interval(design, 500, 3)
    assert evaluate("m", Design.matched([(0.5, 0.1)])).auroc.low is None


def test_all_cross_pairs_accuracy_is_the_auroc() -> None:
    ai, human = [0.9, 0.4, 0.7], [0.1, 0.5, 0.7, 0.2]
    report = evaluate("m", Design.crossed(ai, human), samples=300)
    assert report.design == "all cross pairs" and report.pairs == 12
    assert report.pair_accuracy.value == pytest.approx(report.auroc.value)
    assert (report.ai_papers, report.human_papers) == (3, 4)


def test_a_shared_paper_widens_the_interval() -> None:
    """The same six pair outcomes: once with six human papers, once with one shared."""
    ai = (0.9, 0.8, 0.7, 0.3, 0.2, 0.6)
    apart = Design(ai, (0.5,) * 6, tuple((i, i) for i in range(6)))
    shared = Design(ai, (0.5, 0.5), tuple((i, i // 3) for i in range(6)))
    low_a, high_a = two_way_interval(apart, 2000, 1)
    low_s, high_s = two_way_interval(shared, 2000, 1)
    assert None not in (low_a, high_a, low_s, high_s)
    assert high_s - low_s > high_a - low_a  # type: ignore[operator]
