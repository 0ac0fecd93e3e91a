"""A stored study's report: every number `code study report --json` prints (pure).

Shared by the CLI (``code study report --json``) and the web app (``/studies/{id}``
and its twin ``/api/studies/{id}``), so the page and the report cannot differ.
A repository's numbers never include where or how long it ran (``node``,
``seconds``): a report must not depend on where a unit ran.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, field, fields
from functools import cached_property
from typing import Any

from slopmark import __version__
from slopmark.code.study.intervals import MeanInterval
from slopmark.code.study.panel import BINS, PaperStats, Share
from slopmark.code.study.records import CommitPoint, RepoRecord, StudySettings
from slopmark.code.study.scoped import scope_summaries
from slopmark.code.study.summary import GroupSummary, MetricSummary, Spread, StudySummary

#: how each statistic is computed, printed beside them (``definitions``)
DEFINITIONS = {
    "rose": "last defined value > first; share with its 95% Wilson score interval",
    "growth": "median of (last - first)/first; repositories whose first value is 0 are "
    "counted in zero_first and left out",
    "slope": "OLS slope of the value on sample position i = 0..n-1 (per sampled commit)",
    "slope_progress": "OLS slope of the value on normalised position i/(n-1) (0..1): "
    "the fitted change over the sampled history",
    "head": "each repository's last defined value (HEAD's): quantiles, mean and sample sd",
    "trajectory": "median and IQR across repositories, each interpolated at positions "
    "0, 0.1 .. 1 of i/(n-1)",
    "mean_trajectory": f"{BINS} equal bins of normalised position i/(n-1); a repository "
    "adds its mean in a bin; mean across repositories with its 95% t interval",
    "birth_effect": "first defined point under birth.sloc SLOC or birth.files files",
}


@dataclass(frozen=True)
class LoadedStudy:
    """A study as stored: its REPOS file, settings, repositories and their summary."""

    study: str
    repos_file: str
    settings: StudySettings
    records: list[RepoRecord]
    summary: StudySummary
    #: each grouped repository's group (its REPOS line's ``group=NAME``)
    groups: dict[str, str] = field(default_factory=dict)
    #: how many repositories the REPOS file named when the study last ran (None: unknown)
    repos_total: int | None = None

    @property
    def pending(self) -> int | None:
        """Repositories named but not stored yet (still running, or never started)."""
        if self.repos_total is None:
            return None
        return max(self.repos_total - len(self.records), 0)

    @cached_property
    def by_scope(self) -> dict[str, StudySummary]:
        """The summary per scope, side by side (`scoped`; empty with one scope)."""
        return scope_summaries(list(self.records), self.summary)

    @property
    def second_root(self) -> int:
        """Repositories whose history holds more than one root commit."""
        return sum(1 for r in self.records if r.roots is not None and len(r.roots) > 1)


_REPO_FIELDS = tuple(f.name for f in fields(RepoRecord) if f.name not in ("node", "seconds"))
_POINT_FIELDS = tuple(f.name for f in fields(CommitPoint))


def repo_json(record: RepoRecord) -> dict[str, Any]:
    """A repository's numbers and sampled commits (never where or how long it ran).

    Read field by field (not `dataclasses.asdict`, which deep-copies every value):
    a big study has tens of thousands of commits."""
    found = {name: getattr(record, name) for name in _REPO_FIELDS}
    found["commits"] = [
        {name: getattr(point, name) for name in _POINT_FIELDS} for point in record.commits
    ]
    return found


def spread_json(spread: Spread) -> dict[str, Any]:
    """``{"n": .., "q10": .., "q25": ..}``: a spread's quantiles keyed by percent."""
    return {"n": spread.n, **{f"q{round(level * 100):02d}": v for level, v in spread.quantiles}}


def share_json(share: Share) -> dict[str, Any]:
    return {"repos": share.k, "n": share.n, "share": share.share, "low": share.low,
            "high": share.high}  # fmt: skip


def mean_json(mean: MeanInterval) -> dict[str, Any]:
    return {"n": mean.n, "mean": mean.mean, "sd": mean.sd, "low": mean.low, "high": mean.high}


def _paper_json(paper: PaperStats) -> dict[str, Any]:
    return {
        "rose_without_birth": share_json(paper.rose_without_birth),
        "growth": asdict(paper.growth),
        "head_mean": mean_json(paper.head),
        "mean_trajectory": [{"low": b.low, "high": b.high, **mean_json(b.mean)}
                            for b in paper.trajectory],
    }  # fmt: skip


def metric_json(metric: MetricSummary) -> dict[str, Any]:
    rose = {"repos": metric.rose, "n": metric.rose_n, "share": metric.rose_share}
    interval = metric.paper.rose
    return {
        "rose": {**rose, "low": interval.low, "high": interval.high},
        "slope": spread_json(metric.slope),
        "slope_progress": spread_json(metric.slope_progress),
        "head": spread_json(metric.head),
        "trajectory": [asdict(point) for point in metric.band],
        **_paper_json(metric.paper),
    }


def group_json(group: GroupSummary) -> dict[str, Any]:
    """One group's repositories that count and every statistic over them."""
    return {"group": group.group, "used": group.used, "birth_flagged": group.birth_flagged,
            "metrics": {m.metric: metric_json(m) for m in group.metrics}}  # fmt: skip


def _repo_row(study: LoadedStudy, record: RepoRecord) -> dict[str, Any]:
    birth = study.summary.birth.flags(record)
    return {**repo_json(record), "group": study.groups.get(record.repo), "birth_effect": birth,
            "excluded_at_head": _head_excluded(record)}  # fmt: skip


def _head_excluded(record: RepoRecord) -> dict[str, Any] | None:
    """What ``--language``/``--scope`` left out at the repository's last point (HEAD)."""
    return record.commits[-1].excluded if record.commits else None


def excluded_at_head(study: LoadedStudy) -> dict[str, dict[str, int]]:
    """The files ``--language``/``--scope`` left out at each repository's HEAD, summed over
    the repositories (by language, by scope)."""
    total: dict[str, dict[str, int]] = {"by_language": {}, "by_scope": {}}
    for record in study.records:
        found = _head_excluded(record) or {}
        for kind, counts in total.items():
            for name, n in (found.get(kind) or {}).items():
                counts[name] = counts.get(name, 0) + int(n)
    return total


def report_json(study: LoadedStudy) -> dict[str, Any]:
    """The whole report: settings, repository counts, per-metric summary, repositories."""
    summary = study.summary
    return {
        "slopmark": __version__,
        "study": study.study,
        "repos_file": study.repos_file,
        "settings": asdict(study.settings),
        "rule_set": study.settings.rule_set,
        "measured": {**measured(study.settings), "excluded_at_head": excluded_at_head(study)},
        "repos": {"total": summary.repos + (study.pending or 0), "ok": summary.ok,
                  "failed": summary.failed, "pending": study.pending, "used": summary.used,
                  "min_commits": summary.min_commits, "birth_flagged": summary.birth_flagged,
                  "second_root": study.second_root},
        "birth": asdict(summary.birth),
        "definitions": DEFINITIONS,
        "metrics": {m.metric: metric_json(m) for m in summary.metrics},
        "groups": [group_json(group) for group in summary.groups],
        "scopes": {scope: scope_json(found) for scope, found in study.by_scope.items()},
        "repositories": [_repo_row(study, record) for record in study.records],
    }  # fmt: skip


def scope_json(summary: StudySummary) -> dict[str, Any]:
    """One scope's repositories that count and every statistic over them (`scoped`)."""
    return {"used": summary.used, "birth_flagged": summary.birth_flagged,
            "metrics": {m.metric: metric_json(m) for m in summary.metrics}}  # fmt: skip


def measured(settings: StudySettings) -> dict[str, list[str]]:
    """The languages and scopes every repository was measured in (none chosen: all)."""
    options = settings.options()
    return {"languages": list(options.languages), "scopes": list(options.scopes)}


def first_last(record: RepoRecord, metric: str) -> tuple[float | None, float | None]:
    """A repository's first and last defined value of ``metric`` (None, None: none)."""
    defined = [v for point in record.commits if (v := getattr(point, metric)) is not None]
    return (defined[0], defined[-1]) if defined else (None, None)
