"""The code report pages (``/code``) and their JSON twins (``/api/code``).

``/code`` lists the stored reports (``code measure --store``, ``code history
--store``), newest first; ``/code/{report}`` shows one: a measured tree's totals
per language, heaviest callables, rule hits grouped by rule with each rule's
explanation, and clone groups; a history's erosion/verbosity trajectory (inline
SVG and a table). ``/code/{report}/rules/{rule}``, ``/clones/{rank}`` and
``/commits/{sha}`` drill down. Every number is read from the store as the command
wrote it: the totals equal ``code measure --json`` of the same tree.
"""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Depends, HTTPException, Request
from fastapi.responses import HTMLResponse, Response

from slopmark.server import code_reads
from slopmark.server.api import errors
from slopmark.server.code_chart import trajectory
from slopmark.server.code_reads import Missing
from slopmark.server.pages import error_page, render
from slopmark.server.state import ServerState, get_state

router = APIRouter(include_in_schema=False, default_response_class=HTMLResponse)
api = APIRouter(prefix="/api", tags=["code reports"])
State = Annotated[ServerState, Depends(get_state)]

#: The totals a measured tree's page lists, in order (label, ``--json`` key).
MEASURE_TOTALS = (
    ("files measured", "files_measured"), ("files skipped", "files_skipped"),
    ("SLOC", "sloc"), ("callables", "callables"), ("complex callables", "complex_callables"),
    ("max CC", "max_cc"), ("erosion", "erosion"), ("verbosity", "verbosity"),
    ("rule lines", "rule_lines"), ("clone lines", "clone_lines"),
    ("flagged lines", "flagged_lines"), ("rule hits", "rule_hits"),
    ("clone groups", "clone_groups"), ("rules run", "rules_run"),
    ("total mass", "total_mass"), ("complex mass", "complex_mass"),
)  # fmt: skip
#: A history's commits listed in the table of its page at a time (``?start=N`` pages on).
COMMITS_PAGE = 200
HISTORY_TOTALS = (
    ("source-modifying commits", "source_commits"), ("commits measured", "commits_measured"),
    ("file versions measured", "blobs_measured"), ("erosion slope", "erosion_slope"),
    ("verbosity slope", "verbosity_slope"), ("erosion rose", "erosion_rose"),
    ("verbosity rose", "verbosity_rose"),
)  # fmt: skip


def _missing(request: Request, error: Missing) -> Response:
    return error_page(request, 404, str(error))


@router.get("/code")
def code_list(request: Request, state: State, before: str | None = None) -> Response:
    rows, more = code_reads.listing(state.engine, before)
    return render(request, "code_list.html", nav="code", reports=rows, more=more)


@router.get("/code/{report_id}")
def code_report(
    request: Request, state: State, report_id: str, start: str | None = None
) -> Response:
    try:
        header = code_reads.report(state.engine, report_id)
    except Missing as error:
        return _missing(request, error)
    if header["kind"] != "history":
        found = code_reads.parts(state.engine, header)
        return render(
            request, "code_report.html", nav="code", report=header, totals=MEASURE_TOTALS,
            **found,
        )  # fmt: skip
    first = code_reads.number(start, "start") if start else 0
    view = code_reads.history(state.engine, header, first, COMMITS_PAGE)
    return render(
        request, "code_report.html", nav="code", report=header, totals=HISTORY_TOTALS,
        chart=trajectory(view["series"]), page_commits=view["page_commits"], start=first,
        page=COMMITS_PAGE,
    )  # fmt: skip


@router.get("/code/{report_id}/rules/{rule:path}")
def code_rule(request: Request, state: State, report_id: str, rule: str) -> Response:
    try:
        header = code_reads.report(state.engine, report_id)
        found, hits = code_reads.rule(state.engine, header, rule)
    except Missing as error:
        return _missing(request, error)
    return render(request, "code_rule.html", nav="code", report=header, rule=found, hits=hits)


@router.get("/code/{report_id}/clones/{rank}")
def code_clone(request: Request, state: State, report_id: str, rank: str) -> Response:
    try:
        header = code_reads.report(state.engine, report_id)
        group, members = code_reads.clone(state.engine, header, rank)
    except Missing as error:
        return _missing(request, error)
    return render(
        request, "code_clone.html", nav="code", report=header, group=group, members=members
    )


@router.get("/code/{report_id}/commits/{sha}")
def code_commit(request: Request, state: State, report_id: str, sha: str) -> Response:
    try:
        header = code_reads.report(state.engine, report_id)
        point, before, after = code_reads.commit(state.engine, header, sha)
    except Missing as error:
        return _missing(request, error)
    return render(
        request, "code_commit.html", nav="code", report=header, commit=point, before=before,
        after=after,
    )  # fmt: skip


def _header_json(header: dict[str, Any]) -> dict[str, Any]:
    return header | {
        "created_at": header["created_at"].isoformat(),
        "page": f"/code/{header['id']}",
    }


@api.get(
    "/code", summary="The stored code reports, newest first (50 a page).", responses=errors(400)
)
def code_list_json(state: State, before: str | None = None) -> dict[str, Any]:
    rows, more = code_reads.listing(state.engine, before)
    return {"reports": [_header_json(row) for row in rows], "next_before": more}


@api.get(
    "/code/{report_id}",
    summary="One stored code report: the totals and the stored findings of its page.",
    responses=errors(400, 404),
)
def code_report_json(state: State, report_id: str) -> dict[str, Any]:
    try:
        header = code_reads.report(state.engine, report_id)
    except Missing as error:
        raise HTTPException(404, str(error)) from None
    return _header_json(header) | code_reads.parts(state.engine, header)
