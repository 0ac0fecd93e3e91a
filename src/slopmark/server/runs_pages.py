"""The runs browser: ``/runs`` (every run, filtered in the query string, keyset pages) and
``/runs/{id}`` (one run: its prompt as the model saw it, its answer and checks, and the
runs either side within the same filter), with ``/api/browse`` as the list's JSON twin.

A run's prompt is rebuilt by the harness's own `slopmark.evals.harness.messages_for`
from the shipped task, so it is the text the harness sends; a run stored under another
harness version says so. Expected values stay out of the page without the token
(`slopmark.server.redact`).
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from typing import Annotated, Any
from urllib.parse import urlencode

from fastapi import APIRouter, Depends, Request
from fastapi.responses import HTMLResponse, Response

from slopmark.errors import BadInput
from slopmark.evals.harness import HARNESS, messages_for
from slopmark.evals.task import DOMAINS, SOURCES, Task
from slopmark.llm.base import Message
from slopmark.server.pages import error_page, render, task_link, templates
from slopmark.server.redact import public_details
from slopmark.server.runs_reads import RunQuery, RunsPage, neighbours, parse_query, runs_page
from slopmark.server.state import ServerState, authenticated, get_state
from slopmark.store import Run, get_run

pages = APIRouter(include_in_schema=False, default_response_class=HTMLResponse)
api = APIRouter(prefix="/api")
State = Annotated[ServerState, Depends(get_state)]
MAX_ID = 2**63 - 1


def run_id_of(name: str, text: str) -> int | None:
    """``text`` as a run id (empty: None); `BadInput` when it is not a whole number."""
    if not text:
        return None
    if not text.isdigit() or int(text) > MAX_ID:
        raise BadInput(f"{name} {text!r}: must be a run id (a whole number); see /runs")
    return int(text)


def link(path: str, query: RunQuery, **more: Any) -> str:
    """``path`` with the filter (and ``more``, None values left out) in its query string."""
    given = {name: str(value) for name, value in more.items() if value is not None}
    params = query.params() | given
    return f"{path}?{urlencode(params)}" if params else path


def runs_link(**filters: Any) -> str:
    """The browser's URL for runs whose columns equal ``filters`` (None values dropped);
    used by the leaderboard and the comparison page."""
    return link("/runs", RunQuery(), **{k: v for k, v in filters.items() if v is not None})


templates.env.globals["runs_link"] = runs_link


def _page_number(given: dict[str, str]) -> int | None:
    """The page's number as its links carry it; 1 for the newest page; None when unknown
    (a list opened below a run, from its page)."""
    number = run_id_of("page", given.get("page", ""))
    if number is not None:
        return max(number, 1)
    return None if given.get("before") or given.get("after") else 1


def _read_list(state: ServerState, given: dict[str, str]) -> tuple[RunQuery, RunsPage, int | None]:
    query = parse_query(given)
    before = run_id_of("before", given.get("before", ""))
    after = run_id_of("after", given.get("after", ""))
    return query, runs_page(state.engine, query, before, after), _page_number(given)


@pages.get("/runs")
def runs_list_page(request: Request, state: State) -> Response:
    """Every run matching the filter in the query string, newest first, a page at a time."""
    given = dict(request.query_params)
    query, page, number = _read_list(state, given)
    older = newer = None
    if page.older:
        older = link("/runs", query, before=page.last_id, **_numbered(number, +1))
    if page.newer:
        newer = link("/runs", query, after=page.first_id, **_numbered(number, -1))
    return render(
        request, "runs.html", nav="runs", query=query, page=page, number=number,
        older=older, newer=newer, newest=link("/runs", query) if page.newer else None,
        run_href={row["id"]: link(f"/runs/{row['id']}", query) for row in page.rows},
        domains=_domain_choices(query), sources=SOURCES,
    )  # fmt: skip


def _numbered(number: int | None, step: int) -> dict[str, int]:
    return {} if number is None or number + step < 1 else {"page": number + step}


def _domain_choices(query: RunQuery) -> list[str]:
    return list(DOMAINS) + ([query.domain] if query.domain and query.domain not in DOMAINS else [])


@api.get("/browse")
def runs_list_json(request: Request, state: State) -> dict[str, Any]:
    """The runs of ``/runs`` with the same filter and paging (``before`` / ``after`` a run
    id; ``domain``, ``model``, ``task``, ``template``, ``source``, ``harness``,
    ``task_set``, ``mode``, ``passed``, ``errored`` 1/0, ``since`` / ``until`` a day)."""
    _query, page, _number = _read_list(state, dict(request.query_params))
    return {"runs": list(page.rows), "newer": page.newer, "older": page.older}


@dataclass(frozen=True)
class Prompt:
    """The messages a run's task sends under its mode, and a note when they may differ
    from what this run was sent (None: they are exactly those)."""

    messages: tuple[Message, ...]
    note: str | None


def run_prompt(run: Run, pool: list[Task]) -> Prompt | None:
    """The task's messages as the harness builds them (`messages_for`), the earlier turns'
    answers left empty (only the final answer is stored); None when the task is not in
    the shipped pool (a bench checkpoint, a task file of the user's)."""
    task = next((t for t in pool if t.id == run.task_id), None)
    if task is None:
        return None
    earlier = [""] * (len(task.turns) - 1)
    messages = messages_for(task, run.mode, earlier)
    note = None
    if run.harness_version != HARNESS.version:
        note = (
            f"this run was stored under harness {run.harness_version}; the prompt below is "
            f"what today's harness ({HARNESS.version}) sends for the task"
        )
    return Prompt(messages, note)


def _pool(state: ServerState, domain: str) -> list[Task]:
    return state.pool(domain) if domain in DOMAINS else []


def _stored_run(state: ServerState, text: str) -> Run | None:
    """The run ``text`` names; None for a whole number that names no run (negative or
    too big included); `BadInput` when ``text`` is not a whole number."""
    if not re.fullmatch(r"-?\d{1,30}", text):
        raise BadInput(f"run id {text!r}: must be a run id (a whole number); see /runs")
    number = int(text)
    return get_run(state.engine, number) if 1 <= number <= MAX_ID else None


@pages.get("/runs/{run_id}")
def run_page(request: Request, state: State, run_id: str) -> Response:
    """One run; the checks' details (expected values) only for a reader with the token."""
    run = _stored_run(state, run_id)
    if run is None or run.id is None:
        return error_page(request, 404, f"no run has id {run_id}")
    query = parse_query(dict(request.query_params))
    details = run.details if authenticated(request) else public_details(run.details)
    extra = {key: value for key, value in details.items() if key != "checks"}
    around = neighbours(state.engine, query, run.id)
    return render(
        request, "run.html", nav="runs", run=run, checks=details.get("checks", []),
        extra=json.dumps(extra, indent=1, ensure_ascii=False, default=str),
        task_link=task_link(run.domain, run.task_id, run.details),
        prompt=run_prompt(run, _pool(state, run.domain)), filtered=bool(query.params()),
        newer=link(f"/runs/{around.newer}", query) if around.newer else None,
        older=link(f"/runs/{around.older}", query) if around.older else None,
        back=link("/runs", query),
    )  # fmt: skip
