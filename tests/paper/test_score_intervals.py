"""Score intervals: Wilson's closed form, Newcombe's AUROC bound, and no zero-width
interval at perfect separation."""

from __future__ import annotations

import math

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from slopmark.paper.pairs import FEW_PAPERS, Design, evaluate
from slopmark.paper.score_intervals import Z95, auroc_interval, auroc_variance, wilson_interval


def wilson_closed_form(p: float, n: int) -> tuple[float, float]:
    """Wilson (1927) written out: (p + z²/2n ± z √(p(1−p)/n + z²/4n²)) / (1 + z²/n)."""
    z2 = Z95 * Z95
    centre, spread = p + z2 / (2 * n), Z95 * math.sqrt(p * (1 - p) / n + z2 / (4 * n * n))
    return (centre - spread) / (1 + z2 / n), (centre + spread) / (1 + z2 / n)


@pytest.mark.parametrize(("p", "n"), [(0.5, 100), (1.0, 8), (0.0, 12), (0.25, 20), (0.9, 7)])
def test_wilson_interval_matches_the_closed_form(p: float, n: int) -> None:
    assert wilson_interval(p, n) == pytest.approx(wilson_closed_form(p, n), abs=1e-9)


def test_hanley_mcneil_variance_at_equal_groups() -> None:
    """With m = n the symmetrised variance is Hanley–McNeil's own (m − 1 = n − 1 = N* − 1)."""
    theta, m = 0.7, 10
    q1, q2 = theta / (2 - theta), 2 * theta**2 / (1 + theta)
    hanley = (theta * (1 - theta) + (m - 1) * (q1 - theta**2) + (m - 1) * (q2 - theta**2)) / m**2
    assert auroc_variance(theta, m, m) == pytest.approx(hanley)


def test_perfect_separation_is_not_a_zero_width_interval() -> None:
    """AUROC 1.0 from 12 AI and 8 human papers: every interval reaches below 1."""
    report = evaluate("m", Design.crossed([0.6 + i / 100 for i in range(12)],
                                          [0.1 + j / 100 for j in range(8)]))  # fmt: skip
    for estimate in (report.auroc, report.pair_accuracy, report.tpr_at_5_fpr):
        assert estimate.value == 1.0 and estimate.high == 1.0
        assert estimate.low is not None and 0.5 < estimate.low < 0.95
    assert report.auroc.low == pytest.approx(0.793, abs=0.001)
    assert report.notes == ()


def test_perfect_matched_pairs_take_wilson_on_the_pairs() -> None:
    report = evaluate("m", Design.matched([(0.9, 0.1)] * 10))
    assert (report.pair_accuracy.low, report.pair_accuracy.high) == pytest.approx(
        wilson_closed_form(1.0, 10)
    )


@given(st.floats(0, 1), st.integers(1, 40), st.integers(1, 40))
def test_auroc_interval_holds_the_estimate_and_mirrors(value: float, m: int, n: int) -> None:
    found = auroc_interval(value, m, n)
    assert found is not None
    low, high = found
    assert 0.0 <= low <= value <= high <= 1.0
    assert auroc_interval(value, n, m) == found
    mirrored = auroc_interval(1 - value, m, n)
    assert mirrored is not None
    assert (1 - mirrored[1], 1 - mirrored[0]) == pytest.approx(found, abs=1e-9)


def test_a_group_of_fewer_than_five_papers_is_noted() -> None:
    report = evaluate("m", Design.crossed([0.9, 0.8, 0.7], [0.1, 0.2, 0.3, 0.4, 0.5]))
    assert len(report.notes) == 1
    assert report.notes[0].startswith(f"only 3 AI papers (fewer than {FEW_PAPERS})")
    assert auroc_interval(0.5, 0, 3) is None and wilson_interval(0.5, 0) is None


groups = st.lists(st.sampled_from([0.0, 0.25, 0.5, 0.75, 1.0]), min_size=2, max_size=9)


@settings(max_examples=40, deadline=None)
@given(groups, groups)
def test_every_interval_holds_its_estimate(ai: list[float], human: list[float]) -> None:
    report = evaluate("m", Design.crossed(ai, human), samples=200)
    for estimate in (report.pair_accuracy, report.auroc, report.tpr_at_5_fpr):
        assert estimate.value is not None and estimate.low is not None
        assert estimate.high is not None
        assert 0.0 <= estimate.low <= estimate.value + 1e-12
        assert estimate.value - 1e-12 <= estimate.high <= 1.0
