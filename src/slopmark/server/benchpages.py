"""The coding benchmark's pages: ``/bench`` (a table and charts per problem set) and
``/bench/{run}/{problem}`` (one chain, checkpoint by checkpoint), with their JSON twins
``/api/bench`` and ``/api/bench/{run}/{problem}`` holding the same numbers.

The numbers come from `slopmark.server.benchreads` (indexed SQL over the bench
checkpoints) and `slopmark.board.benchboard`; the charts' geometry from
`slopmark.server.benchchart`. Sorting is the query string's ``sort`` and
``order``, so a link reproduces a view and it works without JavaScript.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import asdict
from typing import Any
from urllib.parse import urlencode

from fastapi import APIRouter, Request
from fastapi.responses import JSONResponse, Response

from slopmark.board.benchband import human_band
from slopmark.board.benchboard import SORTS, BenchTable, RowKey, bench_tables
from slopmark.board.checkpoints import GROUPS
from slopmark.board.leaderboard import MIN_RANK
from slopmark.code.bench.ledger import DOMAIN, harness_version, subject
from slopmark.server import benchreads
from slopmark.server.benchchart import cost_chart, quality_chart
from slopmark.server.pages import State, error_page, render
from slopmark.server.state import authenticated

__all__ = ["api_router", "router"]

router = APIRouter(include_in_schema=False)
api_router = APIRouter(prefix="/api", tags=["bench"])
#: what a chain's log folder holds, relative to the run folder
LOG_FOLDER = "{run}/{problem}/{checkpoint}/agent/"


def _tables(state: State, sort: str, order: str) -> list[BenchTable]:
    """The tables, from the checkpoints' sums kept while the store is unchanged (one scan
    of ``ix_bench_board`` per change, not per request)."""
    sums = state.boards.kept(("bench-cells",), lambda: tuple(benchreads.cell_sums(state.engine)))
    return bench_tables(sums, sort, order)


def runs_url(key: RowKey, errored: int) -> str:
    """The runs browser's list of a row's stored checkpoints: its agent · model (the runs'
    model) and prompt (their harness version), finished (``errored=0``) or errored."""
    query = {"domain": DOMAIN, "model": subject(key.agent, key.model or None),
             "harness": harness_version(key.prompt), "errored": str(errored)}  # fmt: skip
    return f"/runs?{urlencode(query)}"


def _charts(tables: list[BenchTable], study: benchreads.StudyPoints | None) -> dict[str, Any]:
    points = study.points if study else ()
    bands = {m: human_band(points, m) for m in ("erosion", "verbosity")}
    return {
        table.problem_set: {
            "erosion": quality_chart(table.rows, "erosion", bands["erosion"]),
            "verbosity": quality_chart(table.rows, "verbosity", bands["verbosity"]),
            "cost": cost_chart(table.rows),
        }
        for table in tables
    }


@router.get("/bench")
def bench_page(
    request: Request, state: State, sort: str = "strict", order: str = "desc"
) -> Response:
    """Every problem set's agent × model × prompt rows, sorted, and their charts."""
    tables = _tables(state, sort, order)
    study = benchreads.newest_study(state.engine)
    return render(
        request, "bench.html", nav="bench", tables=tables, charts=_charts(tables, study),
        study=study, sort=sort, order=order, sorts=SORTS, min_rank=MIN_RANK, runs_url=runs_url,
    )  # fmt: skip


def _checkpoint(
    row: Mapping[str, Any], details: Mapping[str, Any], log: list[Mapping[str, Any]] | None,
    reader: tuple[str, bool],
) -> dict[str, Any]:  # fmt: skip
    """One checkpoint of a chain as shown: its bench row, tests and failing ids per group,
    its snapshot's code report, and its agent's log (the text only for a reader with the
    token; ``reader`` is the run folder's name and whether the reader has it)."""
    run, trusted = reader
    tests = details.get("tests") or {}
    failing = details.get("failing") or {}
    folder = LOG_FOLDER.format(run=run, problem=row["problem"], checkpoint=row["checkpoint"])
    return {
        **{k: v for k, v in row.items() if k != "created_at"},
        "tests": {g: tests.get(g, {"passed": 0, "total": 0}) for g in GROUPS},
        "failing": {g: list(failing.get(g, [])) for g in GROUPS},
        "failing_stored": "failing" in details,
        "agent_status": details.get("agent_status"), "steps": details.get("steps"),
        "error": details.get("error"), "log_folder": folder if "bench" in details else None,
        "code_report": details.get("code_report"),
        "log": None if log is None else [_log_file(f, trusted) for f in log],
    }  # fmt: skip


def _log_file(stored: Mapping[str, Any], trusted: bool) -> dict[str, Any]:
    """A stored log file as shown: its name and size always, its text with the token."""
    shown = {"name": stored.get("name"), "bytes": stored.get("bytes"), "cut": stored.get("cut")}
    return {**shown, "text": stored.get("text") if trusted else None}


def _chain(state: State, run: str, problem: str, trusted: bool) -> list[dict[str, Any]] | None:
    found = benchreads.chain(state.engine, run, problem)
    if found is None:
        return None
    return [
        _checkpoint(
            row, found.details.get(row["run_id"], {}), found.logs.get(row["run_id"]), (run, trusted)
        )
        for row in found.checkpoints
    ]


@router.get("/bench/{run}/{problem}")
def chain_page(request: Request, state: State, run: str, problem: str) -> Response:
    """One chain: every checkpoint's tests, quality, churn and cost, and where its log is."""
    checkpoints = _chain(state, run, problem, authenticated(request))
    if checkpoints is None:
        return error_page(request, 404, f"no bench chain of problem {problem!r} in run {run!r}")
    first = checkpoints[0]
    return render(
        request, "bench_chain.html", nav="bench", run=run, problem=problem,
        checkpoints=checkpoints, first=first, groups=GROUPS,
    )  # fmt: skip


def _table_json(table: BenchTable) -> dict[str, Any]:
    return {"problem_set": table.problem_set, "rows": [asdict(row) for row in table.rows]}


@api_router.get("/bench", responses={400: {"description": "An unknown sort or order."}})
def bench_json(state: State, sort: str = "strict", order: str = "desc") -> dict[str, Any]:
    """The /bench tables: per problem set, a row per agent × model × prompt."""
    return {"min_rank": MIN_RANK, "tables": [_table_json(t) for t in _tables(state, sort, order)]}


@api_router.get("/bench/{run}/{problem}", responses={404: {"description": "No such chain."}})
def chain_json(request: Request, state: State, run: str, problem: str) -> Any:
    """One chain's checkpoints, as its page shows them (404 when the store has none); the
    agent's log text only with the server's token."""
    checkpoints = _chain(state, run, problem, authenticated(request))
    if checkpoints is None:
        detail = f"no bench chain of problem {problem!r} in run {run!r}"
        return JSONResponse({"detail": detail}, status_code=404)
    return {"run": run, "problem": problem, "checkpoints": checkpoints}
