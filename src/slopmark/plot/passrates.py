"""A board's pass rate per model as a PNG or SVG file: the chart when cost is unknown.

Draws a `slopmark.board.passrates.PassRates` view, what ``board plot`` writes
when no model of a board has a known cost (every pasted answer, most local
models), instead of empty cost axes: a row per model in board order (its name
on the left, whole), x the pass rate from 0% to 100%, a dot at the estimate
(hollow: provisional) and a whisker over the 95% interval. The caption under
the title says why the cost axis is absent.

SVG ids, for readers and tests: ``mark-<i>`` (the dot) and ``whisker-<i>``
(the interval) for the i-th model in board order, ``no-cost`` for the caption.
"""

from __future__ import annotations

from pathlib import Path
from textwrap import fill
from typing import TYPE_CHECKING

from slopmark.board.passrates import Mark, PassRates
from slopmark.plot.figure import chart_file

if TYPE_CHECKING:
    from matplotlib.axes import Axes

__all__ = ["pass_rate_chart"]

WIDTH, ROW, FRAME = 900, 34, 200
COLOUR = "#1f5fa8"


def _draw_mark(axes: Axes, index: int, mark: Mark) -> None:
    if mark.low is not None and mark.high is not None:
        (whisker,) = axes.plot([mark.low, mark.high], [index, index], color=COLOUR, linewidth=2)
        whisker.set_gid(f"whisker-{index}")
    face = "white" if mark.provisional else COLOUR
    (dot,) = axes.plot([mark.rate], [index], "o", color=COLOUR, markerfacecolor=face, zorder=3)
    dot.set_gid(f"mark-{index}")


def _wrapped(text: str) -> str:
    """The caption in lines of 120 characters, broken only at spaces (names stay whole)."""
    return fill(text, 120, break_on_hyphens=False, break_long_words=False)


def _axes(axes: Axes, view: PassRates) -> None:
    from matplotlib.ticker import FixedLocator, PercentFormatter

    axes.set_xlim(-0.02, 1.02)
    axes.xaxis.set_major_locator(FixedLocator([0.0, 0.25, 0.5, 0.75, 1.0]))
    axes.xaxis.set_major_formatter(PercentFormatter(xmax=1.0))
    axes.set_xlabel("pass rate [95% CI]")
    axes.set_yticks(range(len(view.marks)), [mark.model for mark in view.marks])
    axes.set_ylim(len(view.marks) - 0.5, -0.5)  # the board's first model on top
    axes.grid(axis="x", alpha=0.3)


def pass_rate_chart(path: Path, view: PassRates) -> None:
    """Write the chart of ``view`` to ``path`` (.png or .svg; see the module doc)."""
    height = FRAME + ROW * max(len(view.marks), 1)
    with chart_file(Path(path), WIDTH, height) as figure:
        axes = figure.add_subplot()
        _axes(axes, view)
        for index, mark in enumerate(view.marks):
            _draw_mark(axes, index, mark)
        axes.set_title(f"{view.title}\npass rate per model (no cost axis)")
        caption = figure.supxlabel(_wrapped(view.reason), x=0.01, ha="left", fontsize=9)
        caption.set_gid("no-cost")
