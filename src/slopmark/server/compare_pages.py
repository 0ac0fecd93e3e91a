"""``/compare?a=…&b=…&domain=…``: ``board compare A B`` as a page, and ``/api/compare``.

Both call `slopmark.board.query.compare_stored`, the function behind ``slopmark board
compare``, so the page, its JSON twin and the CLI give the same numbers. Each model
and count links to the runs behind it (`slopmark.server.runs_pages.runs_link`).
"""

from __future__ import annotations

from typing import Annotated, Any
from urllib.parse import urlencode

from fastapi import APIRouter, Depends, Query, Request
from fastapi.responses import HTMLResponse, Response

from slopmark.board.compare import Comparison, comparison_json
from slopmark.board.grouprows import RunFilter
from slopmark.board.query import compare_stored, models
from slopmark.errors import BadInput
from slopmark.server import reads
from slopmark.server.pages import render, templates
from slopmark.server.runs_pages import runs_link
from slopmark.server.state import ServerState, get_state

pages = APIRouter(include_in_schema=False, default_response_class=HTMLResponse)
api = APIRouter(prefix="/api")
State = Annotated[ServerState, Depends(get_state)]
Model = Annotated[str | None, Query(max_length=200, description="A model with runs.")]
Text = Annotated[str | None, Query(max_length=200)]


def compare_link(a: str, b: str, scope: dict[str, str | None]) -> str:
    """The page comparing ``a`` with ``b`` on a board's group (``scope``: the leaderboard's
    runs-link filter: domain, harness, task_set, mode, source)."""
    given = {name: value for name, value in scope.items() if value is not None}
    return f"/compare?{urlencode({'a': a, 'b': b, **given})}"


templates.env.globals["compare_link"] = compare_link


def _where(
    state: ServerState, domain: str | None, source: str | None, harness: str | None,
    task_set: str | None, mode: str | None,
) -> RunFilter:  # fmt: skip
    """The runs to compare on: a domain (required), the rest optional (empty: any)."""
    if not domain:
        raise BadInput("domain: give the domain to compare the models on, e.g. ?domain=math")
    where = reads.run_filter(state.engine, domain, source or None)
    return RunFilter(where.domain, where.source, harness or None, task_set or None, mode or None)


def group_links(comparison: Comparison, source: str | None) -> dict[str, str]:
    """Each model's runs in the comparison's group (the rows behind its counts)."""
    group = comparison.group
    return {
        model: runs_link(
            domain=group.domain, model=model, harness=group.harness_version,
            task_set=group.task_set_version, mode=group.mode, source=source,
        )  # fmt: skip
        for model in (comparison.model_a, comparison.model_b)
    }


@pages.get("/compare")
def compare_page(
    request: Request, state: State, a: Model = None, b: Model = None, domain: Text = None,
    source: Text = None, harness: Text = None, task_set: Text = None, mode: Text = None,
) -> Response:  # fmt: skip
    """The paired comparison of models ``a`` and ``b``; a form until both are named."""
    chosen = domain or next(iter(reads.stored_domains(state.engine)), "math")
    where = _where(state, chosen, source, harness, task_set, mode)
    found = compare_stored(state.engine, where, a, b) if a and b else ()
    # the models to choose from, only on the form (a DISTINCT over the domain's runs)
    known = [] if found else models(state.engine, where)
    return render(
        request, "compare.html", nav="board", a=a or "", b=b or "", domain=chosen,
        source=source or "", known=known, comparisons=found,
        links=[group_links(c, source or None) for c in found], label=where.label(),
    )  # fmt: skip


@api.get(
    "/compare",
    responses={400: {"description": "An unknown domain, a bad filter, or the same model twice."}},
)
def compare_json(
    state: State, a: Annotated[str, Query(max_length=200)],
    b: Annotated[str, Query(max_length=200)], domain: Annotated[str, Query(max_length=200)],
    source: Text = None, harness: Text = None, task_set: Text = None, mode: Text = None,
) -> dict[str, Any]:  # fmt: skip
    """``board compare A B --domain D --json``: the paired comparison per board group."""
    where = _where(state, domain, source, harness, task_set, mode)
    return {"comparisons": [comparison_json(c) for c in compare_stored(state.engine, where, a, b)]}
