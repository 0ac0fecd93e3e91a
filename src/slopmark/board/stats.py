"""Estimates with honest intervals: Wilson, cluster-robust means, paired comparisons.

The unit of analysis is the template: tasks made from one template are
correlated, so standard errors are clustered by ``template_id`` (callers pass
the task id for a task without a template). Undefined parts are ``None``,
never 0, and every result carries its ``n`` and number of clusters.

Cluster-robust standard error of a mean (CR1, the numbers statsmodels' OLS
gives with ``cov_type="cluster"`` and ``use_t=True``, and Stata's ``vce(cluster)``)::

    ȳ = Σ y_i / N,   e_i = y_i − ȳ,   S_g = Σ_{i in cluster g} e_i
    SE² = C/(C−1) · (N−1)/(N−K) · Σ_g S_g² / N²

with C clusters and K = 1 parameter (the mean), so (N−1)/(N−K) is exactly 1
and the correction applied is C/(C−1). The interval is ȳ ± t_{C−1}·SE (t with
C − 1 degrees of freedom); with fewer than 2 clusters it is undefined.

Pass rates (``pass_rate_interval``) use that cluster-t interval when there
are at least 10 passes and 10 failures (n·p̂ ≥ 10 and n·(1−p̂) ≥ 10) and the
interval stays inside [0, 1]. Otherwise (near 0 or 1, or small n) they use a
cluster-adjusted Wilson interval: the Wilson score interval on the effective
sample size n* = (n / deff)·(t_{n−1} / t_{C−1})², where the design effect
deff = max(1, SE²_CR1 / SE²_iid) compares the clustered variance with the
naive s²/n, and the second factor is Korn & Graubard's (1998) degrees-of-
freedom adjustment. With no variation (p̂ = 0 or 1) deff cannot be estimated
and is taken as 1. With one observation per cluster n* = n: plain Wilson.

Sums use ``math.fsum`` (correctly rounded), so results do not depend on the
order of the rows, to the last bit.
"""

from __future__ import annotations

import math
from collections import Counter, defaultdict
from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache

from slopmark.board.distributions import binomial_cdf, normal_ppf, t_ppf
from slopmark.errors import BadInput

__all__ = [
    "Interval",
    "PairedComparison",
    "clustered_mean",
    "mcnemar_exact",
    "paired",
    "pass_rate_interval",
    "pass_rate_interval_of_counts",
    "ties_contain_zero",
    "wilson",
]

#: Fewer passes (or failures) than this switches a pass rate to the Wilson interval.
MIN_EACH_OUTCOME = 10


@dataclass(frozen=True)
class Interval:
    """An estimate with its interval; parts that cannot be computed are None."""

    estimate: float | None
    low: float | None
    high: float | None
    n: int  # observations
    clusters: int  # distinct clusters (templates)
    method: str  # "wilson", "cluster-t", "cluster-wilson", or "undefined" (no interval)


@dataclass(frozen=True)
class PairedComparison:
    """Model A minus model B on the same tasks, clustered by template."""

    n: int
    clusters: int
    mean_difference: float | None
    se: float | None
    low: float | None
    high: float | None
    correlation: float | None  # Pearson r of the two score vectors; None when undefined
    discordant: tuple[int, int]  # (A passed and B failed, A failed and B passed)
    mcnemar_p: float | None  # exact two-sided; None without pass/fail or discordant pairs


@dataclass(frozen=True)
class _Moments:
    n: int
    clusters: int
    mean: float | None
    se: float | None  # CR1 cluster-robust; None with fewer than 2 clusters
    iid_se: float | None  # s/√n ignoring clusters; None with fewer than 2 observations


def _check_confidence(confidence: float) -> None:
    if not 0.0 < confidence < 1.0:
        raise BadInput(f"confidence={confidence!r}: must be between 0 and 1, e.g. 0.95")


def _check_lengths(**columns: Sequence[object]) -> int:
    (first, first_column), *rest = columns.items()
    for name, column in rest:
        if len(column) != len(first_column):
            raise BadInput(
                f"{name} has {len(column)} items but {first} has {len(first_column)}: "
                "pass one item per task"
            )
    return len(first_column)


def _check_finite(name: str, values: Sequence[float]) -> None:
    if all(map(math.isfinite, values)):
        return
    index = next(i for i, value in enumerate(values) if not math.isfinite(value))
    raise BadInput(f"{name}[{index}] = {values[index]!r}: scores must be finite numbers")


def _moments(values: Sequence[float], clusters: Sequence[str]) -> _Moments:
    n = len(values)
    if n == 0:
        return _Moments(0, 0, None, None, None)
    mean = math.fsum(values) / n
    members: defaultdict[str, list[float]] = defaultdict(list)
    for value, cluster in zip(values, clusters, strict=True):
        members[cluster].append(value)
    residual = mean.__rsub__  # value − mean, the same float operation, mapped in C
    residuals = [list(map(residual, group)) for group in members.values()]
    count = len(residuals)
    between = math.fsum([math.fsum(group) ** 2 for group in residuals])
    se = math.sqrt(count / (count - 1) * between) / n if count >= 2 else None
    within = math.fsum([e * e for group in residuals for e in group])
    iid_se = math.sqrt(within / (n * (n - 1))) if n >= 2 else None
    return _Moments(n, count, mean, se, iid_se)


@lru_cache(maxsize=4096)
def _t_critical(confidence: float, df: int) -> float:
    return t_ppf(0.5 + 0.5 * confidence, df)


def _cluster_t(moments: _Moments, confidence: float) -> Interval:
    if moments.mean is None or moments.se is None:
        return Interval(moments.mean, None, None, moments.n, moments.clusters, "undefined")
    half = _t_critical(confidence, moments.clusters - 1) * moments.se
    low, high = moments.mean - half, moments.mean + half
    return Interval(moments.mean, low, high, moments.n, moments.clusters, "cluster-t")


def clustered_mean(
    values: Sequence[float], clusters: Sequence[str], confidence: float = 0.95
) -> Interval:
    """The mean with its CR1 cluster-robust t interval (see the module doc)."""
    _check_lengths(values=values, clusters=clusters)
    _check_finite("values", values)
    _check_confidence(confidence)
    return _cluster_t(_moments(values, clusters), confidence)


def _wilson_bounds(rate: float, n: float, z: float) -> tuple[float, float]:
    """The Wilson score interval for ``rate`` on ``n`` (possibly effective) observations."""
    square = z * z
    denominator = 1.0 + square / n
    centre = (rate + square / (2.0 * n)) / denominator
    half = z * math.sqrt(rate * (1.0 - rate) / n + square / (4.0 * n * n)) / denominator
    return max(0.0, min(rate, centre - half)), min(1.0, max(rate, centre + half))


def wilson(successes: int, n: int, confidence: float = 0.95) -> Interval:
    """The Wilson score interval of successes/n; each observation is its own cluster."""
    _check_confidence(confidence)
    if not 0 <= successes <= n:
        raise BadInput(f"wilson: successes={successes!r} must be within 0..n (n={n!r})")
    if n == 0:
        return Interval(None, None, None, 0, 0, "undefined")
    rate = successes / n
    low, high = _wilson_bounds(rate, n, normal_ppf(0.5 + 0.5 * confidence))
    return Interval(rate, low, high, n, n, "wilson")


def _design_effect(moments: _Moments) -> float:
    if moments.se is None or not moments.iid_se:
        return 1.0
    return max(1.0, (moments.se / moments.iid_se) ** 2)


def _cluster_wilson(moments: _Moments, rate: float, confidence: float) -> Interval:
    adjust = _t_critical(confidence, moments.n - 1) / _t_critical(confidence, moments.clusters - 1)
    effective = moments.n / _design_effect(moments) * adjust**2
    z = normal_ppf(0.5 + 0.5 * confidence)
    low, high = _wilson_bounds(rate, effective, z)
    return Interval(rate, low, high, moments.n, moments.clusters, "cluster-wilson")


def pass_rate_interval(
    passed: Sequence[bool], clusters: Sequence[str], confidence: float = 0.95
) -> Interval:
    """The pass rate with a cluster-t or cluster-adjusted Wilson interval (module doc)."""
    n = _check_lengths(passed=passed, clusters=clusters)
    _check_confidence(confidence)
    moments = _moments([1.0 if ok else 0.0 for ok in passed], clusters)
    interval = _cluster_t(moments, confidence)
    passes = sum(1 for ok in passed if ok)
    if interval.method == "undefined" or _normal_enough(interval, passes, n):
        return interval
    return _cluster_wilson(moments, passes / n, confidence)


def _binary_moments(groups: Sequence[tuple[int, int]]) -> _Moments:
    """`_moments` of 0/1 values given per cluster as (passes, observations), in closed
    form: a cluster's residual sum is k − n·ȳ, its squared residuals k(1−ȳ)² + (n−k)ȳ²."""
    groups = [(passes, size) for passes, size in groups if size]
    n = sum(size for _, size in groups)
    if n == 0:
        return _Moments(0, 0, None, None, None)
    mean = sum(passes for passes, _ in groups) / n
    count = len(groups)
    between = math.fsum([(passes - size * mean) ** 2 for passes, size in groups])
    se = math.sqrt(count / (count - 1) * between) / n if count >= 2 else None
    within = math.fsum(
        [passes * (1 - mean) ** 2 + (size - passes) * mean**2 for passes, size in groups]
    )
    iid_se = math.sqrt(within / (n * (n - 1))) if n >= 2 else None
    return _Moments(n, count, mean, se, iid_se)


def pass_rate_interval_of_counts(
    groups: Sequence[tuple[int, int]], confidence: float = 0.95
) -> Interval:
    """`pass_rate_interval` from each cluster's (passes, observations) instead of one flag
    per observation: the same interval, for callers that count in SQL."""
    _check_confidence(confidence)
    if any(not 0 <= passes <= size for passes, size in groups):
        raise BadInput(
            f"pass counts {list(groups)!r}: each must be (passes, n) with 0 ≤ passes ≤ n"
        )
    moments = _binary_moments(groups)
    interval = _cluster_t(moments, confidence)
    passes = sum(passes for passes, _ in groups)
    if interval.method == "undefined" or _normal_enough(interval, passes, moments.n):
        return interval
    return _cluster_wilson(moments, passes / moments.n, confidence)


def _normal_enough(interval: Interval, passes: int, n: int) -> bool:
    """≥ 10 passes and ≥ 10 failures, and the cluster-t interval inside [0, 1]."""
    low, high = interval.low, interval.high
    inside = low is not None and high is not None and low >= 0.0 and high <= 1.0
    return min(passes, n - passes) >= MIN_EACH_OUTCOME and inside


def mcnemar_exact(b: int, c: int) -> float:
    """Exact two-sided McNemar p on b and c discordant pairs: min(1, 2·P(X ≤ min(b, c))).

    X ~ Binomial(b + c, ½); statsmodels' ``mcnemar(exact=True)`` and scipy's
    ``binomtest`` give the same number. With no discordant pairs p = 1.
    """
    if b < 0 or c < 0:
        raise BadInput(f"mcnemar_exact: counts b={b!r}, c={c!r} must be 0 or more")
    return min(1.0, 2.0 * binomial_cdf(min(b, c), b + c, 0.5))


def _pearson(a: Sequence[float], b: Sequence[float]) -> float | None:
    if len(a) < 2 or min(a) == max(a) or min(b) == max(b):
        return None
    mean_a, mean_b = math.fsum(a) / len(a), math.fsum(b) / len(b)
    cross = math.fsum((x - mean_a) * (y - mean_b) for x, y in zip(a, b, strict=True))
    spread_a = math.fsum((x - mean_a) ** 2 for x in a)
    spread_b = math.fsum((y - mean_b) ** 2 for y in b)
    return max(-1.0, min(1.0, cross / math.sqrt(spread_a * spread_b)))


def _discordant(
    a_passed: Sequence[bool] | None, b_passed: Sequence[bool] | None, n: int
) -> tuple[int, int]:
    if a_passed is None and b_passed is None:
        return 0, 0
    if a_passed is None or b_passed is None:
        raise BadInput("paired: pass both a_passed and b_passed, or neither")
    _check_lengths(scores=range(n), a_passed=a_passed, b_passed=b_passed)
    outcomes = Counter((bool(a), bool(b)) for a, b in zip(a_passed, b_passed, strict=True))
    return outcomes[True, False], outcomes[False, True]


def paired(
    a_scores: Sequence[float],
    b_scores: Sequence[float],
    clusters: Sequence[str],
    a_passed: Sequence[bool] | None = None,
    b_passed: Sequence[bool] | None = None,
    confidence: float = 0.95,
) -> PairedComparison:
    """A − B on the same tasks (row i is one task for both): clustered mean difference,
    its CR1 SE and t interval, Pearson r, and McNemar's exact test on pass/fail."""
    n = _check_lengths(a_scores=a_scores, b_scores=b_scores, clusters=clusters)
    _check_finite("a_scores", a_scores)
    _check_finite("b_scores", b_scores)
    _check_confidence(confidence)
    moments = _moments([a - b for a, b in zip(a_scores, b_scores, strict=True)], clusters)
    interval = _cluster_t(moments, confidence)
    discordant = _discordant(a_passed, b_passed, n)
    return PairedComparison(
        n=n,
        clusters=moments.clusters,
        mean_difference=moments.mean,
        se=moments.se,
        low=interval.low,
        high=interval.high,
        correlation=_pearson(a_scores, b_scores),
        discordant=discordant,
        mcnemar_p=mcnemar_exact(*discordant) if sum(discordant) else None,
    )


def ties_contain_zero(comparison: PairedComparison | Interval) -> bool:
    """True when the difference's interval contains 0, or is undefined (no claim of a gap).

    Takes a `paired` comparison, or the `clustered_mean` of per-task differences
    (the same interval, without the correlation and McNemar's test)."""
    if comparison.low is None or comparison.high is None:
        return True
    return comparison.low <= 0.0 <= comparison.high
