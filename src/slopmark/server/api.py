"""The JSON API under ``/api``: tasks, evals, leaderboards, runs, exports and gates.

Reads are public (a run's verifier details only with the token, see
`slopmark.server.redact`); every ``POST`` passes `require_writer`, and
``POST /api/eval/suite``, which spends the server's credentials, passes
`require_token` (see `slopmark.server.state`). Bad input answers 400 with the
reason, an unknown run 404, a body over `slopmark.server.limits.MAX_BODY_BYTES`
413, and a failed gate 422 with the reason. Every status an operation can
answer is declared in /openapi.json.
"""

from __future__ import annotations

import asyncio
import uuid
from dataclasses import asdict
from typing import Annotated, Any

from fastapi import APIRouter, Depends, HTTPException, Query, Request
from fastapi.encoders import jsonable_encoder
from fastapi.responses import JSONResponse, StreamingResponse
from pydantic import BaseModel, Field

from slopmark.board.export import csv_lines, json_chunks
from slopmark.board.gate import GateRequest
from slopmark.board.leaderboard import TASK_SETS, board_json
from slopmark.board.query import run_gate, stream_records
from slopmark.evals.endpoint import OPENAI_COMPAT
from slopmark.evals.harness import MODES
from slopmark.evals.runner import MAX_PASTE_CHARS
from slopmark.evals.session import SuitePlan, SuiteRequest, ask, paste_target, plan_suite
from slopmark.evals.task import DOMAINS, SOURCES
from slopmark.llm.retry import Retrying
from slopmark.server import reads
from slopmark.server.redact import public_details
from slopmark.server.state import (
    ServerState,
    SuiteStatus,
    authenticated,
    get_state,
    require_token,
    require_writer,
)
from slopmark.store import get_run

router = APIRouter(prefix="/api")
State = Annotated[ServerState, Depends(get_state)]
Writer = [Depends(require_writer)]
Spender = [Depends(require_token)]
Domain = Annotated[str | None, Query(description="Only this domain.")]
PoolDomain = Annotated[
    str | None, Query(description="Only this domain.", json_schema_extra={"enum": list(DOMAINS)})
]
Source = Annotated[
    str | None,
    Query(
        description="Only runs of seed, community or original tasks.",
        json_schema_extra={"enum": list(SOURCES)},
    ),
]
Tasks = Annotated[
    str,
    Query(
        description="common: tasks every listed model ran; all: raw.",
        json_schema_extra={"enum": list(TASK_SETS)},
    ),
]


class Problem(BaseModel):
    detail: str = Field(description="What was wrong and what to do.")


_MEANINGS = {
    400: "Bad input: the reason says which value and what to do.",
    401: "The write needs 'Authorization: Bearer TOKEN'.",
    403: "The token is wrong, or the server refuses this caller.",
    404: "Nothing has that id.",
    413: "The request body is too large.",
}


def errors(*codes: int) -> dict[int | str, dict[str, Any]]:
    """The OpenAPI ``responses`` of these error statuses (each a `Problem`)."""
    return {code: {"model": Problem, "description": _MEANINGS[code]} for code in codes}


READ = errors(400)
WRITE = errors(400, 401, 403, 413)
_JSON_STREAM = {"content": {"application/json": {"schema": {"type": "object"}}}}
#: How a streamed CSV export is documented (its 200 response).
CSV_STREAM = {"content": {"text/csv": {"schema": {"type": "string"}}}}


class PasteBody(BaseModel):
    task_id: str = Field(description="Id of an approved task (see GET /api/tasks).")
    output: str = Field(max_length=MAX_PASTE_CHARS, description="The pasted final answer.")
    model: str = Field("pasted", min_length=1, max_length=200, description="Who wrote it.")


class SuiteBody(BaseModel):
    model: str = Field(min_length=1, max_length=200, description="Model name at the server.")
    base_url: str = Field(
        max_length=2000,
        json_schema_extra={"pattern": "^https?://"},
        description="OpenAI-compatible server, e.g. http://127.0.0.1:8080/v1: on loopback or "
        "allowed at start (slopmark serve --allow-base-url).",
    )
    domain: str = Field(json_schema_extra={"enum": list(DOMAINS)})
    mode: str = Field("standard", json_schema_extra={"enum": list(MODES)})
    api_key: str | None = Field(
        None,
        description="Your key for base_url. Without it the server sends its own key only to the "
        "endpoint that key was configured for (slopmark serve --key-base-url), else none.",
    )
    concurrency: int = Field(4, ge=1, le=64)
    limit: int | None = Field(None, ge=1, description="Ask at most this many open tasks.")


@router.get("/tasks", responses=READ)
def task_pool(state: State, domain: PoolDomain = None) -> list[dict[str, Any]]:
    """The approved task pool; verifier configs are never included."""
    return [task.public() for task in state.pool(domain)]


@router.post("/eval/run", status_code=201, dependencies=Writer, responses=WRITE)
def eval_run(body: PasteBody, state: State) -> Any:
    """Score a pasted answer to one task and store it as a paste run (latency and cost 0)."""
    target = paste_target(state.pool(), body.task_id, body.model)
    return jsonable_encoder(target.store(state.engine, body.output))


@router.post("/eval/suite", status_code=202, dependencies=Spender, responses=WRITE)
async def eval_suite(body: SuiteBody, state: State) -> dict[str, Any]:
    """Start asking a model every open task of a domain; poll ``GET /api/eval/suite/{id}``.

    Always needs the token. ``base_url`` must be on loopback or allowed at start
    (``--allow-base-url``).
    """
    url = state.outbound.target(body.base_url)
    request = SuiteRequest(
        OPENAI_COMPAT, body.model, url, body.domain, state.outbound.key_for(url, body.api_key),
        body.concurrency, body.mode, limit=body.limit,
    )  # fmt: skip
    pool = await asyncio.to_thread(state.pool, body.domain)
    plan = plan_suite(request, pool, what="domain")  # checked here, once
    status = SuiteStatus(uuid.uuid4().hex[:12], body.model, body.domain, asdict(plan.series))
    state.suites[status.id] = status
    job = asyncio.create_task(_suite(state, status, plan))
    state.jobs.add(job)
    job.add_done_callback(state.jobs.discard)
    return asdict(status)


async def _suite(state: ServerState, status: SuiteStatus, plan: SuitePlan) -> None:
    def progress(done: int, planned: int) -> None:
        status.done, status.planned = done, planned

    def retrying(note: Retrying) -> None:
        status.last_retry = note.line()

    try:
        outcome = await ask(plan, state.engine, progress, retrying)
    except Exception as error:  # a suite fails alone; the server keeps serving
        status.state, status.error = "failed", f"{type(error).__name__}: {error}"
        return
    status.state, status.stored, status.planned = "done", len(outcome.stored), outcome.planned


@router.get("/eval/suite/{suite_id}", responses=errors(404))
def suite_status(suite_id: str, state: State) -> dict[str, Any]:
    """A started suite: running, done or failed, with its counts and its latest retry."""
    status = state.suites.get(suite_id)
    if status is None:
        raise HTTPException(404, f"no suite {suite_id!r} was started on this server")
    return asdict(status)


@router.get("/leaderboard", responses=READ)
def leaderboard(
    state: State, domain: Domain = None, source: Source = None, tasks: Tasks = "common"
) -> Any:
    """One leaderboard per domain, harness version, task-set version and mode."""
    where = reads.run_filter(state.engine, domain, source)
    boards = state.boards.boards(where, tasks)
    tables = [board_json(board) for board in boards]
    return jsonable_encoder({"filter": where.label(), "boards": tables})


@router.get("/runs", responses=READ)
def run_list(
    state: State,
    model: str | None = None,
    domain: Domain = None,
    limit: Annotated[int, Query(ge=1, le=reads.MAX_LIST)] = 100,
) -> Any:
    """The newest runs first, without their output and details (see ``/api/runs/{id}``)."""
    return jsonable_encoder(reads.recent_runs(state.engine, limit, model=model, domain=domain))


@router.get("/runs/{run_id}", responses=errors(404))
def run_detail(run_id: int, state: State, request: Request) -> Any:
    """One run with its output and the verifier's details: each check's name and result,
    and with ``Authorization: Bearer TOKEN`` also why (expected values included)."""
    found = get_run(state.engine, run_id)
    if found is None:
        raise HTTPException(404, f"no run has id {run_id}")
    shown = jsonable_encoder(found)
    if not authenticated(request):
        shown["details"] = public_details(found.details)
    return shown


@router.get("/export.json", responses=READ | {200: _JSON_STREAM})
def export_json(state: State, domain: Domain = None, source: Source = None) -> StreamingResponse:
    """Every matching run, task level (no output text), streamed as one JSON document."""
    where = reads.run_filter(state.engine, domain, source)
    chunks = json_chunks(stream_records(state.engine, where), {"filter": where.label()})
    return StreamingResponse(chunks, media_type="application/json")


@router.get("/export.csv", responses=READ | {200: CSV_STREAM})
def export_csv(
    state: State, domain: Domain = None, source: Source = None, tasks: Tasks = "common"
) -> StreamingResponse:
    """The leaderboard aggregates, one CSV line per model of each board, streamed."""
    where = reads.run_filter(state.engine, domain, source)
    chunks = csv_lines(state.boards.boards(where, tasks))
    headers = {"Content-Disposition": 'attachment; filename="slopmark-leaderboard.csv"'}
    return StreamingResponse(chunks, media_type="text/csv; charset=utf-8", headers=headers)


@router.get("/gate", responses=READ | {422: {"description": "The gate failed; the body says why."}})
def gate(
    state: State,
    model: str,
    domain: str,
    min_pass_rate: Annotated[float, Query(ge=0.0, le=1.0)],
    use_lower_bound: bool = False,
    baseline: str | None = None,
    source: Source = None,
) -> JSONResponse:
    """200 when ``model`` clears the gate on ``domain``, else 422; ``reason`` says why."""
    where = reads.run_filter(state.engine, domain, source)
    request = GateRequest(model, min_pass_rate, baseline, use_lower_bound)
    result = run_gate(state.engine, where, request)
    body = jsonable_encoder(asdict(result) | {"reason": result.reason})
    return JSONResponse(body, status_code=200 if result.passed else 422)
