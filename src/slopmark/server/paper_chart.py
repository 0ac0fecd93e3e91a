"""A measure's standing as a small inline-SVG histogram (pure geometry for the template).

x is the score from 0 to 1 in `BINS` equal bins (the last one holds 1.0); each
bar's height is the share of the other stored human papers in that bin, from 0
at the baseline to the fullest bin at the top; a vertical mark is this paper's
score. The text alternative (the SVG's <title>) says n, the score and the
standing, so the chart adds nothing a reader without it would miss.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

BINS = 10
WIDTH, HEIGHT = 180, 44
LEFT, RIGHT, TOP, BOTTOM = 6, 6, 4, 14


@dataclass(frozen=True)
class Bar:
    x: float
    y: float
    width: float
    height: float
    count: int
    low: float
    high: float


@dataclass(frozen=True)
class Strip:
    bars: tuple[Bar, ...]
    #: x of this paper's score.
    mark: float
    n: int
    width: int = WIDTH
    height: int = HEIGHT
    left: int = LEFT
    right: int = WIDTH - RIGHT
    baseline: int = HEIGHT - BOTTOM


def _x(score: float) -> float:
    return LEFT + (WIDTH - LEFT - RIGHT) * min(max(score, 0.0), 1.0)


def _bar(index: int, count: int, tallest: int) -> Bar:
    low, high = index / BINS, (index + 1) / BINS
    height = (HEIGHT - TOP - BOTTOM) * count / tallest if tallest else 0.0
    x = _x(low)
    return Bar(x + 0.5, HEIGHT - BOTTOM - height, _x(high) - x - 1, height, count, low, high)


def strip(counts: Sequence[int], score: float) -> Strip:
    """The histogram of ``counts`` (one per bin) with ``score`` marked."""
    tallest = max(counts, default=0)
    bars = tuple(_bar(index, count, tallest) for index, count in enumerate(counts))
    return Strip(bars, _x(score), sum(counts))
