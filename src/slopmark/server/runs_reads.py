"""The runs browser's reads: the runs matching a filter, one page at a time, newest first.

Pages are keyset pages on the store id: a page is "the next ``limit`` runs below
id B" (or above id A, going back), so page 1000 costs what page 1 costs and no
request counts or skips the rows before it. One filter leads (`lead_of`): an
equality on a column with an index that ends in ``id`` (migration 0008,
`slopmark.store.schema.BROWSER_INDEXES`), so the database reads one page of that
index and stops. The other equalities compare ``column || ''``,
which no index serves, so the planner walks the leading filter's index: left to
itself it may walk another filter's, which on the last page of a rare value reads the
whole table to learn there is no more. ``passed`` is filtered on its own column only
and "not errored" as ``status != 'error'``, so neither draws the planner to the
status index. A filter of dates alone is listed in (stored time, id) order along
``ix_runs_created`` (the same order as the ids, but for clock steps), its keyset the
pair; with another filter the dates only check the rows it leads to.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import asdict, dataclass, fields
from datetime import UTC, date, datetime, timedelta
from typing import Any

from sqlalchemy import Connection, Engine, Select, func, literal, select, text, tuple_

from slopmark.errors import BadInput
from slopmark.store.schema import BROWSER_ONLY, runs

PAGE_SIZE = 50
#: the listed columns: everything but the answer text and the verifier's details
LISTED = [column for column in runs.c if column.name not in ("output", "details")]
#: query parameter → the column it must equal
_EQUAL = {
    "domain": "domain", "model": "model", "task": "task_id", "template": "template_id",
    "source": "source", "harness": "harness_version", "task_set": "task_set_version",
    "mode": "mode",
}  # fmt: skip
_FLAGS = {"1": True, "0": False, "": None}
#: which filter leads, the first given in this order, and the columns its index serves
#: (a task's runs are few: the unique index starting with ``task_id`` finds them)
LEADS = (
    ("task", ("task_id",)), ("template", ("template_id",)), ("model", ("model", "domain")),
    ("domain", ("domain",)), ("errored", ("status",)), ("harness", ("harness_version",)),
    ("source", ("source",)),
)  # fmt: skip
MAX_VALUE = 200


@dataclass(frozen=True)
class RunQuery:
    """Which runs the browser lists: each given value must match (None: any)."""

    domain: str | None = None
    model: str | None = None
    task: str | None = None
    template: str | None = None
    source: str | None = None
    harness: str | None = None
    task_set: str | None = None
    mode: str | None = None
    #: True: passed; False: failed (an errored run is neither)
    passed: bool | None = None
    #: True: errored runs only; False: runs that finished
    errored: bool | None = None
    #: stored on or after this day (UTC)
    since: date | None = None
    #: stored on or before this day (UTC)
    until: date | None = None

    def clauses(self) -> list[Any]:
        """The filter as SQLAlchemy clauses on ``runs``, only the leading filter's columns
        (`lead_of`) open to an index."""
        lead = lead_of(self)
        found = [_equal(_EQUAL[name], value, lead) for name, value in self._given_text().items()]
        if lead == ("domain",):  # the condition of the browser's own ix_runs_domain
            found.append(text(BROWSER_ONLY))
        if self.passed is not None:
            found.append(runs.c.passed.is_(self.passed))
        if self.errored is not None:
            errored = _equal("status", "error", lead) if self.errored else None
            found.append(runs.c.status != "error" if errored is None else errored)
        return found + self._date_clauses()

    def _given_text(self) -> dict[str, str]:
        return {name: value for name in _EQUAL if isinstance(value := getattr(self, name), str)}

    def _date_clauses(self) -> list[Any]:
        """The date range; on ``created_at`` itself when it leads (`by_date`), else on an
        expression no index serves."""
        stamp = runs.c.created_at
        column = stamp if by_date(self) else func.coalesce(stamp, stamp)
        found = []
        if self.since is not None:
            found.append(column >= _midnight(self.since))
        if self.until is not None:
            found.append(column < _midnight(self.until + timedelta(days=1)))
        return found

    def params(self) -> dict[str, str]:
        """The filter as query parameters (the given ones only), for links that keep it."""
        shown: dict[str, str] = {}
        for name, value in asdict(self).items():
            if isinstance(value, bool):
                shown[name] = "1" if value else "0"
            elif value is not None:
                shown[name] = value.isoformat() if isinstance(value, date) else value
        return shown


def lead_of(query: RunQuery) -> tuple[str, ...]:
    """The columns of the leading filter's index (`LEADS`); none for dates only or no
    filter (the table itself is in id order)."""
    for name, columns in LEADS:
        if getattr(query, name) not in (None, False):
            return columns
    return ()


def by_date(query: RunQuery) -> bool:
    """Whether the dates lead: no filter of `LEADS` is given, only dates (and perhaps
    filters no index serves: verdict, mode, task set)."""
    return not lead_of(query) and (query.since, query.until) != (None, None)


def order_key(query: RunQuery) -> tuple[Any, ...]:
    """The columns a listing is ordered and paged by: (stored time, id) when the dates
    lead, else the id."""
    return (runs.c.created_at, runs.c.id) if by_date(query) else (runs.c.id,)


def edge_of(connection: Connection, query: RunQuery, run_id: int) -> tuple[Any, ...]:
    """Run ``run_id``'s values of `order_key` (a page's edge); `BadInput` when a date
    listing names a run that does not exist."""
    if not by_date(query):
        return (run_id,)
    stamp = connection.scalar(select(runs.c.created_at).where(runs.c.id == run_id))
    if stamp is None:
        raise BadInput(f"no run has id {run_id}; follow the page links of /runs")
    return (stamp, run_id)


def _beyond(query: RunQuery, edge: tuple[Any, ...], newer: bool) -> Any:
    """Runs after ``edge`` in listing order: newer (greater) or older."""
    key = order_key(query)
    if len(key) == 1:
        return key[0] > edge[0] if newer else key[0] < edge[0]
    pair, given = tuple_(*key), tuple_(literal(edge[0], key[0].type), literal(edge[1]))
    return pair > given if newer else pair < given


def _equal(column: str, value: str, lead: tuple[str, ...]) -> Any:
    """``column = value``, as ``column || '' = value`` (no index) unless it leads."""
    return runs.c[column] == value if column in lead else runs.c[column].concat("") == value


def page_statement(
    query: RunQuery,
    edge: tuple[Any, ...] | None = None,
    backwards: bool = False,
    limit: int = PAGE_SIZE,
) -> Select[Any]:
    """A page of ``query`` past ``edge`` (`edge_of` a run; None: from the newest), older
    runs first or (``backwards``) newer ones, with one row more (is there another page?)."""
    clauses = query.clauses() + ([] if edge is None else [_beyond(query, edge, backwards)])
    order = [column.asc() if backwards else column.desc() for column in order_key(query)]
    return select(*LISTED).where(*clauses).order_by(*order).limit(limit + 1)


def _midnight(day: date) -> datetime:
    return datetime(day.year, day.month, day.day, tzinfo=UTC)


def _flag(name: str, value: str) -> bool | None:
    if value not in _FLAGS:
        raise BadInput(f"{name} {value!r}: must be 1, 0 or empty")
    return _FLAGS[value]


def _day(name: str, value: str) -> date | None:
    if not value:
        return None
    try:
        return date.fromisoformat(value)
    except ValueError:
        raise BadInput(f"{name} {value!r}: give a day as YYYY-MM-DD") from None


def _text(name: str, value: str) -> str | None:
    if len(value) > MAX_VALUE:
        raise BadInput(f"{name}: {len(value)} characters, more than the {MAX_VALUE} allowed")
    return value or None


def parse_query(given: Mapping[str, str]) -> RunQuery:
    """The filter named by query parameters; an empty value means any, a bad one is
    `BadInput`. Parameters the browser does not know are left to the caller."""
    values: dict[str, Any] = {}
    for field in fields(RunQuery):
        raw = given.get(field.name, "")
        if field.name in ("passed", "errored"):
            values[field.name] = _flag(field.name, raw)
        elif field.name in ("since", "until"):
            values[field.name] = _day(field.name, raw)
        else:
            values[field.name] = _text(field.name, raw)
    return RunQuery(**values)


@dataclass(frozen=True)
class RunsPage:
    """One page of matching runs, newest first, and whether there are more either side."""

    rows: tuple[dict[str, Any], ...]
    newer: bool
    older: bool

    @property
    def first_id(self) -> int | None:
        return self.rows[0]["id"] if self.rows else None

    @property
    def last_id(self) -> int | None:
        return self.rows[-1]["id"] if self.rows else None


def runs_page(
    engine: Engine,
    query: RunQuery,
    before: int | None = None,
    after: int | None = None,
    limit: int = PAGE_SIZE,
) -> RunsPage:
    """The ``limit`` newest matching runs below id ``before``, or (``after``) the
    ``limit`` oldest above id ``after`` (the page before, going back), newest first."""
    if before is not None and after is not None:
        raise BadInput("give before or after, not both")
    with engine.connect() as connection:
        mark = before if before is not None else after
        edge = None if mark is None else edge_of(connection, query, mark)
        statement = page_statement(query, edge, backwards=after is not None, limit=limit)
        found = [dict(row._mapping) for row in connection.execute(statement)]
    more, rows = len(found) > limit, found[:limit]
    if after is not None:
        return RunsPage(tuple(reversed(rows)), newer=more, older=bool(rows))
    return RunsPage(tuple(rows), newer=before is not None, older=more)


@dataclass(frozen=True)
class Neighbours:
    """The ids of the next newer and the next older run within a filter (None: none)."""

    newer: int | None
    older: int | None


def neighbours(engine: Engine, query: RunQuery, run_id: int) -> Neighbours:
    """The runs either side of ``run_id`` among those matching ``query``: two one-row
    reads of an index, whether or not ``run_id`` itself matches."""
    with engine.connect() as connection:
        newer, older = (
            connection.scalar(
                page_statement(query, edge_of(connection, query, run_id), backwards, limit=0)
                .with_only_columns(runs.c.id)
            )
            for backwards in (True, False)
        )
        return Neighbours(newer, older)
