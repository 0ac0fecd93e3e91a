"""Mean lines with their 95% interval, one line per group, one panel per metric.

Made for the repository study's groups (Figure 4 of SlopCodeBench: the mean
trajectory per star tier over normalised progress). Each point is
``(x, low, mean, high)``; a None mean is a gap in the line and a None bound a
gap in the band, never drawn as 0. In SVG, group j's line in panel i is the
group ``mean-<i>-<j>`` and its interval ``ci-<i>-<j>``.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from slopmark.errors import BadInput
from slopmark.plot.figure import chart_file

if TYPE_CHECKING:
    from matplotlib.axes import Axes

__all__ = ["group_chart"]

WIDTH, HEIGHT = 900, 420
MeanPoint = tuple[float, float | None, float | None, float | None]
#: metric → group label → its points
Panels = Mapping[str, Mapping[str, Sequence[MeanPoint]]]


def _nan(value: float | None) -> float:
    return math.nan if value is None else value


def _draw(axes: Axes, index: int, lines: Mapping[str, Sequence[MeanPoint]]) -> None:
    for number, (label, points) in enumerate(lines.items()):
        xs = [p[0] for p in points]
        low, mean, high = ([_nan(p[k]) for p in points] for k in (1, 2, 3))
        (line,) = axes.plot(xs, mean, marker="o", label=label, gid=f"mean-{index}-{number}")
        band = axes.fill_between(xs, low, high, alpha=0.2, color=line.get_color())
        band.set_gid(f"ci-{index}-{number}")


def group_chart(path: Path, *, title: str, x_label: str, panels: Panels) -> None:
    """One panel per metric side by side: per group, its mean and 95% interval."""
    if not panels:
        raise BadInput("group chart: no panel given; pass at least one metric")
    with chart_file(Path(path), WIDTH, HEIGHT) as figure:
        figure.suptitle(title)
        axes_row = figure.subplots(1, len(panels), squeeze=False)[0]
        for index, (axes, (name, lines)) in enumerate(zip(axes_row, panels.items(), strict=True)):
            _draw(axes, index, lines)
            axes.set_title(f"{name} (mean, 95% CI)")
            axes.set_xlabel(x_label)
            axes.set_xlim(0, 1)
            axes.grid(alpha=0.3)
            axes.legend()
