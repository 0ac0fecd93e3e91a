"""A board's pass rates as geometry for inline SVG (pure): a dot and whisker per model.

Drawn on ``/chart`` instead of the cost–capability chart when no shown model
has a known cost (see `slopmark.board.passrates`): a row per model in board
order, its name on the left, x the pass rate from 0% to 100% (ticks every
25%), a dot at the estimate and a whisker over the 95% interval. The left
margin grows with the longest name, so no name is cut.

`board_chart` is what ``/chart`` draws for a board: the cost–capability chart
(`slopmark.server.chart`) with, when it has no point, this chart in its place,
and the models a partial cost view leaves out named with the reason.
"""

from __future__ import annotations

from dataclasses import dataclass, fields

from slopmark.board.leaderboard import Board
from slopmark.board.passrates import Mark, left_off, pass_rates
from slopmark.server.chart import Chart, Tick, chart

__all__ = ["BoardChart", "PassRateChart", "PlacedMark", "board_chart", "passrate_chart"]

PLOT_WIDTH, ROW, TOP, BOTTOM, RIGHT = 480, 30, 16, 44, 24
#: the room a name's character takes at the chart's font size, in SVG units (generous)
CHAR = 7.2
MIN_LEFT = 90


@dataclass(frozen=True)
class PlacedMark:
    mark: Mark
    x: float
    y: float
    x_low: float
    x_high: float


@dataclass(frozen=True)
class PassRateChart:
    title: str
    reason: str
    marks: tuple[PlacedMark, ...]
    undefined: tuple[str, ...]
    ticks: tuple[Tick, ...]
    left: float
    right: float
    top: int
    bottom: float
    width: float
    height: float


def _x(rate: float, left: float) -> float:
    return left + PLOT_WIDTH * rate


def _placed(mark: Mark, index: int, left: float) -> PlacedMark:
    y = TOP + ROW * (index + 0.5)
    x = _x(mark.rate, left)
    low = x if mark.low is None else _x(mark.low, left)
    high = x if mark.high is None else _x(mark.high, left)
    return PlacedMark(mark, x, y, low, high)


def passrate_chart(board: Board) -> PassRateChart | None:
    """The dot-and-whisker chart of ``board``; None when no shown model has a pass rate."""
    view = pass_rates(board)
    if not view.marks:
        return None
    longest = max(len(mark.model) for mark in view.marks)
    left = max(MIN_LEFT, round(CHAR * longest) + 16)
    placed = tuple(_placed(mark, index, left) for index, mark in enumerate(view.marks))
    ticks = tuple(Tick(_x(r / 4, left), f"{r * 25}%") for r in range(5))
    bottom = TOP + ROW * len(placed)
    return PassRateChart(
        view.title, view.reason, placed, view.undefined, ticks,
        left, left + PLOT_WIDTH, TOP, bottom, left + PLOT_WIDTH + RIGHT, bottom + BOTTOM,
    )  # fmt: skip


@dataclass(frozen=True)
class BoardChart(Chart):
    """The cost–capability chart, and what ``/chart`` shows when it cannot place everyone."""

    #: drawn instead when no model has a known cost
    passrates: PassRateChart | None = None
    #: the models left off a cost view that places others, and why
    left_off: str | None = None


def board_chart(board: Board) -> BoardChart:
    """``board``'s chart for ``/chart``: cost–capability when a model has a known cost, else
    pass rate per model (`passrate_chart`); never empty axes."""
    drawn = chart(board)
    same = {field.name: getattr(drawn, field.name) for field in fields(drawn)}
    if drawn.placed:
        return BoardChart(**same, left_off=left_off(board))
    return BoardChart(**same, passrates=passrate_chart(board))
