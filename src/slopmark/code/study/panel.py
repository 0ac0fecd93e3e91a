"""The paper's statistics of a study, per metric (pure: value series in, frozen values out).

What Orlanski et al. report for their repository panel ("SlopCodeBench", seed 000,
§3.3, Appendix D and Figure 4), over the repositories that count (`summary`),
each read from a repository's values in sampled order (oldest first; the last
is HEAD's), a commit with no measured source being undefined and skipped:

- **rose**: the share of repositories whose last defined value is above the
  first, with its 95% Wilson score interval (`intervals.wilson`); again
  without the repositories flagged for the birth effect.
- **growth**: the median relative first→last growth (last − first)/first. A
  repository whose first value is 0 has no relative growth: it is counted in
  ``zero_first`` and left out of the median (never counted as 0 or infinite).
- **head**: the mean ± sample standard deviation (n − 1) of each repository's
  last defined value, HEAD's when HEAD has measured source.
- **trajectory**: normalised position i/(n − 1) of commit i of the n sampled
  (0 = the first sampled commit, 1 = the last), in `BINS` equal bins
  [0, 0.1), [0.1, 0.2) … [0.9, 1]; a repository adds the mean of its defined
  values in a bin (so each repository weighs once per bin, however many
  commits fall in it), and per bin the mean across repositories with its 95%
  t interval (`intervals.MeanInterval`).
- **birth effect**: a repository is flagged when its first defined point (the
  baseline of first→last) holds fewer than `BirthRule.sloc` SLOC or fewer than
  `BirthRule.files` measured files: a near-empty first tree makes any later
  tree look eroded. 500 SLOC and 3 files by default: an initial commit of a
  package skeleton (``setup.py``, ``__init__.py``, a module of a few hundred
  lines) is under them; a working library is above.
"""

from __future__ import annotations

import statistics
from collections.abc import Sequence
from dataclasses import dataclass

from slopmark.code.measure.metrics import rose
from slopmark.code.study.intervals import MeanInterval, wilson
from slopmark.code.study.records import RepoRecord

#: how many equal bins of normalised position the mean trajectory has
BINS = 10

Series = Sequence[float | None]


@dataclass(frozen=True)
class BirthRule:
    """A first point under ``sloc`` SLOC or ``files`` files is a birth, not a baseline."""

    sloc: int = 500
    files: int = 3

    def flags(self, record: RepoRecord) -> bool:
        """Whether ``record``'s first point with a defined metric is under the rule."""
        first = next(
            (p for p in record.commits if p.erosion is not None or p.verbosity is not None), None
        )
        return first is not None and (first.sloc < self.sloc or first.files < self.files)


#: the rule the report uses unless told otherwise (``--birth-sloc``, ``--birth-files``)
DEFAULT_BIRTH = BirthRule()


@dataclass(frozen=True)
class Share:
    """``k`` of ``n`` with the 95% Wilson interval (share and interval None when n is 0)."""

    k: int
    n: int
    low: float | None
    high: float | None

    @classmethod
    def of(cls, outcomes: Sequence[bool]) -> Share:
        k, n = sum(outcomes), len(outcomes)
        interval = wilson(k, n)
        return cls(k, n, *(interval if interval is not None else (None, None)))

    @property
    def share(self) -> float | None:
        return self.k / self.n if self.n else None


@dataclass(frozen=True)
class Growth:
    """The median relative growth over ``n`` repositories; ``zero_first`` had none."""

    n: int
    zero_first: int
    median: float | None


@dataclass(frozen=True)
class TrajectoryBin:
    """Repositories' mean value in normalised positions [low, high) (the last bin: [low, 1])."""

    low: float
    high: float
    mean: MeanInterval


@dataclass(frozen=True)
class PaperStats:
    rose: Share
    rose_without_birth: Share
    growth: Growth
    head: MeanInterval
    trajectory: tuple[TrajectoryBin, ...]


def _defined(values: Series) -> list[float]:
    return [v for v in values if v is not None]


def growth(series: Sequence[Series]) -> Growth:
    """The median of (last − first)/first over repositories with two defined values."""
    pairs = [(d[0], d[-1]) for values in series if len(d := _defined(values)) >= 2]
    ratios = [(last - first) / first for first, last in pairs if first != 0]
    median = statistics.median(ratios) if ratios else None
    return Growth(len(ratios), len(pairs) - len(ratios), median)


def _bins_of(values: Series) -> dict[int, float]:
    """A repository's mean defined value per bin of normalised position."""
    last = max(len(values) - 1, 1)
    found: dict[int, list[float]] = {}
    for index, value in enumerate(values):
        if value is not None:
            found.setdefault(min(index * BINS // last, BINS - 1), []).append(value)
    return {spot: statistics.fmean(members) for spot, members in found.items()}


def trajectory(series: Sequence[Series]) -> tuple[TrajectoryBin, ...]:
    """The mean trajectory with its 95% t interval per bin of normalised position."""
    placed = [_bins_of(values) for values in series]
    return tuple(
        TrajectoryBin(spot / BINS, (spot + 1) / BINS,
                      MeanInterval.of([b[spot] for b in placed if spot in b]))
        for spot in range(BINS)
    )  # fmt: skip


def paper_stats(series: Sequence[Series], flagged: Sequence[bool]) -> PaperStats:
    """The statistics of the module doc over repositories' ``series`` (``flagged``: birth)."""
    rises = [(r, flag) for values, flag in zip(series, flagged, strict=True)
             if (r := rose(values)) is not None]  # fmt: skip
    heads = [d[-1] for values in series if (d := _defined(values))]
    return PaperStats(
        rose=Share.of([r for r, _ in rises]),
        rose_without_birth=Share.of([r for r, flag in rises if not flag]),
        growth=growth(series),
        head=MeanInterval.of(heads),
        trajectory=trajectory(series),
    )
