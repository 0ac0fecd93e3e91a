"""The cost–capability view of one board: a point per model, the unknown costs, the frontier.

x is a model's average cost per run (non-paste runs with a known cost, see
`slopmark.board.leaderboard`), y its pass rate with the 95% interval, for
every shown row (ranked and provisional). A model whose cost is unknown has
no point: it is listed in ``unknown_cost``, never placed at 0. A cost of
exactly $0 (a local model) is a known cost and keeps its point.

The Pareto frontier holds the models no other model beats on both axes: none
is at most as costly with a higher pass rate, or cheaper with the same. Read
cheapest first, it is a staircase: the best pass rate reachable for a budget.
The web chart (`slopmark.server.chart`) and the PNG/SVG chart
(`slopmark.plot`) both draw this view.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from math import floor, log10

from slopmark.board.leaderboard import Board, Group, Row

__all__ = [
    "CostCapability",
    "Point",
    "cost_capability",
    "cost_decades",
    "cost_label",
    "pareto",
    "point",
]


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
class CostCapability:
    group: Group
    #: the placed models, in board order
    points: tuple[Point, ...]
    #: the frontier's models, cheapest first (the staircase's corners in order)
    frontier: tuple[Point, ...]
    #: shown models whose cost (or pass rate) is unknown: listed, not placed
    unknown_cost: tuple[str, ...]

    @property
    def title(self) -> str:
        return self.group.label()


def point(row: Row) -> Point | None:
    """The row as a chart point; None when its cost or pass rate is unknown."""
    rate = row.pass_rate
    if row.avg_cost_usd is None or rate.estimate is None:
        return None
    return Point(
        row.model, row.avg_cost_usd, rate.estimate, rate.low, rate.high,
        row.n, row.rank, row.provisional,
    )  # fmt: skip


def _by_cost(points: Sequence[Point]) -> list[Point]:
    return sorted(points, key=lambda p: (p.cost, -p.rate, p.model))


def _frontier(points: Sequence[Point]) -> list[Point]:
    """Walking by cost (cheapest, then best first), each point that beats every cheaper one."""
    best = -1.0
    frontier: list[Point] = []
    for item in _by_cost(points):
        if item.rate > best:
            frontier.append(item)
            best = item.rate
    return frontier


def pareto(points: Sequence[Point]) -> set[str]:
    """The models on the Pareto frontier (see the module doc)."""
    return {item.model for item in _frontier(points)}


def cost_capability(board: Board) -> CostCapability:
    """The cost–capability view of ``board``'s shown rows."""
    placed = [(row, point(row)) for row in board.rows]
    points = tuple(p for _, p in placed if p is not None)
    unknown = tuple(row.model for row, p in placed if p is None)
    return CostCapability(board.group, points, tuple(_frontier(points)), unknown)


def cost_decades(costs: Sequence[float]) -> tuple[int, int]:
    """The powers of ten around the positive costs (one decade at least): the ends of a
    chart's log axis, for the web chart and the PNG/SVG chart alike."""
    positive = [c for c in costs if c > 0]
    if not positive:
        return -3, -2
    low = floor(log10(min(positive)))
    return low, max(floor(log10(max(positive))) + 1, low + 1)


def cost_label(value: float) -> str:
    """A cost as an axis label: dollars without trailing zeros (``$0.001``, ``$0``)."""
    if value == 0:
        return "$0"
    return f"${value:,.10f}".rstrip("0").rstrip(".")
