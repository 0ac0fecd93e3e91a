"""A stored study's report: every number `code study report --json` prints (pure).

Shared by the CLI (``code study report --json``) and the web app (``/studies/{id}``
and its twin ``/api/studies/{id}``), so the page and the report cannot differ.
A repository's numbers never include where or how long it ran (``node``,
``seconds``): a report must not depend on where a unit ran.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, fields
from typing import Any

from slopmark import __version__
from slopmark.code.study.records import CommitPoint, RepoRecord, StudySettings
from slopmark.code.study.summary import MetricSummary, Spread, StudySummary


@dataclass(frozen=True)
class LoadedStudy:
    """A study as stored: its REPOS file, settings, repositories and their summary."""

    study: str
    repos_file: str
    settings: StudySettings
    records: list[RepoRecord]
    summary: StudySummary
    #: how many repositories the REPOS file named when the study last ran (None: unknown)
    repos_total: int | None = None

    @property
    def pending(self) -> int | None:
        """Repositories named but not stored yet (still running, or never started)."""
        if self.repos_total is None:
            return None
        return max(self.repos_total - len(self.records), 0)

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


def metric_json(metric: MetricSummary) -> dict[str, Any]:
    return {
        "rose": {"repos": metric.rose, "n": metric.rose_n, "share": metric.rose_share},
        "slope": spread_json(metric.slope),
        "head": spread_json(metric.head),
        "trajectory": [asdict(point) for point in metric.band],
    }


def report_json(study: LoadedStudy) -> dict[str, Any]:
    """The whole report: settings, repository counts, per-metric summary, repositories."""
    summary = study.summary
    return {
        "slopmark": __version__,
        "study": study.study,
        "repos_file": study.repos_file,
        "settings": asdict(study.settings),
        "repos": {"total": summary.repos + (study.pending or 0), "ok": summary.ok,
                  "failed": summary.failed, "pending": study.pending, "used": summary.used,
                  "min_commits": summary.min_commits, "second_root": study.second_root},
        "metrics": {m.metric: metric_json(m) for m in summary.metrics},
        "repositories": [repo_json(record) for record in study.records],
    }  # fmt: skip


def first_last(record: RepoRecord, metric: str) -> tuple[float | None, float | None]:
    """A repository's first and last defined value of ``metric`` (None, None: none)."""
    defined = [v for point in record.commits if (v := getattr(point, metric)) is not None]
    return (defined[0], defined[-1]) if defined else (None, None)
