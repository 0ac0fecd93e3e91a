"""The repository-study pages and their JSON twins.

- ``/studies``: the stored studies, newest first, with their progress;
- ``/studies/{id}``: a study's repositories (slopes, first→last change, whether
  they rose), the share that rose, slope quantiles, the paper's statistics
  (share that rose with its interval, with and without the birth effect,
  median growth, HEAD mean ± sd) over all and per group, and the trajectory band as
  an inline SVG chart with a table beside it, failed repositories with their
  reasons, and done/total while it runs;
- ``/studies/{id}/{line}``: the repository on that line of the REPOS file, its
  own trajectory over the study's band and every sampled commit.

``/api/studies``, ``/api/studies/{id}`` (exactly `code study report --json`, plus
``progress``) and ``/api/studies/{id}/{line}`` hold the same numbers.
``?min_commits=N`` (default 5, as the report's ``--min-commits``) picks which
repositories count.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, replace
from typing import Annotated, Any
from urllib.parse import quote

from fastapi import APIRouter, Depends, HTTPException, Query, Request
from fastapi.responses import HTMLResponse, JSONResponse, Response

from slopmark.code.study.records import RepoRecord
from slopmark.code.study.report import LoadedStudy, first_last, repo_json, report_json
from slopmark.code.study.summary import METRICS, counted
from slopmark.server.api import errors
from slopmark.server.pages import error_page, render, templates
from slopmark.server.state import ServerState, get_state
from slopmark.server.study_chart import BandPanel, TraceSource, band_panel
from slopmark.server.study_reads import (
    StudyCache,
    StudyRow,
    check_study_id,
    study_page,
    study_row,
    whole_number,
)

router = APIRouter(include_in_schema=False, default_response_class=HTMLResponse)
api = APIRouter(prefix="/api", tags=["studies"])
State = Annotated[ServerState, Depends(get_state)]
MinCommits = Annotated[
    str | None, Query(description="Repositories count with at least N measured commits (5).")
]
#: the report's default ``--min-commits``
MIN_COMMITS = 5
#: the studies last shown (a big study is read and summarised once while it is unchanged)
CACHE = StudyCache()


def signed(value: float | None, digits: int = 5) -> str:
    return "–" if value is None else f"{value:+.{digits}f}"


def exact(value: float | None) -> str:
    """A number as Python writes it (it reads back equal), for ``data-value``."""
    return "" if value is None else repr(value)


templates.env.filters.update(signed=signed, exact=exact)


@dataclass(frozen=True)
class MetricCells:
    """One metric of one repository: first and last defined value, change, slope, rose."""

    first: float | None
    last: float | None
    slope: float | None
    rose: bool | None

    @property
    def change(self) -> float | None:
        return None if self.first is None or self.last is None else self.last - self.first


@dataclass(frozen=True)
class RepoView:
    record: RepoRecord
    href: str
    counted: bool
    metrics: dict[str, MetricCells]


def _repo_href(study: LoadedStudy, record: RepoRecord) -> str:
    """The repository's page, counting repositories as the page that links to it does."""
    least = study.summary.min_commits
    query = "" if least == MIN_COMMITS else f"?min_commits={least}"
    return f"/studies/{quote(study.study, safe='')}/{record.line}{query}"


def _cells(record: RepoRecord, metric: str) -> MetricCells:
    first, last = first_last(record, metric)
    slope, rose = getattr(record, f"{metric}_slope"), getattr(record, f"{metric}_rose")
    return MetricCells(first, last, slope, rose)


def _repo_view(study: LoadedStudy, record: RepoRecord) -> RepoView:
    metrics = {metric: _cells(record, metric) for metric in METRICS}
    is_counted = counted(record, study.summary.min_commits)
    return RepoView(record, _repo_href(study, record), is_counted, metrics)


def _panels(study: LoadedStudy, shown: list[RepoRecord], dots: bool) -> list[BandPanel]:
    """A band panel per metric with a trace per repository of ``shown``."""
    panels = []
    for metric in study.summary.metrics:
        sources = [
            TraceSource(
                f"{r.repo} (line {r.line}): slope {signed(getattr(r, f'{metric.metric}_slope'))}",
                _repo_href(study, r),
                tuple(getattr(p, metric.metric) for p in r.commits),
                tuple(f"commit {p.position} {p.sha[:10]}: {getattr(p, metric.metric)}"
                      for p in r.commits),
            )  # fmt: skip
            for r in shown
        ]
        panels.append(band_panel(metric, sources, with_dots=dots))
    return panels


def _paper_rows(study: LoadedStudy) -> list[tuple[str, int, int, Any]]:
    """(label, repositories, birth-flagged, metrics): all repositories, then each group."""
    summary = study.summary
    rows = [("all", summary.used, summary.birth_flagged, summary.metrics)]
    for group in summary.groups:
        label = group.group if group.group is not None else "(no group)"
        rows.append((label, group.used, group.birth_flagged, group.metrics))
    return rows


def _load(
    state: ServerState, study_id: str, min_commits: str | None
) -> tuple[StudyRow, LoadedStudy] | None:
    """(progress row, study) of ``study_id``, or None when the store does not hold it."""
    check_study_id(study_id)
    least = whole_number(min_commits, "min_commits", MIN_COMMITS)
    row = study_row(state.engine, study_id)
    study = CACHE.study(state.engine, row, least) if row is not None else None
    if row is None or study is None:
        return None
    # the progress of the records shown (a running study may store one meanwhile)
    return replace(row, stored=study.summary.repos, failed=study.summary.failed), study


def _missing(study_id: str) -> str:
    return f"no study has id {study_id!r}; /studies lists the stored ones"


def _line(study: LoadedStudy, line: str) -> list[RepoRecord]:
    number = whole_number(line, "repository line", 1)
    return [record for record in study.records if record.line == number]


@router.get("/studies")
def studies_page(request: Request, state: State, page: str | None = None) -> Response:
    listed = study_page(state.engine, whole_number(page, "page", 1))
    return render(request, "studies.html", nav="studies", listed=listed)


@router.get("/studies/{study_id}")
def study_page_view(
    request: Request, state: State, study_id: str, min_commits: MinCommits = None
) -> Response:
    found = _load(state, study_id, min_commits)
    if found is None:
        return error_page(request, 404, _missing(study_id))
    row, study = found
    views = [_repo_view(study, record) for record in study.records]
    shown = [view.record for view in views if view.counted]
    return render(
        request, "study.html", nav="studies", row=row, study=study, views=views,
        panels=_panels(study, shown, dots=False), metrics=study.summary.metrics,
        paper_rows=_paper_rows(study),
    )  # fmt: skip


@router.get("/studies/{study_id}/{line}")
def study_repo_page(
    request: Request, state: State, study_id: str, line: str, min_commits: MinCommits = None
) -> Response:
    found = _load(state, study_id, min_commits)
    if found is None:
        return error_page(request, 404, _missing(study_id))
    row, study = found
    records = _line(study, line)
    if not records:
        message = f"study {study_id!r} has no repository on line {line} of its REPOS file"
        return error_page(request, 404, message)
    return render(
        request, "study_repo.html", nav="studies", row=row, study=study,
        views=[_repo_view(study, record) for record in records],
        panels=_panels(study, records, dots=True),
    )  # fmt: skip


def _row_json(row: StudyRow) -> dict[str, Any]:
    found = asdict(row)
    del found["last_id"], found["groups"]
    found["created_at"] = row.created_at.isoformat()
    return {**found, "ok": row.ok, "status": row.status}


@api.get("/studies", responses=errors(400))
def studies_json(state: State, page: str | None = None) -> dict[str, Any]:
    """The stored studies, newest first, a page at a time, with their progress."""
    listed = study_page(state.engine, whole_number(page, "page", 1))
    return {"page": listed.page, "pages": listed.pages, "count": listed.count,
            "studies": [_row_json(row) for row in listed.rows]}  # fmt: skip


@api.get("/studies/{study_id}", response_class=JSONResponse, responses=errors(400, 404))
def study_json(state: State, study_id: str, min_commits: MinCommits = None) -> Response:
    """Exactly what ``code study report --json`` prints, and the study's progress.

    Plain JSON values throughout, so they are written as they are (a big study's
    report is megabytes: FastAPI's encoder would walk every value first)."""
    found = _load(state, study_id, min_commits)
    if found is None:
        raise HTTPException(404, _missing(study_id))
    row, study = found
    return JSONResponse({**report_json(study), "progress": _row_json(row)})


@api.get("/studies/{study_id}/{line}", responses=errors(400, 404))
def study_repo_json(
    state: State, study_id: str, line: str, min_commits: MinCommits = None
) -> dict[str, Any]:
    """The repositories on ``line`` of the study's REPOS file, as the report shows them."""
    found = _load(state, study_id, min_commits)
    if found is None:
        raise HTTPException(404, _missing(study_id))
    records = _line(found[1], line)
    if not records:
        raise HTTPException(404, f"study {study_id!r} has no repository on line {line}")
    return {"study": study_id, "line": records[0].line,
            "repositories": [repo_json(record) for record in records]}  # fmt: skip
