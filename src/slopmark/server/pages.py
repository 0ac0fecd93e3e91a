"""The web pages: leaderboard, cost–capability chart and bench console (a run's page is
`slopmark.server.runs_pages`).

A calibration leaderboard also shows each board's reliability diagrams as
inline SVG (`slopmark.server.chart.reliability_panels`).

Rendered on the server from Jinja2 templates; a small script
(``static/slopmark.js``) adds the chart's details on hover and the console's
submit. Nothing is loaded from outside the server.
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Annotated, Any
from urllib.parse import quote, urlencode

from fastapi import APIRouter, Depends, Request
from fastapi.responses import HTMLResponse, Response
from fastapi.templating import Jinja2Templates

from slopmark.board.leaderboard import CALIBRATION_DOMAIN, MIN_DISPLAY, MIN_RANK
from slopmark.board.stats import Interval
from slopmark.evals.task import DOMAINS
from slopmark.server import reads
from slopmark.server.chart import reliability_panels
from slopmark.server.passrate_chart import board_chart
from slopmark.server.state import ServerState, get_state

router = APIRouter(include_in_schema=False, default_response_class=HTMLResponse)
templates = Jinja2Templates(directory=Path(__file__).parent / "templates")
State = Annotated[ServerState, Depends(get_state)]


def percent(value: float | None) -> str:
    return "–" if value is None else f"{100 * value:.1f}%"


def interval(value: Interval, scale: float = 100.0) -> str:
    """``72.0 [60.1, 81.5]`` (percent by default), or ``undefined`` for an undefined estimate."""
    if value.estimate is None:
        return "undefined"
    ends = [f"{scale * end:.1f}" if end is not None else "?" for end in (value.low, value.high)]
    return f"{scale * value.estimate:.1f} [{ends[0]}, {ends[1]}]"


def money(value: float | None) -> str:
    if value is None:
        return "unknown"
    return f"${value:.6f}".rstrip("0").rstrip(".") if value else "$0"


def number(value: float | None, digits: int = 3) -> str:
    return "–" if value is None else f"{value:.{digits}f}"


templates.env.filters.update(percent=percent, interval=interval, money=money, number=number)


def render(request: Request, name: str, status: int = 200, **context: Any) -> Response:
    return templates.TemplateResponse(request, name, context, status_code=status)


def error_page(request: Request, status: int, message: str) -> Response:
    return render(request, "error.html", status, code=status, message=message)


def _domains(state: ServerState, domain: str | None) -> tuple[list[str], str]:
    """The domain tabs and the chosen one (default: the first with runs)."""
    tabs = reads.domain_tabs(state.engine)
    stored = reads.stored_domains(state.engine)
    first = next((tab for tab in tabs if tab in stored), tabs[0])
    return tabs, domain or first


@router.get("/")
def leaderboard_page(
    request: Request,
    state: State,
    domain: str | None = None,
    source: str | None = None,
    tasks: str = "common",
) -> Response:
    tabs, chosen = _domains(state, domain)
    where = reads.run_filter(state.engine, chosen, source or None)
    boards = state.boards.boards(where, tasks)
    reliability = {
        board.group: reliability_panels(board)
        for board in boards
        if board.group.domain == CALIBRATION_DOMAIN
    }
    return render(
        request, "leaderboard.html", nav="board", tabs=tabs, domain=chosen, source=source or "",
        tasks=tasks, boards=boards, min_display=MIN_DISPLAY, min_rank=MIN_RANK,
        reliability=reliability,
    )  # fmt: skip


@router.get("/chart")
def chart_page(
    request: Request, state: State, domain: str | None = None, source: str | None = None
) -> Response:
    tabs, chosen = _domains(state, domain)
    where = reads.run_filter(state.engine, chosen, source or None)
    charts = [board_chart(board) for board in state.boards.boards(where)]
    return render(
        request, "chart.html", nav="chart", tabs=tabs, domain=chosen, source=source or "",
        charts=charts,
    )  # fmt: skip


@router.get("/console")
def console_page(
    request: Request, state: State, domain: str = "instruction", task: str | None = None
) -> Response:
    pool = state.pool(domain)
    chosen = next((t for t in pool if t.id == task), pool[0] if pool else None)
    return render(
        request, "console.html", nav="console", domains=DOMAINS, domain=domain, pool=pool,
        task=chosen.public() if chosen else None, token_needed=state.token is not None,
    )  # fmt: skip


def task_link(domain: str, task_id: str, details: Mapping[str, Any]) -> str | None:
    """Where a run's task leads: the console for a domain it serves, a bench checkpoint's
    chain page (its run folder and problem, from ``details["bench"]``), else nowhere."""
    if domain in DOMAINS:
        return f"/console?{urlencode({'domain': domain, 'task': task_id})}"
    bench = details.get("bench")
    if isinstance(bench, dict) and isinstance(bench.get("run"), str) and "." in task_id:
        problem = task_id.split("/", 1)[0].rsplit(".v", 1)[0]
        return f"/bench/{quote(bench['run'], safe='')}/{quote(problem, safe='')}"
    return None
