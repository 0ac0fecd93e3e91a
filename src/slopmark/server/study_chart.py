"""A study's trajectory band as geometry for inline SVG (pure): one panel per metric.

x is the normalised commit position i/(n−1) of a repository's n sampled
commits (0 to 1), y the metric's value from 0 up to a round bound above the
largest value drawn. The band is the inter-quartile range across repositories
at each grid point of `slopmark.code.study.summary.GRID`, the line through it
the median (both from `slopmark.code.study.summary`, as ``code study report``
computes them); where no repository has a value the band has a gap. Behind it,
each counted repository's own trajectory, placed by the same rule
(`slopmark.code.study.summary.positions`), is a link to that repository's page.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

from slopmark.code.study.summary import BandPoint, MetricSummary, positions
from slopmark.server.chart import Tick

__all__ = ["BandPanel", "Dot", "Trace", "TraceSource", "band_panel"]

WIDTH, HEIGHT = 520, 300
LEFT, RIGHT, TOP, BOTTOM = 58, 16, 14, 46
#: round bounds of the y axis: these times a power of ten
_STEPS = (1.0, 2.0, 2.5, 5.0, 10.0)


@dataclass(frozen=True)
class TraceSource:
    """A repository's values in commit order, where its line links, and what it says."""

    title: str
    href: str
    values: tuple[float | None, ...]
    notes: tuple[str, ...] = ()


@dataclass(frozen=True)
class Dot:
    x: float
    y: float
    title: str


@dataclass(frozen=True)
class Trace:
    title: str
    href: str
    points: str
    dots: tuple[Dot, ...]


@dataclass(frozen=True)
class BandPanel:
    """One metric's band (IQR areas and median lines, split at gaps) and traces."""

    metric: str
    areas: tuple[str, ...]
    medians: tuple[str, ...]
    traces: tuple[Trace, ...]
    x_ticks: tuple[Tick, ...]
    y_ticks: tuple[Tick, ...]
    width: int = WIDTH
    height: int = HEIGHT
    left: int = LEFT
    top: int = TOP
    right: int = WIDTH - RIGHT
    bottom: int = HEIGHT - BOTTOM


def round_bound(value: float) -> float:
    """The smallest of 1, 2, 2.5, 5 × 10^k at or above ``value`` (1 for nothing above 0)."""
    if value <= 0 or not math.isfinite(value):
        return 1.0
    value = max(value, 1e-300)  # a subnormal's power of ten would underflow to 0
    power = 10.0 ** math.floor(math.log10(value))
    above = (step * power for step in _STEPS if step * power >= value * (1 - 1e-12))
    return next(above, 10.0 * power)


def _x(position: float) -> float:
    return LEFT + (WIDTH - LEFT - RIGHT) * position


def _y(value: float, bound: float) -> float:
    return TOP + (HEIGHT - BOTTOM - TOP) * (1.0 - value / bound)


def _runs(band: Sequence[BandPoint]) -> list[list[BandPoint]]:
    """The band split where a grid point has no value (n = 0)."""
    runs: list[list[BandPoint]] = [[]]
    for point in band:
        if point.median is None:
            runs.append([])
        else:
            runs[-1].append(point)
    return [run for run in runs if run]


def _path(pairs: Sequence[tuple[float, float]], bound: float) -> str:
    return " ".join(f"{_x(x):.1f},{_y(y, bound):.1f}" for x, y in pairs)


def _area(run: Sequence[BandPoint], bound: float) -> str:
    upper = [(p.position, p.q3 if p.q3 is not None else 0.0) for p in run]
    lower = [(p.position, p.q1 if p.q1 is not None else 0.0) for p in reversed(run)]
    return _path(upper + lower, bound)


def _trace(source: TraceSource, bound: float, with_dots: bool) -> Trace:
    placed = positions(source.values)
    dots: tuple[Dot, ...] = ()
    if with_dots:
        defined = [i for i, value in enumerate(source.values) if value is not None]
        notes = [source.notes[i] if i < len(source.notes) else "" for i in defined]
        pairs = zip(placed, notes, strict=True)
        dots = tuple(Dot(_x(x), _y(y, bound), note) for (x, y), note in pairs)
    return Trace(source.title, source.href, _path(placed, bound), dots)


def _largest(metric: MetricSummary, sources: Sequence[TraceSource]) -> float:
    drawn = [p.q3 for p in metric.band if p.q3 is not None]
    drawn += [v for s in sources for v in s.values if v is not None]
    return max(drawn, default=0.0)


def band_panel(
    metric: MetricSummary, sources: Sequence[TraceSource], with_dots: bool = False
) -> BandPanel:
    """``metric``'s band with a trace per source; ``with_dots`` marks each commit."""
    bound = round_bound(_largest(metric, sources))
    runs = _runs(metric.band)
    medians = tuple(_path([(p.position, p.median or 0.0) for p in run], bound) for run in runs)
    x_ticks = tuple(Tick(_x(x / 4), f"{x / 4:g}") for x in range(5))
    y_ticks = tuple(Tick(_y(bound * k / 4, bound), f"{bound * k / 4:g}") for k in range(5))
    return BandPanel(
        metric.metric, tuple(_area(run, bound) for run in runs), medians,
        tuple(_trace(source, bound, with_dots) for source in sources), x_ticks, y_ticks,
    )  # fmt: skip
