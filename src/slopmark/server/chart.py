"""The cost–capability chart of one board, as geometry for an inline SVG (pure).

x is the average cost per run (non-paste runs with a known cost, see
`slopmark.board.leaderboard`) on a log scale; y is the pass rate with its
95% interval; one point per shown model. A model whose cost is unknown is
not placed but listed, and a cost of exactly $0 (a local model) sits in a
separate "$0" lane left of the log axis, which cannot show 0.

The Pareto frontier holds the models no other model beats on both axes: none
is at most as costly with a higher pass rate, or cheaper with the same. It is
drawn as a staircase: the best pass rate reachable for a budget up to x.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from itertools import pairwise
from math import floor, log10

from slopmark.board.leaderboard import Board, Row

WIDTH, HEIGHT = 760, 440
LEFT, RIGHT, TOP, BOTTOM = 64, 150, 20, 52
ZERO_LANE = 90


@dataclass(frozen=True)
class Point:
    model: str
    cost: float
    rate: float
    low: float | None
    high: float | None
    n: int
    rank: str | None
    provisional: bool


@dataclass(frozen=True)
class Placed:
    point: Point
    x: float
    y: float
    y_low: float
    y_high: float
    frontier: bool


@dataclass(frozen=True)
class Tick:
    at: float
    label: str


@dataclass(frozen=True)
class Chart:
    title: str
    placed: tuple[Placed, ...]
    unplaced: tuple[str, ...]
    frontier: str
    x_ticks: tuple[Tick, ...]
    y_ticks: tuple[Tick, ...]
    zero_lane: float | None
    width: int = WIDTH
    height: int = HEIGHT
    left: int = LEFT
    top: int = TOP
    bottom: float = HEIGHT - BOTTOM
    right: float = WIDTH - RIGHT


def point(row: Row) -> Point | None:
    """The row as a chart point; None when its cost or pass rate is unknown."""
    rate = row.pass_rate
    if row.avg_cost_usd is None or rate.estimate is None:
        return None
    return Point(
        row.model, row.avg_cost_usd, rate.estimate, rate.low, rate.high,
        row.n, row.rank, row.provisional,
    )  # fmt: skip


def pareto(points: Sequence[Point]) -> set[str]:
    """The models on the frontier: walking by cost (cheapest, then best first), each new best."""
    best = -1.0
    frontier: set[str] = set()
    for item in sorted(points, key=lambda p: (p.cost, -p.rate, p.model)):
        if item.rate > best:
            frontier.add(item.model)
            best = item.rate
    return frontier


def _decades(costs: Sequence[float]) -> tuple[int, int]:
    positive = [c for c in costs if c > 0]
    if not positive:
        return -3, -2
    low = floor(log10(min(positive)))
    high = max(floor(log10(max(positive))) + 1, low + 1)
    return low, high


def _x_scale(costs: Sequence[float], zero_lane: bool) -> tuple[float, int, int]:
    low, high = _decades(costs)
    start = LEFT + (ZERO_LANE if zero_lane else 0)
    return start, low, high


def _x(cost: float, start: float, low: int, high: int) -> float:
    if cost <= 0:
        return LEFT + ZERO_LANE / 2
    span = WIDTH - RIGHT - start
    return start + span * (log10(cost) - low) / (high - low)


def _y(rate: float) -> float:
    return TOP + (HEIGHT - BOTTOM - TOP) * (1.0 - rate)


def _money(cost: float) -> str:
    return f"${cost:,.10f}".rstrip("0").rstrip(".")


def _placed(item: Point, scale: tuple[float, int, int], frontier: set[str]) -> Placed:
    y = _y(item.rate)
    low = _y(item.low) if item.low is not None else y
    high = _y(item.high) if item.high is not None else y
    return Placed(item, _x(item.cost, *scale), y, low, high, item.model in frontier)


def _staircase(placed: Sequence[Placed]) -> str:
    steps = sorted((p for p in placed if p.frontier), key=lambda p: p.x)
    corners = [(steps[0].x, steps[0].y)] if steps else []
    for previous, step in pairwise(steps):
        corners += [(step.x, previous.y), (step.x, step.y)]
    return " ".join(f"{x:.1f},{y:.1f}" for x, y in corners)


def _ticks(scale: tuple[float, int, int]) -> tuple[tuple[Tick, ...], tuple[Tick, ...]]:
    """A tick at each power of ten on x, and at every 25% on y."""
    _start, low, high = scale
    x_ticks = tuple(Tick(_x(10.0**d, *scale), _money(10.0**d)) for d in range(low, high + 1))
    return x_ticks, tuple(Tick(_y(r / 4), f"{r * 25}%") for r in range(5))


def chart(board: Board) -> Chart:
    """The chart of ``board``'s shown rows (ranked and provisional)."""
    points = [p for p in map(point, board.rows) if p is not None]
    unplaced = tuple(row.model for row in board.rows if point(row) is None)
    zero = any(p.cost <= 0 for p in points)
    scale = _x_scale([p.cost for p in points], zero)
    frontier = pareto(points)
    placed = tuple(_placed(p, scale, frontier) for p in points)
    x_ticks, y_ticks = _ticks(scale)
    return Chart(
        board.group.label(), placed, unplaced, _staircase(placed), x_ticks, y_ticks,
        LEFT + ZERO_LANE / 2 if zero else None,
    )  # fmt: skip
