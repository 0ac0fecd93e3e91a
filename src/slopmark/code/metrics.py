"""The two SlopCodeBench quality measures, as formulas over per-callable numbers.

Reference: Orlanski et al., "SlopCodeBench: Benchmarking How Coding Agents
Degrade Over Long-Horizon Iterative Tasks" (seed 000), Section 3, and its
authors' reference tool; sensitivity variants from the paper's appendix.
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from dataclasses import dataclass

SIZE_TERMS = ("sqrt", "linear", "none")


@dataclass(frozen=True, slots=True)
class Settings:
    """The measurement profile. The defaults reproduce the paper's figures."""

    cc_threshold: int = 10
    size_term: str = "sqrt"


def mass(cc: int, sloc: int, size_term: str = "sqrt") -> float:
    """mass(f) = CC(f) · g(SLOC(f)), g = √ by default (0 when SLOC is 0).

    ``linear`` uses g(n) = n and ``none`` g(n) = 1 (the appendix variants).
    """
    if sloc <= 0:
        return 0.0
    if size_term == "sqrt":
        return cc * math.sqrt(sloc)
    if size_term == "linear":
        return float(cc * sloc)
    return float(cc)


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
