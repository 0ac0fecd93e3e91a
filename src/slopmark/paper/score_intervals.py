"""Score (Wilson-type) intervals for proportions that may sit at 0 or 1.

A bootstrap or a plug-in standard error has nothing to resample or no variance
when every comparison goes one way (AUROC 1.0 from 12 AI and 8 human papers
gives the interval [1, 1]). A score interval instead keeps every θ whose own
variance does not reject the estimate:

    { θ : (θ − θ̂)² ≤ z² · V(θ) }

with V evaluated at the candidate θ, not at θ̂, so the bound stays below 1 when
θ̂ = 1 (Wilson, 1927, "Probable inference, the law of succession, and
statistical inference", JASA 22(158)).

- `wilson_interval`: a binomial proportion of ``n`` trials, V(θ) = θ(1 − θ)/n.
- `auroc_interval`: the Mann–Whitney proportion θ̂ = P(AI > human) + ½ P(tie)
  of ``m`` AI and ``n`` human papers, with the Hanley–McNeil (1982, Radiology
  143(1)) variance as a function of θ,

      V(θ) = θ(1 − θ) / (m n) · [1 + (N* − 1)((1 − θ)/(2 − θ) + θ/(1 + θ))],
      N* = (m + n) / 2,

  i.e. m − 1 and n − 1 both replaced by (m + n)/2 − 1 so the bound does not
  depend on which group is called which: Newcombe's Method 5 (2006,
  "Confidence intervals for an effect size measure based on the Mann–Whitney
  statistic. Part 2: asymptotic methods and evaluation", Stat. Med. 25(4)).
"""

from __future__ import annotations

from collections.abc import Callable

Z95 = 1.959963984540054
#: Bisection steps: the bracket [0, 1] shrinks to 2⁻⁶⁰, far below printed precision.
_STEPS = 60


def _root(inside: Callable[[float], bool], start: float, end: float) -> float:
    """The boundary between ``start`` (inside the interval) and ``end`` (where the search
    stops), found by bisection; ``end`` itself when it is inside too."""
    if inside(end):
        return end
    for _ in range(_STEPS):
        middle = (start + end) / 2
        start, end = (middle, end) if inside(middle) else (start, middle)
    return start


def score_interval(
    estimate: float, variance: Callable[[float], float], z: float = Z95
) -> tuple[float, float]:
    """{θ in [0, 1] : (θ − estimate)² ≤ z² variance(θ)} (module docstring)."""

    def inside(theta: float) -> bool:
        return (theta - estimate) ** 2 <= z * z * variance(theta)

    return _root(inside, estimate, 0.0), _root(inside, estimate, 1.0)


def wilson_interval(estimate: float, n: int, z: float = Z95) -> tuple[float, float] | None:
    """Wilson's score interval of a proportion of ``n`` trials; None when n < 1."""
    if n < 1:
        return None
    return score_interval(estimate, lambda theta: theta * (1 - theta) / n, z)


def auroc_variance(theta: float, ai: int, human: int) -> float:
    """The Hanley–McNeil variance of the Mann–Whitney proportion at ``theta``, group
    sizes symmetrised as in Newcombe's Method 5 (module docstring)."""
    star = (ai + human) / 2
    spread = (1 - theta) / (2 - theta) + theta / (1 + theta)
    return theta * (1 - theta) / (ai * human) * (1 + (star - 1) * spread)


def auroc_interval(
    estimate: float, ai: int, human: int, z: float = Z95
) -> tuple[float, float] | None:
    """Newcombe's score interval of an AUROC from ``ai`` and ``human`` papers; None when
    a group is empty."""
    if ai < 1 or human < 1:
        return None
    return score_interval(estimate, lambda theta: auroc_variance(theta, ai, human), z)
