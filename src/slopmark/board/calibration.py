"""Calibration of stated confidence: expected calibration error, Brier score, reliability bins.

For n answers with confidence c_i in [0, 1] and correctness y_i in {0, 1}:

- bins: ``bins`` equal-width bins, bin k = [k/bins, (k+1)/bins) with edges as
  the doubles k/bins, the last one closed at 1.0;
- ECE = Σ_k (n_k / n)·|accuracy_k − mean confidence_k| over non-empty bins
  (Guo et al. 2017, "On Calibration of Modern Neural Networks");
- Brier = Σ (c_i − y_i)² / n (Brier 1950);
- overconfidence = mean confidence − accuracy (> 0: the model claims more
  than it delivers, the pattern the slopmark seed reports for weaker models).

With n = 0 every number is None (the bins are still listed, empty).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

from slopmark.errors import BadInput

__all__ = ["Bin", "CalibrationReport", "calibration"]


@dataclass(frozen=True)
class Bin:
    """One reliability-diagram bin: [low, high), and its answers' confidence and accuracy."""

    low: float
    high: float
    count: int
    mean_confidence: float | None  # None for an empty bin
    accuracy: float | None  # None for an empty bin


@dataclass(frozen=True)
class CalibrationReport:
    n: int
    ece: float | None
    brier: float | None
    overconfidence: float | None  # mean confidence − accuracy
    bins: tuple[Bin, ...]


def _check(confidences: Sequence[float], correct: Sequence[bool], bins: int) -> None:
    if bins < 1:
        raise BadInput(f"calibration: bins={bins!r} must be 1 or more")
    if len(confidences) != len(correct):
        raise BadInput(
            f"calibration: {len(confidences)} confidences but {len(correct)} correctness "
            "flags; pass one of each per answer"
        )
    for index, value in enumerate(confidences):
        if not 0.0 <= value <= 1.0:
            raise BadInput(
                f"calibration: confidences[{index}] = {value!r} must be within [0, 1]; "
                "drop answers without a stated confidence"
            )


def _bin_index(confidence: float, bins: int) -> int:
    """The k with k/bins ≤ confidence < (k+1)/bins, compared against the edge doubles."""
    k = min(int(confidence * bins), bins - 1)
    if k > 0 and confidence < k / bins:
        return k - 1
    if k + 1 < bins and confidence >= (k + 1) / bins:
        return k + 1
    return k


def _bin(k: int, bins: int, members: list[tuple[float, bool]]) -> Bin:
    if not members:
        return Bin(k / bins, (k + 1) / bins, 0, None, None)
    low, high = k / bins, (k + 1) / bins
    # the mean of values in [low, high] lies there; rounding of the sum can put it a hair out
    mean_confidence = min(max(math.fsum(c for c, _ in members) / len(members), low), high)
    accuracy = sum(1 for _, ok in members if ok) / len(members)
    return Bin(low, high, len(members), mean_confidence, accuracy)


def _report(
    confidences: Sequence[float], correct: Sequence[bool], table: tuple[Bin, ...]
) -> CalibrationReport:
    n = len(confidences)
    outcomes = [1.0 if ok else 0.0 for ok in correct]
    accuracy = math.fsum(outcomes) / n
    ece = math.fsum(
        b.count / n * abs(b.accuracy - b.mean_confidence)
        for b in table
        if b.accuracy is not None and b.mean_confidence is not None
    )
    brier = math.fsum((c - y) ** 2 for c, y in zip(confidences, outcomes, strict=True)) / n
    overconfidence = math.fsum(confidences) / n - accuracy
    return CalibrationReport(n, ece, brier, overconfidence, table)


def calibration(
    confidences: Sequence[float], correct: Sequence[bool], bins: int = 10
) -> CalibrationReport:
    """ECE, Brier score, overconfidence and reliability bins (see the module doc)."""
    _check(confidences, correct, bins)
    members: list[list[tuple[float, bool]]] = [[] for _ in range(bins)]
    for confidence, ok in zip(confidences, correct, strict=True):
        members[_bin_index(confidence, bins)].append((confidence, bool(ok)))
    table = tuple(_bin(k, bins, group) for k, group in enumerate(members))
    if not confidences:
        return CalibrationReport(0, None, None, None, table)
    return _report(confidences, correct, table)
