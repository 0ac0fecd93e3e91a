"""The board's statistics against reference values from scipy and statsmodels.

The references live in ``reference/*.json``, written by
``reference/make_reference.py`` (which this suite never runs: scipy and
statsmodels are not dependencies). Properties are checked with hypothesis.
"""

from __future__ import annotations

import inspect
import json
import math
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from slopmark.board import calibration, sample_size, stats
from slopmark.board import distributions as dist
from slopmark.board.stats import (
    Interval,
    PairedComparison,
    clustered_mean,
    mcnemar_exact,
    paired,
    pass_rate_interval,
    ties_contain_zero,
    wilson,
)
from slopmark.errors import BadInput

REFERENCE = Path(__file__).parent / "reference"
DISTRIBUTIONS = json.loads((REFERENCE / "distributions.json").read_text(encoding="utf-8"))
STATS = json.loads((REFERENCE / "stats.json").read_text(encoding="utf-8"))
PROPERTY = settings(max_examples=150, deadline=None)


def close(
    ours: float | None, expected: float | None, rel: float = 1e-9, tol: float = 1e-12
) -> bool:
    if ours is None or expected is None:
        return ours is None and expected is None
    return math.isclose(ours, expected, rel_tol=rel, abs_tol=tol)


def assert_rows(rows: list[list[Any]], compute: Any, rel: float, tol: float = 0.0) -> None:
    wrong = [(row, compute(*row[:-1])) for row in rows]
    wrong = [(row, got) for row, got in wrong if not close(got, row[-1], rel, tol)]
    assert not wrong, f"{len(wrong)} of {len(rows)} differ, e.g. {wrong[:3]}"


# --- distributions ------------------------------------------------------------------


def test_normal_ppf_matches_scipy() -> None:
    assert_rows(DISTRIBUTIONS["normal_ppf"], dist.normal_ppf, rel=1e-14, tol=1e-15)


def test_normal_cdf_matches_scipy() -> None:
    assert_rows(DISTRIBUTIONS["normal_cdf"], dist.normal_cdf, rel=5e-13, tol=0.0)


def test_t_ppf_matches_scipy() -> None:
    # near p = ½ scipy itself is off by ~5e-14 absolute (mpmath sides with ours), hence tol
    assert_rows(DISTRIBUTIONS["t_ppf"], dist.t_ppf, rel=1e-12, tol=1e-13)


def test_t_cdf_and_sf_match_scipy() -> None:
    cdf_rows = [row[:3] for row in DISTRIBUTIONS["t_cdf_sf"]]
    sf_rows = [[*row[:2], row[3]] for row in DISTRIBUTIONS["t_cdf_sf"]]
    assert_rows(cdf_rows, dist.t_cdf, rel=1e-11, tol=1e-300)
    assert_rows(sf_rows, dist.t_sf, rel=1e-11, tol=1e-300)


def test_regularized_beta_matches_scipy() -> None:
    assert_rows(DISTRIBUTIONS["regularized_beta"], dist.regularized_beta, rel=1e-10, tol=1e-300)


def test_binomial_cdf_matches_scipy() -> None:
    assert_rows(DISTRIBUTIONS["binomial_cdf"], dist.binomial_cdf, rel=1e-10, tol=1e-300)


def test_binomial_ppf_matches_scipy() -> None:
    rows = DISTRIBUTIONS["binomial_ppf"]
    wrong = [row for row in rows if dist.binomial_ppf(*row[:3]) != row[3]]
    assert not wrong, wrong[:3]


def test_closed_forms_of_t() -> None:
    # df = 1 is the Cauchy distribution; df = 2 has t = (2p − 1)·√(2 / (4p(1 − p)))
    for p in (0.01, 0.2, 0.7, 0.975, 0.999):
        assert math.isclose(dist.t_ppf(p, 1), math.tan(math.pi * (p - 0.5)), rel_tol=1e-12)
        two = (2 * p - 1) * math.sqrt(2 / (4 * p * (1 - p)))
        assert math.isclose(dist.t_ppf(p, 2), two, rel_tol=1e-12)


@pytest.mark.parametrize(
    ("call", "fragment"),
    [
        (lambda: dist.normal_ppf(0.0), "p=0.0"),
        (lambda: dist.t_ppf(1.0, 3), "p=1.0"),
        (lambda: dist.t_ppf(0.9, 0), "df=0"),
        (lambda: dist.t_sf(math.nan, 3), "t=nan"),
        (lambda: dist.regularized_beta(1.5, 2, 3), "x=1.5"),
        (lambda: dist.regularized_beta(0.5, -1, 3), "a=-1"),
        (lambda: dist.binomial_cdf(2, -1, 0.5), "n=-1"),
        (lambda: dist.binomial_cdf(2, 5, 1.5), "p=1.5"),
    ],
)
def test_distributions_reject_bad_arguments(call: Any, fragment: str) -> None:
    with pytest.raises(BadInput, match=fragment):
        call()


def test_infinite_t_and_binomial_edges() -> None:
    assert dist.t_sf(math.inf, 4) == 0.0 and dist.t_cdf(math.inf, 4) == 1.0
    assert dist.binomial_cdf(-1, 5, 0.3) == 0.0 and dist.binomial_cdf(5, 5, 0.3) == 1.0
    assert dist.binomial_cdf(0, 0, 0.5) == 1.0
    assert dist.binomial_ppf(0.5, 7, 0.0) == 0 and dist.binomial_ppf(0.5, 7, 1.0) == 7


# --- Wilson, clustered means, pass rates ---------------------------------------------


@pytest.mark.parametrize("case", STATS["wilson"], ids=lambda c: f"{c['successes']}/{c['n']}")
def test_wilson_matches_statsmodels(case: dict[str, Any]) -> None:
    got = wilson(case["successes"], case["n"], case["confidence"])
    assert got.method == "wilson" and got.n == case["n"]
    assert got.estimate == case["successes"] / case["n"]
    assert close(got.low, case["low"], tol=1e-13) and close(got.high, case["high"], tol=1e-13)


@pytest.mark.parametrize(
    "case", STATS["clustered_mean"], ids=lambda c: f"{c['name']}@{c['confidence']}"
)
def test_clustered_mean_matches_statsmodels_cr1(case: dict[str, Any]) -> None:
    got = clustered_mean(case["values"], case["clusters"], case["confidence"])
    assert got.n == len(case["values"]) and got.clusters == len(set(case["clusters"]))
    assert close(got.estimate, case["estimate"])
    assert close(got.low, case["low"]) and close(got.high, case["high"])
    assert got.method == ("undefined" if case["low"] is None else "cluster-t")


@pytest.mark.parametrize("case", STATS["pass_rate"], ids=lambda c: f"{c['name']}@{c['confidence']}")
def test_pass_rate_interval_follows_the_rule(case: dict[str, Any]) -> None:
    got = pass_rate_interval(case["passed"], case["clusters"], case["confidence"])
    assert got.method == case["method"]
    assert close(got.estimate, case["estimate"])
    assert close(got.low, case["low"]) and close(got.high, case["high"])


def test_singleton_clusters_make_cluster_wilson_plain_wilson() -> None:
    passed = [True] * 7 + [False] * 2
    got = pass_rate_interval(passed, [str(i) for i in range(9)])
    plain = wilson(7, 9)
    assert got.method == "cluster-wilson"
    assert close(got.low, plain.low, rel=1e-12) and close(got.high, plain.high, rel=1e-12)


def test_clustering_widens_a_pass_rate_interval() -> None:
    passed = [True] * 8 + [False] * 8 + [True] * 2 + [False] * 6
    spread = pass_rate_interval(passed, [str(i) for i in range(24)])
    lumped = pass_rate_interval(passed, ["a"] * 8 + ["b"] * 8 + ["c"] * 8)
    assert spread.low is not None and spread.high is not None
    assert lumped.low is not None and lumped.high is not None
    assert lumped.high - lumped.low > spread.high - spread.low


@pytest.mark.parametrize(
    ("got", "n", "clusters"),
    [
        (lambda: wilson(0, 0), 0, 0),
        (lambda: clustered_mean([], []), 0, 0),
        (lambda: pass_rate_interval([], []), 0, 0),
    ],
)
def test_nothing_observed_is_undefined_not_zero(got: Any, n: int, clusters: int) -> None:
    assert got() == Interval(None, None, None, n, clusters, "undefined")


def test_one_cluster_has_an_estimate_but_no_interval() -> None:
    got = clustered_mean([0.2, 0.4, 0.9], ["t", "t", "t"])
    assert got == Interval(got.estimate, None, None, 3, 1, "undefined")
    assert close(got.estimate, 0.5)
    rate = pass_rate_interval([True, True, False], ["t", "t", "t"])
    assert rate.low is None and rate.high is None and close(rate.estimate, 2 / 3)


@pytest.mark.parametrize(
    ("call", "fragment"),
    [
        (lambda: wilson(4, 3), "successes=4"),
        (lambda: wilson(1, 3, confidence=1.0), "confidence=1.0"),
        (lambda: clustered_mean([1.0, 2.0], ["a"]), "clusters has 1 items but values has 2"),
        (lambda: clustered_mean([1.0, math.nan], ["a", "b"]), r"values\[1\] = nan"),
        (lambda: pass_rate_interval([True], ["a"], confidence=0.0), "confidence=0.0"),
        (lambda: paired([1.0], [1.0], ["a"], a_passed=[True]), "both a_passed and b_passed"),
        (lambda: paired([1.0], [1.0], ["a"], [True, False], [True]), "a_passed has 2"),
        (lambda: paired([1.0], [math.inf], ["a"]), r"b_scores\[0\] = inf"),
        (lambda: mcnemar_exact(-1, 3), "b=-1"),
    ],
)
def test_bad_input_names_the_value(call: Any, fragment: str) -> None:
    with pytest.raises(BadInput, match=fragment):
        call()


# --- paired comparisons ---------------------------------------------------------------


@pytest.mark.parametrize("case", STATS["paired"], ids=lambda c: c["name"])
def test_paired_matches_statsmodels_and_scipy(case: dict[str, Any]) -> None:
    got = paired(
        case["a_scores"], case["b_scores"], case["clusters"], case["a_passed"], case["b_passed"]
    )
    assert got.n == len(case["a_scores"]) and got.clusters == len(set(case["clusters"]))
    assert close(got.mean_difference, case["mean_difference"])
    assert close(got.se, case["se"]) and close(got.low, case["low"])
    assert close(got.high, case["high"]) and close(got.correlation, case["correlation"])
    assert list(got.discordant) == case["discordant"]
    assert close(got.mcnemar_p, case["mcnemar_p"], rel=1e-10)


@pytest.mark.parametrize("row", STATS["mcnemar"], ids=lambda r: f"{r[0]}-{r[1]}")
def test_mcnemar_exact_matches_statsmodels(row: list[float]) -> None:
    b, c, expected = row
    assert close(mcnemar_exact(int(b), int(c)), expected, rel=1e-10, tol=1e-300)


def _comparison(low: float | None, high: float | None) -> PairedComparison:
    return PairedComparison(10, 5, 0.0, None, low, high, None, (0, 0), None)


@pytest.mark.parametrize(
    ("low", "high", "tied"),
    [
        (-0.1, 0.2, True),
        (0.0, 0.3, True),
        (-0.3, 0.0, True),
        (0.01, 0.2, False),
        (-0.2, -0.01, False),
        (None, None, True),
        (0.1, None, True),
    ],
)
def test_ties_contain_zero(low: float | None, high: float | None, tied: bool) -> None:
    assert ties_contain_zero(_comparison(low, high)) is tied


def test_paired_without_pass_fail_makes_no_mcnemar_claim() -> None:
    got = paired([0.5, 0.7, 0.2], [0.4, 0.7, 0.1], ["a", "b", "c"])
    assert got.discordant == (0, 0) and got.mcnemar_p is None
    same = paired([1.0, 0.0], [1.0, 0.0], ["a", "b"], [True, False], [True, False])
    assert same.discordant == (0, 0) and same.mcnemar_p is None and same.correlation == 1.0


# --- properties --------------------------------------------------------------------------

_labels = st.sampled_from("abcdefg")
_rows = st.lists(st.tuples(st.booleans(), _labels), max_size=60)
_scores = st.floats(min_value=-5, max_value=5, allow_nan=False, width=32)
_score_rows = st.lists(
    st.tuples(_scores, _scores, st.booleans(), st.booleans(), _labels), max_size=40
)
_levels = st.sampled_from([0.8, 0.9, 0.95, 0.99])


def _ordered(interval: Interval) -> None:
    if interval.estimate is None:
        assert interval.low is None and interval.high is None and interval.n == 0
    if interval.low is None or interval.high is None:
        assert interval.low is None and interval.high is None
        assert interval.method == "undefined"
        return
    assert interval.estimate is not None
    assert interval.low <= interval.estimate <= interval.high


@PROPERTY
@given(n=st.integers(0, 3000), data=st.data(), confidence=_levels)
def test_wilson_is_ordered_and_inside_0_1(n: int, data: st.DataObject, confidence: float) -> None:
    got = wilson(data.draw(st.integers(0, n)), n, confidence)
    _ordered(got)
    if n:
        assert got.low is not None and got.high is not None
        assert 0.0 <= got.low <= got.high <= 1.0


@PROPERTY
@given(rows=_rows, confidence=_levels, seed=st.randoms(use_true_random=False))
def test_pass_rate_is_ordered_inside_0_1_and_order_free(
    rows: list[tuple[bool, str]], confidence: float, seed: Any
) -> None:
    got = pass_rate_interval([p for p, _ in rows], [c for _, c in rows], confidence)
    _ordered(got)
    assert got.n == len(rows) and got.clusters == len({c for _, c in rows})
    if got.low is not None and got.high is not None:
        assert got.low >= 0.0 and got.high <= 1.0
    shuffled = list(rows)
    seed.shuffle(shuffled)
    again = pass_rate_interval([p for p, _ in shuffled], [c for _, c in shuffled], confidence)
    assert again == got


ScoreRow = tuple[float, float, bool, bool, str]


def _both(rows: list[ScoreRow]) -> tuple[Interval, PairedComparison]:
    a, b = [r[0] for r in rows], [r[1] for r in rows]
    a_ok, b_ok, clusters = [r[2] for r in rows], [r[3] for r in rows], [r[4] for r in rows]
    return clustered_mean(a, clusters), paired(a, b, clusters, a_ok, b_ok)


@PROPERTY
@given(rows=_score_rows, seed=st.randoms(use_true_random=False))
def test_clustered_mean_and_paired_are_ordered_and_order_free(
    rows: list[ScoreRow], seed: Any
) -> None:
    mean, comparison = _both(rows)
    _ordered(mean)
    shuffled = list(rows)
    seed.shuffle(shuffled)
    assert _both(shuffled) == (mean, comparison)
    if comparison.low is not None and comparison.high is not None:
        assert comparison.mean_difference is not None
        assert comparison.low <= comparison.mean_difference <= comparison.high
    if comparison.mcnemar_p is not None:
        assert 0.0 < comparison.mcnemar_p <= 1.0
    if comparison.correlation is not None:
        assert -1.0 <= comparison.correlation <= 1.0


@PROPERTY
@given(rows=_score_rows)
def test_swapping_a_and_b_mirrors_the_comparison(rows: list[ScoreRow]) -> None:
    a = [r[0] for r in rows]
    b = [r[1] for r in rows]
    flags_a, flags_b, clusters = [r[2] for r in rows], [r[3] for r in rows], [r[4] for r in rows]
    forward = paired(a, b, clusters, flags_a, flags_b)
    backward = paired(b, a, clusters, flags_b, flags_a)
    assert forward.discordant == backward.discordant[::-1]
    assert forward.mcnemar_p == backward.mcnemar_p
    assert forward.se == backward.se and ties_contain_zero(forward) == ties_contain_zero(backward)
    if forward.mean_difference is not None and backward.mean_difference is not None:
        assert math.isclose(forward.mean_difference, -backward.mean_difference, abs_tol=1e-12)


@PROPERTY
@given(b=st.integers(0, 400), c=st.integers(0, 400))
def test_mcnemar_is_a_symmetric_probability(b: int, c: int) -> None:
    p = mcnemar_exact(b, c)
    assert 0.0 < p <= 1.0 and p == mcnemar_exact(c, b)
    if b == c:
        assert p == 1.0


def test_public_names_are_exactly_all() -> None:
    for module in (calibration, dist, sample_size, stats):
        defined = {
            name
            for name, value in vars(module).items()
            if not name.startswith("_")
            and (inspect.isfunction(value) or inspect.isclass(value))
            and value.__module__ == module.__name__
        }
        assert sorted(defined) == sorted(module.__all__), module.__name__
