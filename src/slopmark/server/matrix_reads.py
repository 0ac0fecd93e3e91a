"""The store reads of the tasks × models matrix (``/matrix``): its groups, its models, and
its rows a page at a time.

The matrix shows one board group (domain, harness version, task set version, mode: the
leaderboard never merges them). Its cells come from one aggregate statement, ``GROUP BY
template_id, task_id, model`` on the ``ix_runs_matrix`` index (migration 0009), read in
index order and grouped into rows as they arrive: a page stops reading once it holds
its rows and knows whether another follows, so no page reads the group's runs one by
one. A page starts after a cursor, the (template, task) of the previous page's last row
(keyset paging: page 1000 costs what page 1 costs). Templates sort before tasks, and a
task without a template sorts first (``NULLS FIRST``), on every database. Groups and
models are found by index seeks, one per group or model, never by reading every run.

The per-template paired test reads the two models' counted runs with the board's own
read (`slopmark.board.grouprows.group_runs`).
"""

from __future__ import annotations

from collections.abc import Generator, Iterator, Sequence
from contextlib import closing
from dataclasses import asdict, dataclass
from itertools import groupby, islice
from operator import itemgetter
from typing import Any

from sqlalchemy import Connection, Engine, case, func, select, text

from slopmark.board.counted import Group
from slopmark.board.grouprows import GROUP, EngineRows, RunFilter, group_runs
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


#: a board group's fields after its domain: the order of ``ix_runs_board``
_GROUP_FIELDS = (runs.c.harness_version, runs.c.task_set_version, runs.c.mode)
_IN_GROUP = " AND ".join(f"{name} = :{name}" for name in GROUP)
#: A group's models by one probe of ``ix_runs_board`` each (the next model after the last
#: one found), in one statement: a ``DISTINCT`` reads every run's index entry instead.
_GROUP_MODELS = text(
    f"WITH RECURSIVE found(model) AS (SELECT min(model) FROM runs WHERE {_IN_GROUP} "
    f"UNION ALL SELECT (SELECT min(model) FROM runs WHERE {_IN_GROUP} AND model > found.model) "
    "FROM found WHERE found.model IS NOT NULL) SELECT model FROM found WHERE model IS NOT NULL"
)


def _first_group(connection: Connection, clauses: list[Any]) -> Any:
    query = select(*_GROUP_FIELDS).where(*clauses).order_by(*_GROUP_FIELDS).limit(1)
    return connection.execute(query).first()


def _next_group(connection: Connection, domain: str, after: Sequence[str] | None) -> Any:
    """The first (harness, task set, mode) of ``domain`` after ``after``: a few index seeks,
    one per field from the last (a row-value ``>`` would read every run of ``after``)."""
    if after is None:
        return _first_group(connection, [runs.c.domain == domain])
    for last in reversed(range(len(_GROUP_FIELDS))):
        same = [field == value for field, value in zip(_GROUP_FIELDS[:last], after, strict=False)]
        found = _first_group(
            connection, [runs.c.domain == domain, *same, _GROUP_FIELDS[last] > after[last]]
        )
        if found is not None:
            return found
    return None


def domain_groups(engine: Engine, domain: str) -> list[Group]:
    """The board groups of ``domain``'s runs, sorted: one index probe per group."""
    found: list[Group] = []
    with engine.connect() as connection:
        key = _next_group(connection, domain, None)
        while key is not None:
            found.append(Group(domain, *key))
            key = _next_group(connection, domain, tuple(key))
    return found


def group_models(engine: Engine, group: Group) -> list[str]:
    """The models with runs in ``group``, sorted."""
    with engine.connect() as connection:
        return list(connection.execute(_GROUP_MODELS, asdict(group)).scalars())


def _in_group(group: Group) -> list[Any]:
    return [runs.c[name] == value for name, value in zip(GROUP, vars(group).values(), strict=True)]


def _segments(cursor: Cursor | None) -> list[list[Any]]:
    """The rows after ``cursor`` in the matrix's order, as consecutive index ranges: the
    rest of the cursor's template, then every later template (a task without a template
    sorts first). Each is an index seek, where one row-value ``>`` would read the whole
    template up to the cursor."""
    if cursor is None:
        return [[]]
    template, task = cursor
    if template is None:
        return [[runs.c.template_id.is_(None), runs.c.task_id > task],
                [runs.c.template_id.is_not(None)]]  # fmt: skip
    return [[runs.c.template_id == template, runs.c.task_id > task],
            [runs.c.template_id > template]]  # fmt: skip


def _cells(query: MatrixQuery, segment: list[Any]) -> Any:
    """One line per (template, task, model) of the view in ``segment``, in the matrix's
    order."""
    verdict = case((runs.c.passed, PASSED_CODE), else_=FAILED_CODE)
    latest_ok = func.max(case((runs.c.status == "ok", runs.c.id * 4 + verdict)))
    clauses = _in_group(query.group)
    if not query.every_model:
        clauses.append(runs.c.model.in_(query.models))
    if query.filters.templates is not None:
        clauses.append(runs.c.template_id.in_(sorted(query.filters.templates)))
    clauses += segment
    order = (runs.c.template_id, runs.c.task_id, runs.c.model)
    return (
        select(*order, latest_ok, func.max(runs.c.id), func.count())
        .where(*clauses)
        .group_by(*order)
        .order_by(order[0].nulls_first(), *order[1:])
    )


def _lines(engine: Engine, query: MatrixQuery, batch: int) -> Iterator[Sequence[Any]]:
    """The view's lines as the driver gives them (no result object per line), ``batch``
    at a time: a page asks for what it shows, so the database aggregates no more."""
    with engine.connect() as connection:
        for segment in _segments(query.after):
            result = connection.execute(_cells(query, segment))
            try:
                while found := result.cursor.fetchmany(batch):
                    yield from found
            finally:
                result.close()


def stream_rows(
    engine: Engine, query: MatrixQuery, batch: int = BATCH
) -> Generator[Row, None, None]:
    """Every row of the view after its cursor, filters applied, in the matrix's order."""
    if query.filters.templates == frozenset():
        return
    lines = _lines(engine, query, batch)
    for (template, task), found in groupby(lines, key=itemgetter(0, 1)):
        cells = {line[2]: cell(line[3], line[4], line[5]) for line in found}
        row = Row(template, task, cells)
        if query.filters.keeps(row):
            yield row


def read_page(engine: Engine, query: MatrixQuery) -> MatrixPage:
    """The view's page: at most ``limit`` rows after its cursor, and the next cursor."""
    batch = min(BATCH, (query.limit + 1) * len(query.models))
    with closing(stream_rows(engine, query, batch)) as rows:  # ends the read: frees the cursor
        found = list(islice(rows, query.limit + 1))
    shown = found[: query.limit]
    more = len(found) > query.limit
    return MatrixPage(shown, (shown[-1].template_id, shown[-1].task_id) if more else None)


def pair_templates(engine: Engine, group: Group, a: str, b: str) -> dict[str, TemplatePair]:
    """Per template, A against B (`slopmark.board.matrix.template_pairs`) on their counted
    runs in ``group``."""
    found = group_runs(EngineRows(engine), RunFilter(models=(a, b)), group)
    return template_pairs(found.latest.get(a, {}), found.latest.get(b, {}))
