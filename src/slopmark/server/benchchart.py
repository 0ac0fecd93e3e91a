"""The /bench charts as geometry for inline SVG (pure), in the style of SlopCodeBench's figures.

- **Quality by phase** (`quality_chart`): erosion or verbosity (y, from 0) against
  the checkpoint's phase (x: Start, Early, Mid, Late, Final), one line per
  agent × model × prompt, each point the mean over that phase's measured
  checkpoints; behind them the human-repository band (median and IQR, see
  `slopmark.board.benchband`) when a study is stored.
- **Solve rate against cost** (`cost_chart`): strict solve rate (y, 0 to 100%,
  with its 95% interval) against the mean cost per checkpoint (x, linear from
  $0); a row whose cost is unknown is listed, not placed.

Each chart's numbers are also in the page's tables (its text alternative).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from math import ceil, floor, log10

from slopmark.board.benchband import BandPhase
from slopmark.board.benchboard import PHASES, BenchRow
from slopmark.server.chart import Tick

__all__ = ["CostChart", "CostPoint", "LinePoint", "LineSeries", "QualityChart", "cost_chart",
           "quality_chart"]  # fmt: skip

WIDTH, HEIGHT = 600, 300
LEFT, RIGHT, TOP, BOTTOM = 56, 20, 14, 44


@dataclass(frozen=True)
class Frame:
    width: int = WIDTH
    height: int = HEIGHT
    left: int = LEFT
    top: int = TOP
    right: int = WIDTH - RIGHT
    bottom: int = HEIGHT - BOTTOM


FRAME = Frame()


def nice_top(high: float) -> tuple[float, float]:
    """An axis end at or above ``high`` and its tick step (1, 2 or 5 × a power of ten)."""
    if high <= 0:
        return 1.0, 0.25
    raw = high / 4
    power = 10.0 ** floor(log10(raw))
    step = next(m * power for m in (1, 2, 5, 10) if m * power >= raw)
    return step * ceil(high / step - 1e-9), step


def _y(value: float, top: float) -> float:
    return FRAME.top + (FRAME.bottom - FRAME.top) * (1.0 - value / top)


def _tick_label(value: float, percent: bool) -> str:
    return f"{100 * value:.0f}%" if percent else f"{value:g}"


def _y_ticks(top: float, step: float, percent: bool = False) -> tuple[Tick, ...]:
    values = (round(i * step, 10) for i in range(round(top / step) + 1))
    return tuple(Tick(_y(value, top), _tick_label(value, percent)) for value in values)


def _phase_x(name: str) -> float:
    span = FRAME.right - FRAME.left - 40
    return FRAME.left + 20 + span * PHASES.index(name) / (len(PHASES) - 1)


@dataclass(frozen=True)
class LinePoint:
    phase: str
    x: float
    y: float
    value: float
    n: int


@dataclass(frozen=True)
class LineSeries:
    label: str
    index: int
    points: tuple[LinePoint, ...]
    path: str


@dataclass(frozen=True)
class QualityChart:
    measure: str
    series: tuple[LineSeries, ...]
    band: tuple[BandPhase, ...]
    band_area: str
    band_median: str
    x_ticks: tuple[Tick, ...]
    y_ticks: tuple[Tick, ...]
    frame: Frame = FRAME


def _path(points: Sequence[tuple[float, float]]) -> str:
    return " ".join(f"{x:.1f},{y:.1f}" for x, y in points)


def _series(row: BenchRow, index: int, measure: str, top: float) -> LineSeries:
    means = row.erosion if measure == "erosion" else row.verbosity
    points = tuple(
        LinePoint(name, _phase_x(name), _y(mean.value, top), mean.value, mean.n)
        for name, mean in means.items()
        if mean.value is not None
    )
    return LineSeries(row.key.label, index, points, _path([(p.x, p.y) for p in points]))


def _band_shapes(band: Sequence[BandPhase], top: float) -> tuple[str, str]:
    upper = [(_phase_x(b.phase), _y(b.q3, top)) for b in band]
    lower = [(_phase_x(b.phase), _y(b.q1, top)) for b in reversed(band)]
    median = [(_phase_x(b.phase), _y(b.median, top)) for b in band]
    return _path(upper + lower), _path(median)


def quality_chart(
    rows: Sequence[BenchRow], measure: str, band: Sequence[BandPhase]
) -> QualityChart:
    """``measure`` (erosion or verbosity) by phase: a line per row, the human band behind."""
    means = [
        m.value for r in rows for m in (r.erosion if measure == "erosion" else r.verbosity).values()
    ]
    high = max([v for v in means if v is not None] + [b.q3 for b in band], default=0.0)
    top, step = nice_top(high)
    area, median = _band_shapes(band, top)
    return QualityChart(
        measure=measure,
        series=tuple(_series(row, i, measure, top) for i, row in enumerate(rows)),
        band=tuple(band), band_area=area, band_median=median,
        x_ticks=tuple(Tick(_phase_x(name), name) for name in PHASES),
        y_ticks=_y_ticks(top, step),
    )  # fmt: skip


@dataclass(frozen=True)
class CostPoint:
    label: str
    index: int
    cost: float
    rate: float
    x: float
    y: float
    y_low: float
    y_high: float
    provisional: bool


@dataclass(frozen=True)
class CostChart:
    points: tuple[CostPoint, ...]
    unplaced: tuple[str, ...]
    x_ticks: tuple[Tick, ...]
    y_ticks: tuple[Tick, ...]
    frame: Frame = FRAME


def _cost_x(cost: float, top: float) -> float:
    return FRAME.left + (FRAME.right - FRAME.left) * cost / top


def _cost_point(row: BenchRow, index: int, top: float) -> CostPoint | None:
    cost, rate = row.means["cost_usd"].value, row.rates["strict"]
    if cost is None or rate.estimate is None:
        return None
    low = rate.low if rate.low is not None else rate.estimate
    high = rate.high if rate.high is not None else rate.estimate
    return CostPoint(
        row.key.label, index, cost, rate.estimate, _cost_x(cost, top), _y(rate.estimate, 1.0),
        _y(low, 1.0), _y(high, 1.0), row.provisional,
    )  # fmt: skip


def cost_chart(rows: Sequence[BenchRow]) -> CostChart:
    """Strict solve rate against cost per checkpoint; rows of unknown cost listed apart."""
    costs = [r.means["cost_usd"].value for r in rows]
    top, step = nice_top(max([c for c in costs if c is not None], default=0.0))
    placed = [_cost_point(row, i, top) for i, row in enumerate(rows)]
    ticks = tuple(
        Tick(_cost_x(i * step, top), f"${i * step:g}") for i in range(round(top / step) + 1)
    )
    return CostChart(
        points=tuple(p for p in placed if p is not None),
        unplaced=tuple(r.key.label for r, p in zip(rows, placed, strict=True) if p is None),
        x_ticks=ticks, y_ticks=_y_ticks(1.0, 0.25, percent=True),
    )  # fmt: skip
