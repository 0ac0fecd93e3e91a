"""Reliability diagrams of a calibration board as a PNG or SVG file: one panel per model.

Each panel draws a `slopmark.board.reliability.Curve`: the diagonal (perfect
calibration), and for each non-empty confidence bin a point at (mean stated
confidence, accuracy) labelled with the bin's count, joined in bin order;
the panel's title gives the model's ECE, Brier score and answer count.
Panels are laid out four to a row. Models that stated no confidence are
named in a note.

SVG ids: ``reliability-<i>`` (the curve) and ``diagonal-<i>`` for the i-th
model in board order, ``count-<i>-<k>`` for the count label of its bin k
(k counts the bins from 0 at confidence 0), ``unstated`` for the note.
"""

from __future__ import annotations

from math import ceil
from pathlib import Path
from typing import TYPE_CHECKING

from slopmark.board.reliability import Curve, Reliability
from slopmark.plot.figure import chart_file

if TYPE_CHECKING:
    from matplotlib.axes import Axes

__all__ = ["reliability_chart"]

PANEL, COLUMNS, HEADER = 300, 4, 70
CURVE_COLOUR = "#1f5fa8"


def _number(value: float | None) -> str:
    return "–" if value is None else f"{value:.3f}"


def _panel(axes: Axes, index: int, curve: Curve) -> None:
    axes.plot([0, 1], [0, 1], linestyle="--", color="grey", linewidth=1, gid=f"diagonal-{index}")
    points = curve.points
    confidence, accuracy = [p.confidence for p in points], [p.accuracy for p in points]
    axes.plot(confidence, accuracy, marker="o", color=CURVE_COLOUR, gid=f"reliability-{index}")
    for p in points:
        axes.annotate(
            str(p.count), (p.confidence, p.accuracy), xytext=(4, -10),
            textcoords="offset points", fontsize=7, gid=f"count-{index}-{p.index}",
        )  # fmt: skip
    report = curve.report
    axes.set_title(
        f"{curve.model}\nECE {_number(report.ece)} · Brier {_number(report.brier)} · n={report.n}",
        fontsize=8,
    )
    axes.set_xlim(0, 1)
    axes.set_ylim(0, 1)
    axes.set_aspect("equal")
    axes.grid(alpha=0.3)


def _shape(models: int) -> tuple[int, int]:
    columns = min(COLUMNS, max(models, 1))
    return max(ceil(models / columns), 1), columns


def reliability_chart(path: Path, view: Reliability) -> None:
    """Write the reliability diagrams of ``view`` to ``path`` (.png or .svg)."""
    rows, columns = _shape(len(view.curves))
    with chart_file(Path(path), PANEL * columns, PANEL * rows + HEADER) as figure:
        grid = figure.subplots(rows, columns, squeeze=False)
        panels = [axes for line in grid for axes in line]
        for index, (axes, curve) in enumerate(zip(panels, view.curves, strict=False)):
            _panel(axes, index, curve)
            axes.set_xlabel("mean stated confidence", fontsize=8)
            axes.set_ylabel("accuracy", fontsize=8)
        for axes in panels[len(view.curves) :]:
            axes.set_axis_off()
        figure.suptitle(f"{view.title}: reliability (10 confidence bins)")
        if view.unstated:
            note = "no stated confidence, not drawn: " + ", ".join(view.unstated)
            figure.supxlabel(note, fontsize=8, gid="unstated")
