"""Generic charts: named series over labelled x positions, as lines or grouped bars.

Made for reports such as the coding benchmark's "solve rate and quality by
phase" (x labels Start, Early, Mid, Late, Final). A value of None is a gap:
the line breaks there and the bar is left out, never drawn as 0. A bar of
exactly 0 is drawn as a marker on the axis, so it never reads as missing
data. Every series must have one value per x label. In SVG, series i
(counting from 0 in the order given) is the group ``series-<i>`` of a line
chart, its bar for category k the group ``series-<i>-<k>`` of a bar chart,
that bar's value label (with ``value_format``) ``series-<i>-<k>-label`` and
the marker of a zero bar ``series-<i>-<k>-zero``.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from slopmark.errors import BadInput
from slopmark.plot.figure import chart_file

if TYPE_CHECKING:
    from matplotlib.axes import Axes

__all__ = ["bar_chart", "line_chart"]

WIDTH, HEIGHT = 800, 480
#: the share of each x slot the bars of all series fill together
BAR_SPAN = 0.8

Series = Mapping[str, Sequence[float | None]]
#: a y range; a high end of None fits the data above the low end
YRange = tuple[float, float | None]


def check_series(series: Series, size: int, what: str) -> None:
    if size == 0:
        raise BadInput(f"chart: no {what} given; pass at least one")
    for name, values in series.items():
        if len(values) != size:
            raise BadInput(
                f"chart series {name!r}: {len(values)} values for {size} {what}; "
                "pass one value (or None for a gap) per label"
            )
        bad = [v for v in values if v is not None and not math.isfinite(v)]
        if bad:
            raise BadInput(f"chart series {name!r}: value {bad[0]!r} is not a finite number")


def check_range(y_range: YRange | None) -> None:
    if y_range is not None and y_range[1] is not None and not y_range[0] < y_range[1]:
        raise BadInput(f"chart y_range {y_range!r}: the low end must be below the high end")


def set_range(axes: Axes, y_range: YRange | None) -> None:
    if y_range is None:
        return
    low, high = y_range
    if high is None:
        axes.set_ylim(bottom=low)
        if axes.get_ylim()[1] <= low:  # all the data lies below the low end
            axes.set_ylim(top=low + 1)
    else:
        axes.set_ylim(low, high)


def _finish(axes: Axes, title: str, labels: Sequence[str], y_label: str, legend: bool) -> None:
    axes.set_xticks(range(len(labels)), list(labels))
    axes.set_title(title)
    axes.set_ylabel(y_label)
    axes.grid(axis="y", alpha=0.3)
    if legend:
        axes.legend()


def line_chart(
    path: Path,
    *,
    title: str,
    x_labels: Sequence[str],
    series: Series,
    y_label: str,
    y_range: YRange | None = None,
) -> None:
    """One line (with markers) per series over ``x_labels``; None values are gaps.

    ``y_range`` fixes the y axis (e.g. ``(0, 1)`` for rates, ``(0, None)`` for
    "from 0 to the data"); None fits the data.
    """
    check_series(series, len(x_labels), "x labels")
    check_range(y_range)
    with chart_file(Path(path), WIDTH, HEIGHT) as figure:
        axes = figure.add_subplot()
        for index, (name, values) in enumerate(series.items()):
            points = [math.nan if v is None else v for v in values]
            axes.plot(range(len(points)), points, marker="o", label=name, gid=f"series-{index}")
        set_range(axes, y_range)
        _finish(axes, title, x_labels, y_label, bool(series))


def bar_chart(
    path: Path,
    *,
    title: str,
    categories: Sequence[str],
    series: Series,
    y_label: str,
    y_range: YRange | None = None,
    value_format: Callable[[float], str] | None = None,
) -> None:
    """Grouped bars: per category, one bar per series side by side; None leaves a gap.

    A bar of 0 gets a marker on the axis. ``value_format`` writes each bar's
    value above it (e.g. ``"0%"``); ``y_range`` is as in `line_chart`.
    """
    check_series(series, len(categories), "categories")
    check_range(y_range)
    width = BAR_SPAN / max(len(series), 1)
    with chart_file(Path(path), WIDTH, HEIGHT) as figure:
        axes = figure.add_subplot()
        for index, (name, values) in enumerate(series.items()):
            offset = -BAR_SPAN / 2 + width * (index + 0.5)
            known = [(slot + offset, slot, v) for slot, v in enumerate(values) if v is not None]
            _draw_bars(axes, f"series-{index}", name, known, width, value_format)
        axes.axhline(0, color="black", linewidth=0.8)
        set_range(axes, y_range)
        _finish(axes, title, categories, y_label, bool(series))


def zero_marker(axes: Axes, x: float, color: Any, gid: str) -> None:
    """A diamond on the axis at ``x``, never clipped: a value of 0 that reads as one."""
    axes.plot([x], [0], marker="D", markersize=5, color=color, markeredgecolor="black",
              markeredgewidth=0.6, clip_on=False, zorder=3, gid=gid)  # fmt: skip


def _draw_bars(
    axes: Axes,
    gid: str,
    name: str,
    known: Sequence[tuple[float, int, float]],
    width: float,
    value_format: Callable[[float], str] | None,
) -> None:
    """One series' bars at (x, slot, value); zero bars get a marker, labels their value."""
    bars = axes.bar([x for x, _, _ in known], [v for _, _, v in known], width, label=name)
    for (x, slot, value), patch in zip(known, bars.patches, strict=True):
        patch.set_gid(f"{gid}-{slot}")
        if value == 0:
            zero_marker(axes, x, patch.get_facecolor(), f"{gid}-{slot}-zero")
    if value_format is not None:
        labels = axes.bar_label(bars, [value_format(v) for _, _, v in known], padding=3)
        for (_, slot, _), label in zip(known, labels, strict=True):
            label.set_gid(f"{gid}-{slot}-label")
