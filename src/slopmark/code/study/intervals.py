"""The 95% intervals of a study's statistics (pure, no dependency beyond `math`).

- **Wilson score interval** of a share k/n (Wilson 1927), z the standard normal's
  0.975 quantile: centre (p̂ + z²/2n)/(1 + z²/n), half-width
  z·√(p̂(1−p̂)/n + z²/4n²)/(1 + z²/n). It stays inside [0, 1] and is defined for
  k = 0 and k = n, where the normal ("Wald") interval collapses to a point.
- **t interval of a mean**: x̄ ± t₀.₉₇₅,ₙ₋₁ · s/√n with s the sample standard
  deviation (n − 1 in the denominator). t's quantile is found by bisection on
  its two-sided probability P(|T| ≤ t), which for whole degrees of freedom ν
  has a closed form in θ = atan(t/√ν) (Abramowitz & Stegun 26.7.3 and 26.7.4).

Undefined is None with n, never 0: a share of nothing, a mean of nothing, the
spread or interval of one value.
"""

from __future__ import annotations

import math
import statistics
from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache

#: the standard normal's 0.975 quantile (a 95% two-sided interval)
Z95 = 1.959963984540054


def wilson(successes: int, n: int, z: float = Z95) -> tuple[float, float] | None:
    """The Wilson score interval of ``successes``/``n``; None when n is 0."""
    if n == 0:
        return None
    rate = successes / n
    square = z * z
    denominator = 1.0 + square / n
    centre = (rate + square / (2.0 * n)) / denominator
    half = z * math.sqrt(rate * (1.0 - rate) / n + square / (4.0 * n * n)) / denominator
    return max(0.0, centre - half), min(1.0, centre + half)


def _within(t: float, df: int) -> float:
    """P(|T| ≤ t) for Student's t with ``df`` whole degrees of freedom (A&S 26.7.3–4)."""
    theta = math.atan(t / math.sqrt(df))
    cos2 = math.cos(theta) ** 2
    term = total = 1.0
    for k in range(1 if df % 2 == 0 else 2, df - 2, 2):  # k/(k+1): 1/2, 3/4… or 2/3, 4/5…
        term *= cos2 * k / (k + 1)
        total += term
    if df % 2 == 0:
        return math.sin(theta) * total
    series = math.sin(theta) * math.cos(theta) * total if df > 1 else 0.0
    return 2.0 / math.pi * (theta + series)


@lru_cache(maxsize=1024)
def t_critical(df: int, confidence: float = 0.95) -> float:
    """t with P(|T| ≤ t) = ``confidence`` for ``df`` ≥ 1 degrees of freedom (bisection)."""
    low, high = 0.0, 1.0
    while _within(high, df) < confidence:
        high *= 2.0
    for _ in range(100):
        middle = (low + high) / 2.0
        low, high = (middle, high) if _within(middle, df) < confidence else (low, middle)
    return (low + high) / 2.0


@dataclass(frozen=True)
class MeanInterval:
    """A mean with its sample standard deviation and 95% t interval (None: undefined)."""

    n: int
    mean: float | None
    sd: float | None
    low: float | None
    high: float | None

    @classmethod
    def of(cls, values: Sequence[float]) -> MeanInterval:
        n = len(values)
        if n == 0:
            return cls(0, None, None, None, None)
        mean = statistics.fmean(values)
        if n == 1:
            return cls(1, mean, None, None, None)
        sd = statistics.stdev(values)
        half = t_critical(n - 1) * sd / math.sqrt(n)
        return cls(n, mean, sd, mean - half, mean + half)
