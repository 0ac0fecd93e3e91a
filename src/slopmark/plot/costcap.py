"""The cost–capability chart of one board as a PNG or SVG file.

Draws a `slopmark.board.costcap.CostCapability` view, the numbers ``board
show`` prints: x is the average cost per run on a log scale (symmetric-log
with a linear stretch around $0 when a model costs exactly $0, which a log
axis cannot show), y the pass rate with its 95% interval as error bars, one
labelled point per model (hollow: provisional, fewer than 10 runs), and the
Pareto frontier as a staircase. Models with an unknown cost are named in a
note under the chart, not plotted.

SVG ids, for readers and tests: ``point-<i>`` and ``errorbar-<i>`` for the
i-th point in board order, ``frontier`` for the staircase, ``unknown-cost``
for the note.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from slopmark.board.costcap import CostCapability, Point, cost_decades, cost_label
from slopmark.plot.figure import chart_file

if TYPE_CHECKING:
    from matplotlib.axes import Axes

__all__ = ["cost_capability_chart"]

WIDTH, HEIGHT = 900, 560
POINT_COLOUR, FRONTIER_COLOUR = "#1f5fa8", "#c0392b"


def _x_axis(axes: Axes, costs: Sequence[float]) -> None:
    from matplotlib.ticker import FixedLocator, FuncFormatter

    low, high = cost_decades(costs)
    ticks = [10.0**d for d in range(low, high + 1)]
    if any(c <= 0 for c in costs):
        axes.set_xscale("symlog", linthresh=10.0**low, linscale=0.5)
        axes.set_xlim(-(10.0**low) / 2, 10.0**high)
        ticks = [0.0, *ticks]
    else:
        axes.set_xscale("log")
        axes.set_xlim(10.0**low, 10.0**high)
    axes.xaxis.set_major_locator(FixedLocator(ticks))
    axes.xaxis.set_minor_locator(FixedLocator([]))
    axes.xaxis.set_major_formatter(FuncFormatter(lambda value, _: cost_label(value)))
    axes.set_xlabel("average cost per run (USD, log scale; paste runs excluded)")


def _y_axis(axes: Axes) -> None:
    from matplotlib.ticker import PercentFormatter

    axes.set_ylim(-0.02, 1.02)
    axes.yaxis.set_major_formatter(PercentFormatter(xmax=1.0))
    axes.set_ylabel("pass rate [95% CI]")
    axes.grid(alpha=0.3)


def _error(item: Point) -> list[list[float]] | None:
    if item.low is None or item.high is None:
        return None
    return [[item.rate - item.low], [item.high - item.rate]]


def _draw_point(axes: Axes, index: int, item: Point) -> None:
    face = "white" if item.provisional else POINT_COLOUR
    drawn = axes.errorbar(
        [item.cost], [item.rate], yerr=_error(item), fmt="o", color=POINT_COLOUR,
        markerfacecolor=face, capsize=3, zorder=3,
    )  # fmt: skip
    line, _caps, bars = drawn.lines
    line.set_gid(f"point-{index}")
    for bar in bars:
        bar.set_gid(f"errorbar-{index}")
    axes.annotate(item.model, (item.cost, item.rate), xytext=(6, 4), textcoords="offset points")


def _draw_frontier(axes: Axes, frontier: Sequence[Point]) -> None:
    if not frontier:
        return
    axes.step(
        [p.cost for p in frontier], [p.rate for p in frontier], where="post",
        color=FRONTIER_COLOUR, linewidth=1.5, label="Pareto frontier", gid="frontier", zorder=2,
    )  # fmt: skip
    axes.legend(loc="lower right")


def _note(axes: Axes, view: CostCapability) -> None:
    if not view.unknown_cost:
        return
    axes.text(
        0.0, -0.14, "cost unknown, not plotted: " + ", ".join(view.unknown_cost),
        transform=axes.transAxes, va="top", gid="unknown-cost",
    )  # fmt: skip


def cost_capability_chart(path: Path, view: CostCapability) -> None:
    """Write the chart of ``view`` to ``path`` (.png or .svg; see the module doc)."""
    with chart_file(Path(path), WIDTH, HEIGHT) as figure:
        axes = figure.add_subplot()
        _x_axis(axes, [p.cost for p in view.points])
        _y_axis(axes)
        for index, item in enumerate(view.points):
            _draw_point(axes, index, item)
        _draw_frontier(axes, view.frontier)
        _note(axes, view)
        axes.set_title(f"{view.title}\npass rate against average cost per run")
