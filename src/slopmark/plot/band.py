"""A median line with its inter-quartile band, one panel per metric, over a shared x axis.

Made for the repository study's trajectories (x = normalised commit position).
Each point is ``(x, q1, median, q3)``; a None median is a gap in the line and a
None quartile a gap in the band, never drawn as 0. In SVG, panel i's median line
is the group ``median-<i>`` and its band ``band-<i>``.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from pathlib import Path

from slopmark.errors import BadInput
from slopmark.plot.figure import chart_file

__all__ = ["band_chart"]

WIDTH, HEIGHT = 900, 420
BandPoint = tuple[float, float | None, float | None, float | None]


def _nan(value: float | None) -> float:
    return math.nan if value is None else value


def band_chart(
    path: Path, *, title: str, x_label: str, panels: Mapping[str, Sequence[BandPoint]]
) -> None:
    """One panel per entry of ``panels`` side by side: the median and the q1–q3 band."""
    if not panels:
        raise BadInput("band chart: no panel given; pass at least one metric")
    with chart_file(Path(path), WIDTH, HEIGHT) as figure:
        figure.suptitle(title)
        axes_row = figure.subplots(1, len(panels), squeeze=False)[0]
        for index, (axes, (name, points)) in enumerate(zip(axes_row, panels.items(), strict=True)):
            xs = [p[0] for p in points]
            low, mid, high = ([_nan(p[k]) for p in points] for k in (1, 2, 3))
            band = axes.fill_between(xs, low, high, alpha=0.3, label="inter-quartile range")
            band.set_gid(f"band-{index}")
            axes.plot(xs, mid, marker="o", label="median", gid=f"median-{index}")
            axes.set_title(name)
            axes.set_xlabel(x_label)
            axes.set_xlim(0, 1)
            axes.grid(alpha=0.3)
            axes.legend()
