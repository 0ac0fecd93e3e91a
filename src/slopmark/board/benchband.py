"""The human-repository band behind the bench's erosion and verbosity charts (pure).

A stored repository study (`slopmark.code.study`) samples each repository's
commits in order. To sit behind an agent's checkpoints, a repository's n
sampled commits take the phases its checkpoints would (commit i of n gets
`slopmark.code.bench.scoring.phase` (i, n)); a repository's value in a phase is
its mean there, and the band is the median and inter-quartile range of those
across repositories (type-7 quantiles, `slopmark.code.study.summary.quantile`),
with the number of repositories behind each phase.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from statistics import fmean

from slopmark.code.bench.scoring import PHASES, phase
from slopmark.code.study.summary import quantile

__all__ = ["BandPhase", "human_band"]

#: one sampled commit: (repository, position, erosion, verbosity)
Point = tuple[str, int, float | None, float | None]


@dataclass(frozen=True)
class BandPhase:
    phase: str
    repos: int
    q1: float
    median: float
    q3: float


def _by_repo(points: Iterable[Point], erosion: bool) -> dict[str, list[tuple[int, float | None]]]:
    repos: dict[str, list[tuple[int, float | None]]] = {}
    for repo, position, eroded, verbose in points:
        repos.setdefault(repo, []).append((position, eroded if erosion else verbose))
    return repos


def _repo_phases(commits: list[tuple[int, float | None]]) -> dict[str, float]:
    """One repository's mean value per phase of its commits in order (undefined ones aside)."""
    ordered = sorted(commits)
    grouped: dict[str, list[float]] = {}
    for index, (_, value) in enumerate(ordered):
        if value is not None:
            grouped.setdefault(phase(index, len(ordered)), []).append(value)
    return {name: fmean(values) for name, values in grouped.items()}


def human_band(points: Iterable[Point], measure: str) -> tuple[BandPhase, ...]:
    """Per phase with data, the median and IQR across repositories of ``measure``."""
    per_phase: dict[str, list[float]] = {}
    for commits in _by_repo(points, measure == "erosion").values():
        for name, value in _repo_phases(commits).items():
            per_phase.setdefault(name, []).append(value)
    band = []
    for name in PHASES:
        values = sorted(per_phase.get(name, []))
        if values:
            q1, mid, q3 = (quantile(values, level) or 0.0 for level in (0.25, 0.5, 0.75))
            band.append(BandPhase(name, len(values), q1, mid, q3))
    return tuple(band)
