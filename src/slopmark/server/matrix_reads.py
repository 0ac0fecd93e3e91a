"""The store reads of the tasks × models matrix (``/matrix``): its groups, its models, and
its rows a page at a time.

The matrix shows one board group (domain, harness version, task set version, mode: the
leaderboard never merges them). Its cells come from one aggregate statement, ``GROUP BY
template_id, task_id, model`` on the ``ix_runs_matrix`` index (migration 0009), read in
index order and grouped into rows as they arrive: a page stops reading once it holds
its rows and knows whether another follows, so no page reads the group's runs one by
one. A page starts after a cursor, the (template, task) of the previous page's last row
(keyset paging: page 1000 costs what page 1 costs). Templates sort before tasks, and a
task without a template sorts first (``NULLS FIRST``), on every database.

The per-template paired test reads the two models' counted runs with the board's own
read (`slopmark.board.grouprows.group_runs`).
"""

from __future__ import annotations

from collections.abc import Generator, Iterator, Sequence
from contextlib import closing
from dataclasses import dataclass, replace
from itertools import groupby, islice
from operator import itemgetter
from typing import Any

from sqlalchemy import Engine, and_, case, func, or_, select, tuple_

from slopmark.board.counted import Group
from slopmark.board.grouprows import GROUP, EngineRows, RunFilter, group_runs, groups
from slopmark.board.matrix import (
    FAILED_CODE,
    PASSED_CODE,
    Filters,
    Row,
    TemplatePair,
    cell,
    template_pairs,
)
from slopmark.store.schema import runs

#: rows a page shows unless asked otherwise, and at most
PAGE, MAX_PAGE = 100, 1000
BATCH = 5_000

#: where a page starts: the (template, task) of the row before it
Cursor = tuple[str | None, str]


@dataclass(frozen=True)
class MatrixQuery:
    """One view of the matrix: a group, its shown models (columns), filters, a page."""

    group: Group
    models: tuple[str, ...]
    #: True when ``models`` is every model of the group (no model clause needed)
    every_model: bool
    filters: Filters = Filters()
    after: Cursor | None = None
    limit: int = PAGE


@dataclass(frozen=True)
class MatrixPage:
    rows: list[Row]
    #: the cursor of the next page; None on the last page
    next: Cursor | None


def domain_groups(engine: Engine, domain: str) -> list[Group]:
    """The board groups of ``domain``'s runs, sorted."""
    return groups(EngineRows(engine), RunFilter(domain=domain))


def _in_group(group: Group) -> list[Any]:
    return [runs.c[name] == value for name, value in zip(GROUP, vars(group).values(), strict=True)]


def group_models(engine: Engine, group: Group) -> list[str]:
    """The models with runs in ``group``, sorted."""
    query = select(runs.c.model).where(*_in_group(group)).distinct().order_by(runs.c.model)
    with engine.connect() as connection:
        return list(connection.execute(query).scalars())


def _after(cursor: Cursor) -> Any:
    """The rows after ``cursor`` in the matrix's order (a task without a template first)."""
    template, task = cursor
    if template is None:
        return or_(and_(runs.c.template_id.is_(None), runs.c.task_id > task),
                   runs.c.template_id.is_not(None))  # fmt: skip
    return tuple_(runs.c.template_id, runs.c.task_id) > tuple_(template, task)


def _cells(query: MatrixQuery) -> Any:
    """One line per (template, task, model) of the view, in the matrix's order."""
    verdict = case((runs.c.passed, PASSED_CODE), else_=FAILED_CODE)
    latest_ok = func.max(case((runs.c.status == "ok", runs.c.id * 4 + verdict)))
    clauses = _in_group(query.group)
    if not query.every_model:
        clauses.append(runs.c.model.in_(query.models))
    if query.filters.templates is not None:
        clauses.append(runs.c.template_id.in_(sorted(query.filters.templates)))
    if query.after is not None:
        clauses.append(_after(query.after))
    order = (runs.c.template_id, runs.c.task_id, runs.c.model)
    return (
        select(*order, latest_ok, func.max(runs.c.id), func.count())
        .where(*clauses)
        .group_by(*order)
        .order_by(order[0].nulls_first(), *order[1:])
    )


def _lines(engine: Engine, query: MatrixQuery) -> Iterator[Sequence[Any]]:
    with engine.connect() as connection:
        result = connection.execution_options(yield_per=BATCH).execute(_cells(query))
        for batch in result.partitions():
            yield from batch


def stream_rows(engine: Engine, query: MatrixQuery) -> Generator[Row, None, None]:
    """Every row of the view after its cursor, filters applied, in the matrix's order."""
    if query.filters.templates == frozenset():
        return
    for (template, task), lines in groupby(_lines(engine, query), key=itemgetter(0, 1)):
        cells = {line[2]: cell(line[3], line[4], line[5]) for line in lines}
        row = Row(template, task, cells)
        if query.filters.keeps(row):
            yield row


def read_page(engine: Engine, query: MatrixQuery) -> MatrixPage:
    """The view's page: at most ``limit`` rows after its cursor, and the next cursor."""
    with closing(stream_rows(engine, query)) as rows:  # ends the read: the cursor is freed
        found = list(islice(rows, query.limit + 1))
    shown = found[: query.limit]
    more = len(found) > query.limit
    return MatrixPage(shown, (shown[-1].template_id, shown[-1].task_id) if more else None)


def pair_templates(engine: Engine, group: Group, a: str, b: str) -> dict[str, TemplatePair]:
    """Per template, A against B (`slopmark.board.matrix.template_pairs`) on their counted
    runs in ``group``."""
    where = replace(RunFilter(), models=(a, b))
    found = group_runs(EngineRows(engine), where, group)
    return template_pairs(found.latest.get(a, {}), found.latest.get(b, {}))
