"""Several line panels in one figure, the same named series in each, one shared legend.

Made for comparing runs (SCB paper, Figure 3): one panel per measure (solve
rate, erosion, verbosity, churn), one line per run, x = phase. Each panel has
its own x labels (so each can say its n) and its own y range. A value of None
is a gap, never drawn as 0; a value of exactly 0 gets a marker on the axis
(the line is not clipped there), so it never reads as missing. In SVG, panel p's
series i is the group ``panel-<p>-series-<i>``, the marker of its zero at x
position k ``panel-<p>-series-<i>-<k>-zero``, and the panel's title
``panel-<p>-title``.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from slopmark.errors import BadInput
from slopmark.plot.charts import (
    Series,
    YRange,
    check_range,
    check_series,
    set_range,
    zero_marker,
)
from slopmark.plot.figure import chart_file

if TYPE_CHECKING:
    from matplotlib.axes import Axes

__all__ = ["Panel", "panel_chart"]

#: one panel's size in pixels; the figure is two panels wide
PANEL_WIDTH, PANEL_HEIGHT = 560, 340
#: room for the figure's title and the legend under the panels
MARGIN = 160


@dataclass(frozen=True)
class Panel:
    """One measure: its title, x labels, one value (or None) per label for each series."""

    title: str
    x_labels: Sequence[str]
    series: Series
    y_label: str
    y_range: YRange | None = None


def _check_panels(panels: Sequence[Panel]) -> None:
    if not panels:
        raise BadInput("panel chart: no panel given; pass at least one")
    names = list(panels[0].series)
    for panel in panels:
        check_series(panel.series, len(panel.x_labels), f"x labels of panel {panel.title!r}")
        check_range(panel.y_range)
        if list(panel.series) != names:
            raise BadInput(
                f"panel chart: panel {panel.title!r} has series {list(panel.series)}, "
                f"not {names}; give every panel the same series in the same order"
            )


def _draw_panel(axes: Axes, index: int, panel: Panel) -> None:
    for number, (name, values) in enumerate(panel.series.items()):
        gid = f"panel-{index}-series-{number}"
        points = [math.nan if v is None else v for v in values]
        (line,) = axes.plot(range(len(points)), points, marker="o", label=name, gid=gid,
                            clip_on=False)  # fmt: skip
        for slot in (k for k, value in enumerate(values) if value == 0):
            zero_marker(axes, slot, line.get_color(), f"{gid}-{slot}-zero")
    set_range(axes, panel.y_range)
    axes.set_xticks(range(len(panel.x_labels)), list(panel.x_labels))
    axes.set_title(panel.title, gid=f"panel-{index}-title")
    axes.set_ylabel(panel.y_label)
    axes.grid(axis="y", alpha=0.3)


def panel_chart(path: Path, *, title: str, panels: Sequence[Panel]) -> None:
    """``panels`` in a grid two wide, under ``title``, with one legend of the series below."""
    _check_panels(panels)
    columns = min(len(panels), 2)
    rows = math.ceil(len(panels) / columns)
    size = (PANEL_WIDTH * columns, PANEL_HEIGHT * rows + MARGIN)
    with chart_file(Path(path), *size) as figure:
        figure.suptitle(title)
        grid = figure.subplots(rows, columns, squeeze=False).flatten()
        for index, (axes, panel) in enumerate(zip(grid, panels, strict=False)):
            _draw_panel(axes, index, panel)
        for spare in grid[len(panels) :]:
            spare.set_visible(False)
        handles, labels = grid[0].get_legend_handles_labels()
        named = [(h, label) for h, label in zip(handles, labels, strict=True) if label[:1] != "_"]
        figure.legend([h for h, _ in named], [label for _, label in named],
                      loc="outside lower center", ncols=1)  # fmt: skip
