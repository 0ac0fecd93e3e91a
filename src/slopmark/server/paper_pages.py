"""Pages of stored papers (``paper measure --store``): ``/papers`` and ``/papers/{id}``,
with their JSON twins under ``/api/papers``.

A paper's page shows the six measures with their counts, the aggregate S(p),
where each stands among the stored papers labelled human, and every finding in
context, filtered by measure and section in the query string (a plain GET form:
no script needed). Paper text comes from outside and is only ever escaped.
"""

from __future__ import annotations

from dataclasses import asdict
from typing import Annotated, Any

from fastapi import APIRouter, Depends, HTTPException, Query, Request
from fastapi.responses import HTMLResponse, Response

from slopmark.errors import BadInput
from slopmark.paper.findings import title
from slopmark.paper.measures.base import ORDER
from slopmark.server import paper_reads
from slopmark.server.api import errors
from slopmark.server.pages import error_page, render
from slopmark.server.paper_reads import PaperView
from slopmark.server.state import ServerState, get_state
from slopmark.store.papers import LABELS

pages = APIRouter(include_in_schema=False, default_response_class=HTMLResponse)
api = APIRouter(prefix="/api")
State = Annotated[ServerState, Depends(get_state)]
Before = Annotated[str | None, Query(description="Only papers with an id below this one.")]
Label = Annotated[str | None, Query(description="Only papers labelled human or ai.")]
Measure = Annotated[str | None, Query(description="Only this measure's findings.")]
Section = Annotated[str | None, Query(description="Only the findings in this section.")]


def _chosen(value: str | None) -> str | None:
    """A filter's value; the form's empty choice ("all") is no filter."""
    return value or None


def _before(text: str | None) -> int | None:
    """The ``before`` of a list page; `BadInput` when it is not a paper id."""
    if not text:
        return None
    pid = paper_reads.paper_id(text)
    if pid is None:
        raise BadInput(f"before {text!r}: must be a paper id (a whole number); see /papers")
    return pid


def _label(text: str | None) -> str | None:
    """The list's label filter (empty: every paper); `BadInput` unless human or ai."""
    if not text:
        return None
    if text not in LABELS:
        raise BadInput(f"label {text!r}: must be one of {', '.join(LABELS)}; see /papers")
    return text


def _lookup(state: ServerState, text: str) -> PaperView | None:
    pid = paper_reads.paper_id(text)
    return None if pid is None else paper_reads.paper_view(state.engine, pid)


def _older(rows: list[paper_reads.PaperRow]) -> int | None:
    """The ``before`` of the next page, when this page is full."""
    return rows[-1].id if len(rows) == paper_reads.PAGE else None


@pages.get("/papers")
def papers_page(
    request: Request, state: State, before: Before = None, label: Label = None
) -> Response:
    chosen = _label(label)
    rows = paper_reads.list_papers(state.engine, _before(before), chosen)
    return render(request, "papers.html", nav="papers", rows=rows, older=_older(rows),
                  newest=bool(before), label=chosen, labels=LABELS, order=ORDER,
                  title=title)  # fmt: skip


@pages.get("/papers/{paper_id}")
def paper_page(
    request: Request, state: State, paper_id: str, measure: Measure = None, section: Section = None
) -> Response:
    view = _lookup(state, paper_id)
    if view is None:
        return error_page(request, 404, f"no paper has id {paper_id!r}; see /papers")
    measure, section = _chosen(measure), _chosen(section)
    paper_reads.check_filter(view, measure, section)
    found = paper_reads.findings(state.engine, view.row.id, measure, section)
    return render(request, "paper.html", nav="papers", view=view, findings=found,
                  measure=measure, section=section, title=title)  # fmt: skip


@api.get("/papers", responses=errors(400))
def papers_json(state: State, before: Before = None, label: Label = None) -> dict[str, Any]:
    """Stored papers, newest first, a page at a time (``older``: the next page's before)."""
    rows = paper_reads.list_papers(state.engine, _before(before), _label(label))
    return {"papers": [asdict(row) for row in rows], "older": _older(rows)}


@api.get("/papers/{paper_id}", responses=errors(400, 404))
def paper_json(
    state: State, paper_id: str, measure: Measure = None, section: Section = None
) -> dict[str, Any]:
    """One stored paper: measures with counts and standings, aggregate, filtered findings."""
    view = _lookup(state, paper_id)
    if view is None:
        raise HTTPException(404, f"no paper has id {paper_id!r}")
    measure, section = _chosen(measure), _chosen(section)
    paper_reads.check_filter(view, measure, section)
    found = paper_reads.findings(state.engine, view.row.id, measure, section)
    return {**asdict(view), "findings": [asdict(item) for item in found]}
