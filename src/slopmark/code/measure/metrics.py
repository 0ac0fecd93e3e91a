"""The two SlopCodeBench quality measures, as formulas over per-callable numbers.

Reference: Orlanski et al., "SlopCodeBench: Benchmarking How Coding Agents
Degrade Over Long-Horizon Iterative Tasks" (seed 000), Section 3, and its
authors' reference tool; sensitivity variants from the paper's appendix.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable
from dataclasses import dataclass

from slopmark.code.measure.levels import Floors


@dataclass(frozen=True, slots=True)
class Settings:
    """The measurement profile. The defaults reproduce the paper's figures, but for the
    rule set: ``paper`` is the paper's pack, frozen (the benchmark and the study run it);
    ``default`` the precise pack `measure`, `diff` and `history` run."""

    cc_threshold: int = 10
    size_term: str = "sqrt"
    #: Whether suppression comments (see `slopmark.code.measure.hits`) apply (the coding-agent
    #: benchmark measures an agent's code with them off: the measured never sets
    #: its own measurement).
    suppressions: bool = True
    #: The built-in rule set (`slopmark.code.measure.rules.RULE_SETS`, ``--rules-set``).
    rule_set: str = "default"
    #: The rules each folder's project language level rules out (`slopmark.code.measure.levels`;
    #: part of every cached report's and summary's key, as the build files set it).
    floors: Floors = Floors()


#: The size term g of each profile: √ by default; ``linear`` g(n) = n and ``none``
#: g(n) = 1 (the appendix variants).
SIZE_TERMS: dict[str, Callable[[int], float]] = {
    "sqrt": math.sqrt,
    "linear": float,
    "none": lambda _: 1.0,
}


def mass(cc: int, sloc: int, size_term: str = "sqrt") -> float:
    """mass(f) = CC(f) · g(SLOC(f)), g = `SIZE_TERMS` [``size_term``] (0 when SLOC is 0)."""
    return cc * SIZE_TERMS[size_term](sloc) if sloc > 0 else 0.0


def erosion(pairs: Iterable[tuple[int, float]], cc_threshold: int = 10) -> float | None:
    """erosion = Σ mass of callables with CC > threshold / Σ mass of all callables.

    ``pairs`` are (CC, mass). Undefined (None) when the total mass is 0.
    """
    total = high = 0.0
    for cc, weight in pairs:
        total += weight
        if cc > cc_threshold:
            high += weight
    return high / total if total > 0 else None


def ratio(part: int, whole: int) -> float | None:
    """part / whole, or None (undefined) when ``whole`` is 0.

    Verbosity = Σ_files |clone lines ∪ rule lines| / Σ_files SLOC.
    """
    return part / whole if whole > 0 else None


def slope(values: Iterable[float | None]) -> float | None:
    """Least-squares slope of the defined values over their index (per commit).

    Undefined (None) with fewer than two defined points.
    """
    points = [(x, y) for x, y in enumerate(values) if y is not None]
    n = len(points)
    if n < 2:
        return None
    mean_x = sum(x for x, _ in points) / n
    mean_y = sum(y for _, y in points) / n
    sxx = sum((x - mean_x) ** 2 for x, _ in points)
    sxy = sum((x - mean_x) * (y - mean_y) for x, y in points)
    return sxy / sxx


def rose(values: Iterable[float | None]) -> bool | None:
    """Whether the last defined value is above the first (None when undefined)."""
    defined = [v for v in values if v is not None]
    if len(defined) < 2:
        return None
    return defined[-1] > defined[0]
