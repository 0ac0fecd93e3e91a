"""Charts of one board as geometry for inline SVG (pure): cost–capability and reliability.

x is the average cost per run (non-paste runs with a known cost, see
`slopmark.board.leaderboard`) on a log scale; y is the pass rate with its
95% interval; one point per shown model. A model whose cost is unknown is
not placed but listed, and a cost of exactly $0 (a local model) sits in a
separate "$0" lane left of the log axis, which cannot show 0.

The points, the unknown costs and the Pareto frontier come from
`slopmark.board.costcap` (shared with the PNG/SVG charts of `slopmark.plot`);
the frontier is drawn as a staircase: the best pass rate reachable for a
budget up to x.

A calibration board also gets reliability diagrams (`reliability_panels`):
per model a square with confidence on x and accuracy on y, both 0 to 1, the
diagonal, and a dot per non-empty bin of `slopmark.board.reliability`
(area growing with the bin's count) joined in bin order.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from itertools import pairwise
from math import log10, sqrt

from slopmark.board.costcap import (
    Point,
    cost_capability,
    cost_decades,
    cost_label,
    pareto,
    point,
)
from slopmark.board.leaderboard import Board
from slopmark.board.reliability import BinPoint, Curve, reliability

__all__ = [
    "BinMark",
    "Chart",
    "Placed",
    "Point",
    "ReliabilityPanel",
    "Tick",
    "chart",
    "pareto",
    "point",
    "reliability_panels",
]

WIDTH, HEIGHT = 760, 440
LEFT, RIGHT, TOP, BOTTOM = 64, 150, 20, 52
ZERO_LANE = 90


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


def _x_scale(costs: Sequence[float], zero_lane: bool) -> tuple[float, int, int]:
    low, high = cost_decades(costs)
    start = LEFT + (ZERO_LANE if zero_lane else 0)
    return start, low, high


def _x(cost: float, start: float, low: int, high: int) -> float:
    if cost <= 0:
        return LEFT + ZERO_LANE / 2
    span = WIDTH - RIGHT - start
    return start + span * (log10(cost) - low) / (high - low)


def _y(rate: float) -> float:
    return TOP + (HEIGHT - BOTTOM - TOP) * (1.0 - rate)


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
    x_ticks = tuple(Tick(_x(10.0**d, *scale), cost_label(10.0**d)) for d in range(low, high + 1))
    return x_ticks, tuple(Tick(_y(r / 4), f"{r * 25}%") for r in range(5))


def chart(board: Board) -> Chart:
    """The chart of ``board``'s shown rows (ranked and provisional)."""
    view = cost_capability(board)
    zero = any(p.cost <= 0 for p in view.points)
    scale = _x_scale([p.cost for p in view.points], zero)
    frontier = {p.model for p in view.frontier}
    placed = tuple(_placed(p, scale, frontier) for p in view.points)
    x_ticks, y_ticks = _ticks(scale)
    return Chart(
        view.title, placed, view.unknown_cost, _staircase(placed), x_ticks, y_ticks,
        LEFT + ZERO_LANE / 2 if zero else None,
    )  # fmt: skip


# --- reliability diagrams (calibration domain) ---------------------------------------

PANEL = 230
PANEL_LEFT, PANEL_TOP, PANEL_SIDE = 40, 12, 170
#: the radius of a bin's dot: MIN_R, up to MIN_R + SPAN_R for the model's fullest bin
MIN_R, SPAN_R = 2.5, 5.0


@dataclass(frozen=True)
class BinMark:
    point: BinPoint
    x: float
    y: float
    r: float


@dataclass(frozen=True)
class ReliabilityPanel:
    """One model's reliability diagram: its bins placed in a square, confidence → x."""

    model: str
    n: int
    ece: float | None
    brier: float | None
    marks: tuple[BinMark, ...]
    line: str
    ticks: tuple[Tick, ...]
    size: int = PANEL
    left: int = PANEL_LEFT
    top: int = PANEL_TOP
    right: int = PANEL_LEFT + PANEL_SIDE
    bottom: int = PANEL_TOP + PANEL_SIDE


def _panel_x(confidence: float) -> float:
    return PANEL_LEFT + PANEL_SIDE * confidence


def _panel_y(accuracy: float) -> float:
    return PANEL_TOP + PANEL_SIDE * (1.0 - accuracy)


def _mark(item: BinPoint, fullest: int) -> BinMark:
    radius = MIN_R + SPAN_R * sqrt(item.count / fullest)
    return BinMark(item, _panel_x(item.confidence), _panel_y(item.accuracy), radius)


def _reliability_panel(curve: Curve) -> ReliabilityPanel:
    points = curve.points
    fullest = max((p.count for p in points), default=1)
    marks = tuple(_mark(p, fullest) for p in points)
    line = " ".join(f"{m.x:.1f},{m.y:.1f}" for m in marks)
    ticks = tuple(Tick(_panel_x(v), f"{v:g}") for v in (0.0, 0.5, 1.0))
    report = curve.report
    return ReliabilityPanel(curve.model, report.n, report.ece, report.brier, marks, line, ticks)


def reliability_panels(board: Board) -> tuple[ReliabilityPanel, ...]:
    """A reliability panel per model of a calibration board that stated confidences."""
    return tuple(_reliability_panel(curve) for curve in reliability(board).curves)
