"""How many tasks a benchmark needs: a margin of error, or a paired difference to detect.

Margin (the slopmark seed's rule, with the design effect of clustering)::

    n = ⌈(z·σ/E)² · (1 + (m − 1)·ρ)⌉,   z = Φ⁻¹(1 − α/2)

σ = 0.2 and E = 0.03 at 95% give ⌈170.73⌉ = 171. m is the number of tasks
per template and ρ the intra-template correlation (Kish's design effect).

Paired difference (normal approximation, two-sided test at level α)::

    n = ⌈((z_{1−α/2} + z_{power})·σ_d/δ)² · (1 + (m − 1)·ρ)⌉

with σ_d the standard deviation of the per-task differences A − B.

An exact value within 1e-9 (relative) of an integer is taken as that
integer before rounding up, so float noise never adds a task.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from slopmark.board.distributions import normal_ppf
from slopmark.errors import BadInput

__all__ = [
    "SampleSize",
    "margin_sample_size",
    "n_for_margin",
    "n_for_paired_difference",
    "paired_sample_size",
]


@dataclass(frozen=True)
class SampleSize:
    """A required number of tasks, with the unrounded value and the formula filled in."""

    n: int
    exact: float  # before rounding up
    design_effect: float  # 1 + (m − 1)·ρ
    formula: str  # the formula, then with the numbers put in


def _positive(name: str, value: float, meaning: str) -> None:
    if not 0.0 < value < math.inf:
        raise BadInput(f"{name}={value!r}: must be greater than 0 ({meaning})")


def _probability(name: str, value: float, example: str) -> None:
    if not 0.0 < value < 1.0:
        raise BadInput(f"{name}={value!r}: must be between 0 and 1, e.g. {example}")


def _design_effect(cluster_size: float, icc: float) -> float:
    if not 1.0 <= cluster_size < math.inf:
        raise BadInput(f"cluster_size={cluster_size!r}: must be 1 or more (tasks per template)")
    if not 0.0 <= icc <= 1.0:
        raise BadInput(f"icc={icc!r}: must be within [0, 1] (intra-template correlation)")
    return 1.0 + (cluster_size - 1.0) * icc


def _squared(ratio: float, deff: float, names: str) -> float:
    """``ratio² · deff``; `BadInput` naming the inputs when it is beyond any float."""
    try:
        exact = ratio**2 * deff
    except OverflowError:
        exact = math.inf
    if not math.isfinite(exact):
        raise BadInput(f"{names}: the number of tasks is too large to compute; check the values")
    return exact


def _round_up(exact: float) -> int:
    nearest = round(exact)
    if abs(exact - nearest) <= 1e-9 * max(1.0, exact):
        return max(1, int(nearest))
    return max(1, math.ceil(exact))


def _number(value: float) -> str:
    return f"{value:.6g}"


def margin_sample_size(
    sigma: float,
    margin: float,
    confidence: float = 0.95,
    cluster_size: float = 1.0,
    icc: float = 0.0,
) -> SampleSize:
    """Tasks for a ±``margin`` interval at ``confidence`` when scores have SD ``sigma``."""
    _positive("sigma", sigma, "the standard deviation of one task's score")
    _positive("margin", margin, "the half-width of the interval")
    _probability("confidence", confidence, "0.95")
    deff = _design_effect(cluster_size, icc)
    z = normal_ppf(0.5 + 0.5 * confidence)
    exact = _squared(z * sigma / margin, deff, f"sigma={sigma!r}, margin={margin!r}")
    n = _round_up(exact)
    formula = (
        f"n = ⌈(z·σ/E)²·(1+(m−1)ρ)⌉ = ⌈({_number(z)}·{_number(sigma)}/{_number(margin)})²"
        f"·{_number(deff)}⌉ = ⌈{exact:.2f}⌉ = {n}"
    )
    return SampleSize(n, exact, deff, formula)


def paired_sample_size(
    delta: float,
    sigma_difference: float,
    alpha: float = 0.05,
    power: float = 0.8,
    cluster_size: float = 1.0,
    icc: float = 0.0,
) -> SampleSize:
    """Tasks for a two-sided paired test at level ``alpha`` to detect a mean difference
    ``delta`` with ``power``, when per-task differences have SD ``sigma_difference``."""
    _positive("delta", abs(delta), "the smallest difference worth detecting")
    _positive("sigma_difference", sigma_difference, "the SD of per-task differences A − B")
    _probability("alpha", alpha, "0.05")
    _probability("power", power, "0.8")
    deff = _design_effect(cluster_size, icc)
    z_alpha, z_power = normal_ppf(1.0 - 0.5 * alpha), normal_ppf(power)
    ratio = (z_alpha + z_power) * sigma_difference / abs(delta)
    exact = _squared(ratio, deff, f"sigma_difference={sigma_difference!r}, delta={delta!r}")
    n = _round_up(exact)
    formula = (
        f"n = ⌈((z_(1−α/2)+z_power)·σd/δ)²·(1+(m−1)ρ)⌉ = ⌈(({_number(z_alpha)}+"
        f"{_number(z_power)})·{_number(sigma_difference)}/{_number(abs(delta))})²"
        f"·{_number(deff)}⌉ = ⌈{exact:.2f}⌉ = {n}"
    )
    return SampleSize(n, exact, deff, formula)


def n_for_margin(
    sigma: float,
    margin: float,
    confidence: float = 0.95,
    cluster_size: float = 1.0,
    icc: float = 0.0,
) -> int:
    """⌈(z·σ/E)²·(1+(m−1)ρ)⌉: 171 for σ = 0.2, E = 0.03 at 95%."""
    return margin_sample_size(sigma, margin, confidence, cluster_size, icc).n


def n_for_paired_difference(
    delta: float,
    sigma_difference: float,
    alpha: float = 0.05,
    power: float = 0.8,
    cluster_size: float = 1.0,
    icc: float = 0.0,
) -> int:
    """⌈((z_{1−α/2}+z_power)·σ_d/δ)²·(1+(m−1)ρ)⌉ tasks for a paired comparison."""
    return paired_sample_size(delta, sigma_difference, alpha, power, cluster_size, icc).n
