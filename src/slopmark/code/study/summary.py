"""A study's numbers across its repositories (pure: records in, frozen values out).

Following the paper's repository panel (seed 000, §3.3 and Appendix D):

- commits whose tree has no measured source (metric undefined) are dropped;
- a repository counts when it has at least ``min_commits`` defined points
  (the paper reports first→last growth for repositories with ≥ 5 commits);
- **rose**: the last defined value is above the first; the share is over the
  repositories where that is defined, reported with its n;
- **slope**: least-squares (OLS) slope of the value on sample position i = 0..n−1
  (per sampled commit, `slopmark.code.measure.metrics.slope`), and on normalised
  position i/(n−1) (``slope_progress``: the fitted change over the whole sampled
  history, the per-commit slope × (n−1)); both summarised by quantiles (linear
  interpolation between order statistics, Hyndman & Fan type 7);
- **trajectory**: each repository's values placed at normalised commit position
  i/(n−1) of its n sampled commits, linearly interpolated onto a fixed grid,
  then the median and inter-quartile band across repositories at each grid point.

The paper's other statistics (the share that rose with its 95% interval, median
relative growth, HEAD mean ± sd, the mean trajectory with its 95% interval, the
birth-effect flag) are `slopmark.code.study.panel`'s. With groups (the REPOS
file's ``group=NAME``), every statistic is given again per group.

Undefined statistics are None with their n, never 0.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from slopmark.code.measure.metrics import rose, slope
from slopmark.code.study.panel import DEFAULT_BIRTH, BirthRule, PaperStats, paper_stats
from slopmark.code.study.records import OK, RepoRecord

METRICS = ("erosion", "verbosity")
#: the quantiles reported for slopes
LEVELS = (0.1, 0.25, 0.5, 0.75, 0.9)
#: the normalised positions of the trajectory band
GRID = tuple(i / 10 for i in range(11))


def quantile(ordered: Sequence[float], level: float) -> float | None:
    """The ``level`` quantile of sorted values (type 7); None when there are none."""
    if not ordered:
        return None
    spot = (len(ordered) - 1) * level
    low = math.floor(spot)
    high = min(low + 1, len(ordered) - 1)
    return ordered[low] + (ordered[high] - ordered[low]) * (spot - low)


@dataclass(frozen=True)
class Spread:
    """Quantiles of some values (each None when n is 0)."""

    n: int
    quantiles: tuple[tuple[float, float | None], ...]

    @classmethod
    def of(cls, values: Sequence[float], levels: Sequence[float] = LEVELS) -> Spread:
        ordered = sorted(values)
        return cls(len(ordered), tuple((q, quantile(ordered, q)) for q in levels))


@dataclass(frozen=True)
class BandPoint:
    position: float
    n: int
    q1: float | None
    median: float | None
    q3: float | None


@dataclass(frozen=True)
class MetricSummary:
    metric: str
    rose: int
    rose_n: int
    slope: Spread
    head: Spread
    band: tuple[BandPoint, ...]
    slope_progress: Spread
    paper: PaperStats

    @property
    def rose_share(self) -> float | None:
        return self.rose / self.rose_n if self.rose_n else None


@dataclass(frozen=True)
class GroupSummary:
    """The repositories of one group that count (``group`` None: those given none)."""

    group: str | None
    used: int
    birth_flagged: int
    metrics: tuple[MetricSummary, ...]


@dataclass(frozen=True)
class StudySummary:
    repos: int
    ok: int
    failed: int
    used: int
    min_commits: int
    metrics: tuple[MetricSummary, ...]
    birth: BirthRule = DEFAULT_BIRTH
    birth_flagged: int = 0
    groups: tuple[GroupSummary, ...] = ()


def _series(record: RepoRecord, metric: str) -> list[float | None]:
    return [getattr(point, metric) for point in record.commits]


def positions(values: Sequence[float | None]) -> list[tuple[float, float]]:
    """The defined values at their normalised position i/(n-1) (0 for one commit)."""
    last = max(len(values) - 1, 1)
    return [(i / last, v) for i, v in enumerate(values) if v is not None]


def _at(points: Sequence[tuple[float, float]], x: float) -> float | None:
    """Linear interpolation of ``points`` (sorted by position) at ``x`` within their span."""
    for (x0, y0), (x1, y1) in zip(points, points[1:], strict=False):
        if x0 <= x <= x1:
            return y0 if x1 == x0 else y0 + (y1 - y0) * (x - x0) / (x1 - x0)
    if points and math.isclose(points[0][0], x):
        return points[0][1]
    return None


def _band(series: Sequence[Sequence[float | None]]) -> tuple[BandPoint, ...]:
    placed = [positions(values) for values in series]
    band = []
    for x in GRID:
        found = [v for points in placed if (v := _at(points, x)) is not None]
        spread = Spread.of(found, (0.25, 0.5, 0.75))
        q1, median, q3 = (value for _, value in spread.quantiles)
        band.append(BandPoint(x, spread.n, q1, median, q3))
    return tuple(band)


def _slopes(series: Sequence[Sequence[float | None]]) -> tuple[Spread, Spread]:
    """OLS slopes over sample position i and over normalised position i/(n−1) (× (n−1))."""
    slopes = [(s, len(values) - 1) for values in series if (s := slope(values)) is not None]
    return Spread.of([s for s, _ in slopes]), Spread.of([s * span for s, span in slopes])


def _metric(records: Sequence[RepoRecord], metric: str, flagged: Sequence[bool]) -> MetricSummary:
    series = [_series(r, metric) for r in records]
    rises = [r for values in series if (r := rose(values)) is not None]
    heads = [defined[-1] for values in series if (defined := [v for v in values if v is not None])]
    per_commit, per_progress = _slopes(series)
    return MetricSummary(
        metric, sum(rises), len(rises), per_commit, Spread.of(heads), _band(series),
        per_progress, paper_stats(series, flagged),
    )  # fmt: skip


def _metrics(records: Sequence[RepoRecord], birth: BirthRule) -> tuple[MetricSummary, ...]:
    flagged = [birth.flags(r) for r in records]
    return tuple(_metric(records, metric, flagged) for metric in METRICS)


def _groups(
    used: Sequence[RepoRecord], groups: Mapping[str, str], birth: BirthRule
) -> tuple[GroupSummary, ...]:
    """Every statistic per group, named groups in name order, then the ungrouped (if any)."""
    if not groups:
        return ()
    members: dict[str | None, list[RepoRecord]] = {}
    for record in used:
        members.setdefault(groups.get(record.repo), []).append(record)
    names = sorted({*groups.values()}) + ([None] if None in members else [])
    return tuple(
        GroupSummary(name, len(found := members.get(name, [])),
                     sum(birth.flags(r) for r in found), _metrics(found, birth))
        for name in names
    )  # fmt: skip


def defined_points(record: RepoRecord) -> int:
    """How many of a repository's commits have erosion or verbosity defined."""
    return sum(1 for p in record.commits if p.erosion is not None or p.verbosity is not None)


def counted(record: RepoRecord, min_commits: int) -> bool:
    """Whether a repository counts in the study's numbers: ok, with ``min_commits`` points."""
    return record.status == OK and defined_points(record) >= min_commits


def summarise_study(
    records: Sequence[RepoRecord],
    min_commits: int = 5,
    groups: Mapping[str, str] | None = None,
    birth: BirthRule = DEFAULT_BIRTH,
) -> StudySummary:
    """The study's numbers over its ok repositories with at least ``min_commits`` points;
    ``groups`` names each grouped repository's group (by its ``repo``)."""
    ok = [r for r in records if r.status == OK]
    used = [r for r in ok if counted(r, min_commits)]
    return StudySummary(
        repos=len(records),
        ok=len(ok),
        failed=len(records) - len(ok),
        used=len(used),
        min_commits=min_commits,
        metrics=_metrics(used, birth),
        birth=birth,
        birth_flagged=sum(birth.flags(r) for r in used),
        groups=_groups(used, groups or {}, birth),
    )
