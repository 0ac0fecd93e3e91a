"""A history's erosion and verbosity trajectory as geometry for inline SVG (pure).

x is the measured commit's position (0: the oldest measured), y the metric, from 0 to
a round number at or above the largest value (both metrics are shares, 0 to 1). A
commit where a metric is undefined (no callables, no source lines) leaves a gap in
that metric's line rather than a made-up 0.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from math import ceil
from typing import Any

from slopmark.server.chart import Tick

WIDTH, HEIGHT = 760, 320
LEFT, RIGHT, TOP, BOTTOM = 56, 110, 16, 44
METRICS = ("erosion", "verbosity")
#: Commits up to which each value gets its own (linked) dot; past it only the lines are
#: drawn (the table under the chart lists every value and links every commit).
MAX_MARKS = 200
#: the y axis' tick steps, smallest first
STEPS = (0.02, 0.05, 0.1, 0.2, 0.25, 0.5, 1.0)


@dataclass(frozen=True)
class Mark:
    """One commit's value of one metric, placed."""

    x: float
    y: float
    position: int
    sha: str
    value: float


@dataclass(frozen=True)
class Line:
    metric: str
    #: the ``points`` of each unbroken run of defined values
    segments: tuple[str, ...]
    #: a dot per defined value (none past `MAX_MARKS` commits)
    marks: tuple[Mark, ...]


@dataclass(frozen=True)
class Trajectory:
    lines: tuple[Line, ...]
    x_ticks: tuple[Tick, ...]
    y_ticks: tuple[Tick, ...]
    n: int
    #: whether the dots are drawn (at most `MAX_MARKS` commits)
    marked: bool
    width: int = WIDTH
    height: int = HEIGHT
    left: int = LEFT
    top: int = TOP
    right: int = WIDTH - RIGHT
    bottom: int = HEIGHT - BOTTOM


def _scale(commits: Sequence[Mapping[str, Any]]) -> tuple[float, float]:
    """The y axis' end and tick step: the first step of `STEPS` that reaches every value
    (at least 0.1) in at most five ticks, and the multiple of it just above them."""
    values = [c[m] for c in commits for m in METRICS if c[m] is not None]
    largest = max([0.1, *values])
    for step in STEPS:
        count = ceil(largest / step - 1e-9)
        if count <= 5:
            return count * step, step
    step = largest / 5
    return largest, step


def _x(position: int, n: int) -> float:
    span = WIDTH - RIGHT - LEFT
    return LEFT + (span * position / (n - 1) if n > 1 else span / 2)


def _y(value: float, top: float) -> float:
    return TOP + (HEIGHT - BOTTOM - TOP) * (1.0 - value / top)


def _line(metric: str, commits: Sequence[Mapping[str, Any]], top: float, marked: bool) -> Line:
    """One metric's line: its unbroken runs as SVG points, and its dots when ``marked``."""
    n = len(commits)
    marks: list[Mark] = []
    runs: list[list[str]] = [[]]
    for c in commits:
        value = c[metric]
        if value is None:
            runs.append([])
            continue
        x, y = _x(c["position"], n), _y(value, top)
        runs[-1].append(f"{x:.1f},{y:.1f}")
        if marked:
            marks.append(Mark(x, y, c["position"], c["sha"], value))
    return Line(metric, tuple(" ".join(run) for run in runs if len(run) > 1), tuple(marks))


def _x_ticks(n: int) -> tuple[Tick, ...]:
    """About six ticks over the commit positions, the first and last included."""
    step = max(1, ceil((n - 1) / 5)) if n > 1 else 1
    positions = sorted({*range(0, n, step), n - 1}) if n else []
    return tuple(Tick(_x(p, n), str(p)) for p in positions)


def trajectory(commits: Sequence[Mapping[str, Any]]) -> Trajectory:
    """The chart of ``commits`` (each with ``position``, ``sha``, ``erosion``,
    ``verbosity``), in position order."""
    top, step = _scale(commits)
    n = len(commits)
    lines = tuple(_line(metric, commits, top, n <= MAX_MARKS) for metric in METRICS)
    count = round(top / step)
    y_ticks = tuple(Tick(_y(step * k, top), f"{step * k:.3g}") for k in range(count + 1))
    return Trajectory(lines, _x_ticks(n), y_ticks, n, n <= MAX_MARKS)
