"""The tasks × models matrix: ``/matrix``, its CSV ``/matrix.csv`` and its JSON twin
``/api/matrix``, all three from the same query string (`MatrixParams`).

A row per task (grouped by template), a column per shown model, each cell the verdict
the leaderboard counts (`slopmark.board.matrix`) linking to its run page. Filters live
in the query string and work from a plain GET form: only failures, only rows where the
shown models differ, only templates where models ``a`` and ``b`` differ significantly,
and which models are columns. The page and the JSON show one page of rows (``limit``,
then ``after``: the next page's cursor); the CSV streams every row from the cursor on.
"""

from __future__ import annotations

import csv
import io
import json
from collections.abc import Iterator, Sequence
from dataclasses import asdict, dataclass, field, replace
from itertools import groupby
from typing import Annotated, Any
from urllib.parse import urlencode

from fastapi import APIRouter, Depends, Query, Request
from fastapi.responses import HTMLResponse, JSONResponse, Response, StreamingResponse
from markupsafe import Markup

from slopmark.board.counted import Group
from slopmark.board.export import spreadsheet_safe
from slopmark.board.matrix import Cell, Filters, Row, TemplatePair, significant
from slopmark.errors import BadInput, did_you_mean
from slopmark.server import reads
from slopmark.server.api import CSV_STREAM, READ
from slopmark.server.matrix_reads import (
    MAX_PAGE,
    PAGE,
    Cursor,
    MatrixPage,
    MatrixQuery,
    domain_groups,
    group_models,
    pair_templates,
    read_page,
    stream_rows,
)
from slopmark.server.pages import render
from slopmark.server.state import ServerState, get_state

pages = APIRouter(include_in_schema=False, default_response_class=HTMLResponse)
exports = APIRouter()
State = Annotated[ServerState, Depends(get_state)]
_ON, _OFF = ("1", "on", "true", "yes"), ("", "0", "off", "false", "no")
#: a page's cells unless ``limit`` says otherwise, and its fewest rows then
PAGE_CELLS, MIN_PAGE = 2_500, 10


@dataclass(frozen=True)
class MatrixParams:
    """The query string every matrix URL takes, as given (checked by `resolve`)."""

    domain: str | None = None
    harness_version: str | None = None
    task_set_version: str | None = None
    mode: str | None = None
    model: tuple[str, ...] = ()
    failures: str | None = None
    differ: str | None = None
    significant: str | None = None
    a: str | None = None
    b: str | None = None
    after: str | None = None
    limit: str | None = None

    def query(self, **changes: Any) -> str:
        """This view's query string with ``changes`` (None or empty drops a parameter)."""
        values = {**asdict(self), **changes}
        pairs = [(name, value) for name, value in values.items()
                 if value not in (None, "") and name != "model"]  # fmt: skip
        pairs += [("model", name) for name in values["model"]]
        return urlencode(pairs)


Domain = Annotated[str | None, Query(description="The domain (default: the first with runs).")]
Harness = Annotated[
    str | None, Query(description="The board group's harness version (default: the first group).")
]
TaskSet = Annotated[str | None, Query(description="The board group's task set version.")]
Mode = Annotated[str | None, Query(description="The board group's mode.")]
Models = Annotated[
    list[str] | None, Query(description="A model to show as a column (repeat; none: all).")
]
Failures = Annotated[str | None, Query(description="1: only rows where a shown model failed.")]
Differ = Annotated[
    str | None, Query(description="1: only rows where one shown model passed and another failed.")
]
Significant = Annotated[
    str | None,
    Query(description="1: only templates where models a and b differ (McNemar exact p < 0.05)."),
]
ModelA = Annotated[
    str | None, Query(description="Model A of the significance filter (default: the first shown).")
]
ModelB = Annotated[
    str | None, Query(description="Model B of the significance filter (default: the next shown).")
]
After = Annotated[
    str | None, Query(description="Where the page starts: the previous page's `next`.")
]
Limit = Annotated[
    str | None,
    Query(description=f"Rows a page: 1 to {MAX_PAGE} (default {PAGE}, fewer with many models)."),
]


def matrix_params(
    domain: Domain = None, harness_version: Harness = None, task_set_version: TaskSet = None,
    mode: Mode = None, model: Models = None, failures: Failures = None, differ: Differ = None,
    significant: Significant = None, a: ModelA = None, b: ModelB = None, after: After = None,
    limit: Limit = None,
) -> MatrixParams:  # fmt: skip
    """The matrix's query string; the same for the page, the CSV and the JSON."""
    return MatrixParams(domain, harness_version, task_set_version, mode, tuple(model or ()),
                        failures, differ, significant, a, b, after, limit)  # fmt: skip


Params = Annotated[MatrixParams, Depends(matrix_params)]


@dataclass(frozen=True)
class MatrixView:
    """A checked view: the domain and group, the models, the filters and the pair."""

    params: MatrixParams
    domain: str
    groups: list[Group]
    group: Group | None
    models: list[str]
    query: MatrixQuery | None
    pair: tuple[str, str] | None = None
    pairs: dict[str, TemplatePair] = field(default_factory=dict)


def _flag(name: str, value: str | None) -> bool:
    text = (value or "").strip().lower()
    if text not in _ON + _OFF:
        raise BadInput(f"{name} {value!r}: must be 1 or 0 (on or off)")
    return text in _ON


def _limit(value: str | None, columns: int) -> int:
    """The rows a page: ``limit`` when given, else `PAGE` up to about `PAGE_CELLS` cells
    (with many models a page holds fewer tasks, so it stays quick to send and read)."""
    if not value:
        return max(MIN_PAGE, min(PAGE, PAGE_CELLS // max(columns, 1)))
    if not value.isdigit() or not 1 <= int(value) <= MAX_PAGE:
        raise BadInput(f"limit {value!r}: must be a whole number from 1 to {MAX_PAGE}")
    return int(value)


def _cursor(value: str | None) -> Cursor | None:
    """The ``after`` cursor: a JSON pair [template or null, task], as a page's link gives it."""
    if not value:
        return None
    try:
        template, task = json.loads(value)
    except (ValueError, TypeError):
        template = task = None
    if not isinstance(task, str) or not isinstance(template, str | None):
        raise BadInput(f'after {value!r}: must be a page\'s cursor, e.g. ["template", "task"]')
    return template, task


def _group(groups: list[Group], params: MatrixParams) -> Group | None:
    """The first group matching the given harness, task set and mode (None: no runs)."""
    given = (params.harness_version, params.task_set_version, params.mode)
    for group in groups:
        fields = (group.harness_version, group.task_set_version, group.mode)
        if all(want in (None, "", have) for want, have in zip(given, fields, strict=True)):
            return group
    if not groups:
        return None
    shown = "; ".join(group.label() for group in groups)
    raise BadInput(f"no runs of {groups[0].domain} match harness {given[0]!r}, task set "
                   f"{given[1]!r}, mode {given[2]!r}; groups: {shown}")  # fmt: skip


def _known(model: str, models: list[str], group: Group) -> str:
    if model in models:
        return model
    hint = did_you_mean(model, models) or f"models: {', '.join(models)}"
    raise BadInput(f"model {model!r} has no runs in {group.label()}; {hint}")


def _pair(
    params: MatrixParams, shown: list[str], models: list[str], group: Group
) -> tuple[str, str]:
    """Models A and B of the significance filter (default: the first two shown)."""
    a = _known(params.a, models, group) if params.a else (shown[0] if shown else None)
    b = _known(params.b, models, group) if params.b else next((m for m in shown if m != a), None)
    if a is None or b is None or a == b:
        raise BadInput(f"significant: needs two different models a and b (a={a!r}, b={b!r})")
    return a, b


def resolve(state: ServerState, params: MatrixParams) -> MatrixView:
    """The view ``params`` ask for; bad values raise `BadInput` (a 400 saying why)."""
    domain = params.domain or _first_domain(state)
    reads.run_filter(state.engine, domain)  # an unknown domain is a BadInput
    groups = domain_groups(state.engine, domain)
    group = _group(groups, params)
    if group is None:
        return MatrixView(params, domain, groups, None, [], None)
    models = group_models(state.engine, group)
    shown = [_known(name, models, group) for name in dict.fromkeys(params.model)] or models
    filters = Filters(_flag("failures", params.failures), _flag("differ", params.differ))
    query = MatrixQuery(group, tuple(shown), len(shown) == len(models), filters,
                        _cursor(params.after), _limit(params.limit, len(shown)))  # fmt: skip
    if not _flag("significant", params.significant):
        return MatrixView(params, domain, groups, group, models, query)
    pair = _pair(params, shown, models, group)
    pairs = pair_templates(state.engine, group, *pair)
    query = replace(query, filters=replace(filters, templates=significant(pairs.values())))
    return MatrixView(params, domain, groups, group, models, query, pair, pairs)


def _first_domain(state: ServerState) -> str:
    tabs, stored = reads.domain_tabs(state.engine), reads.stored_domains(state.engine)
    return next((tab for tab in tabs if tab in stored), tabs[0])


def _page(state: ServerState, view: MatrixView) -> MatrixPage:
    if view.query is None:
        return MatrixPage([], None)
    return read_page(state.engine, view.query)


def _next(view: MatrixView, page: MatrixPage) -> str | None:
    """The query string of the next page, or None on the last."""
    if page.next is None:
        return None
    return view.params.query(after=json.dumps(list(page.next), ensure_ascii=False))


def _template_groups(
    rows: list[Row], pairs: dict[str, TemplatePair]
) -> list[tuple[str | None, list[Row], TemplatePair | None]]:
    """The page's rows in runs of one template, in order, each with A against B on it."""
    runs = [(template, list(found)) for template, found in groupby(rows, key=_template)]
    return [(template, found, pairs.get(found[0].cluster)) for template, found in runs]


def _template(row: Row) -> str | None:
    return row.template_id


_ABSENT = '<td class="cell absent">—</td>'


def _cell_html(found: Cell | None) -> str:
    if found is None:
        return _ABSENT
    count = f' <span class="count">×{found.runs}</span>' if found.runs > 1 else ""
    link = f'<a href="/runs/{found.run_id}">{found.verdict}</a>'
    return f'<td class="cell {found.verdict}">{link}{count}</td>'


def cells_html(row: Row, shown: Sequence[str]) -> Markup:
    """A row's cells as HTML, made here rather than in the template: a page has thousands
    and the template escapes every value it prints one by one. Nothing in a cell comes
    from outside: the verdict is one of `VERDICTS`, the run id and count are numbers."""
    return Markup("".join(map(_cell_html, row.line(shown))))


@pages.get("/matrix")
def matrix_page(request: Request, state: State, params: Params) -> Response:
    view = resolve(state, params)
    page = _page(state, view)
    return render(
        request, "matrix.html", nav="matrix", view=view, tabs=reads.domain_tabs(state.engine),
        shown=view.query.models if view.query else (), page=page,
        templates=_template_groups(page.rows, view.pairs), next_query=_next(view, page),
        cells=cells_html,
    )  # fmt: skip


def _row_json(row: Row, shown: list[str]) -> dict[str, Any]:
    """A task's template, id and cell per shown model (null: no run)."""
    cells = {model: row.cells.get(model) for model in shown}
    return {
        "template_id": row.template_id,
        "task_id": row.task_id,
        "cells": {model: _cell_json(found) for model, found in cells.items()},
    }


def _cell_json(found: Cell | None) -> dict[str, Any] | None:
    if found is None:
        return None
    return {"verdict": found.verdict, "run_id": found.run_id, "runs": found.runs}


def _pair_json(pair: TemplatePair) -> dict[str, Any]:
    return {**asdict(pair.comparison), "significant": pair.significant}


@exports.get("/api/matrix", responses=READ, response_class=JSONResponse)
def matrix_json(state: State, params: Params) -> JSONResponse:
    """The tasks × models matrix, a page of rows: per task its template and each shown
    model's cell (verdict pass / fail / errored, the run shown, the number of runs; null:
    no run). ``next`` is the next page's ``after`` (null on the last page); with
    ``significant=1``, ``templates`` holds A − B per template."""
    view = resolve(state, params)
    # plain JSON values already: no encoder pass over every cell
    return JSONResponse(view_json(view, _page(state, view)))


def view_json(view: MatrixView, page: MatrixPage) -> dict[str, Any]:
    """The view and its page as `/api/matrix` gives them."""
    shown = list(view.query.models) if view.query else []
    filters = view.query.filters if view.query else Filters()
    return {
        "domain": view.domain,
        "group": asdict(view.group) if view.group else None,
        "groups": [asdict(group) for group in view.groups],
        "models": view.models,
        "shown": shown,
        "filters": {
            "failures": filters.failures,
            "differ": filters.differ,
            "significant": view.pair is not None,
        },  # fmt: skip
        "pair": list(view.pair) if view.pair else None,
        "templates": {name: _pair_json(pair) for name, pair in view.pairs.items()},
        "rows": [_row_json(row, shown) for row in page.rows],
        "next": json.dumps(list(page.next), ensure_ascii=False) if page.next else None,
    }


def csv_header(models: tuple[str, ...]) -> list[str]:
    """The CSV's columns: the task, then per model its verdict, run id and run count."""
    per_model = [(model, f"{model} run", f"{model} runs") for model in models]
    header = ["template_id", "task_id", *(name for names in per_model for name in names)]
    return [spreadsheet_safe(name) for name in header]


def csv_row(row: Row, models: tuple[str, ...]) -> list[Any]:
    """One task's line: a model without a run has empty cells."""
    line: list[Any] = [row.template_id or "", row.task_id]
    for model in models:
        found = row.cells.get(model)
        line += [found.verdict, found.run_id, found.runs] if found else ["", "", ""]
    return [spreadsheet_safe(cell) for cell in line]


def _csv_lines(state: ServerState, view: MatrixView) -> Iterator[str]:
    buffer = io.StringIO()
    writer = csv.writer(buffer, lineterminator="\n")
    models = view.query.models if view.query else ()
    writer.writerow(csv_header(models))
    rows = stream_rows(state.engine, view.query) if view.query else iter(())
    for row in rows:
        writer.writerow(csv_row(row, models))
        if buffer.tell() > 64_000:
            yield buffer.getvalue()
            buffer.seek(0)
            buffer.truncate()
    yield buffer.getvalue()


@exports.get("/matrix.csv", responses=READ | {200: CSV_STREAM})
def matrix_csv(state: State, params: Params) -> StreamingResponse:
    """The tasks × models matrix as CSV, every row of the view (from ``after`` on): the
    task, then per shown model its verdict, the run shown and the number of runs."""
    view = resolve(state, params)
    headers = {"Content-Disposition": 'attachment; filename="slopmark-matrix.csv"'}
    return StreamingResponse(_csv_lines(state, view), media_type="text/csv; charset=utf-8",
                             headers=headers)  # fmt: skip
