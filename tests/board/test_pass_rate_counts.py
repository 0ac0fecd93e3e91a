"""`pass_rate_interval_of_counts` gives `pass_rate_interval`'s interval from per-cluster
counts (what /bench sums in SQL), on every path: cluster-t, cluster-Wilson, undefined."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from slopmark.board.stats import pass_rate_interval, pass_rate_interval_of_counts
from slopmark.errors import BadInput

#: per cluster: (passes, observations)
groups = st.lists(
    st.integers(0, 30).flatmap(lambda n: st.tuples(st.integers(0, n), st.just(n))),
    max_size=12,
)


def flags_of(counts: list[tuple[int, int]]) -> tuple[list[bool], list[str]]:
    flags: list[bool] = []
    clusters: list[str] = []
    for index, (passes, size) in enumerate(counts):
        flags += [True] * passes + [False] * (size - passes)
        clusters += [f"c{index}"] * size
    return flags, clusters


@given(groups)
def test_counts_give_the_same_interval_as_flags(counts: list[tuple[int, int]]) -> None:
    expected = pass_rate_interval(*flags_of(counts))
    got = pass_rate_interval_of_counts(counts)
    assert (got.n, got.clusters, got.method) == (expected.n, expected.clusters, expected.method)
    for ours, theirs in ((got.estimate, expected.estimate), (got.low, expected.low),
                         (got.high, expected.high)):  # fmt: skip
        assert (ours is None) == (theirs is None)
        assert ours == pytest.approx(theirs, abs=1e-12)


def test_counts_outside_zero_to_n_are_refused() -> None:
    with pytest.raises(BadInput, match=r"0 ≤ passes ≤ n"):
        pass_rate_interval_of_counts([(3, 2)])
