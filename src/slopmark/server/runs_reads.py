"""The runs browser's reads: the runs matching a filter, one page at a time, newest first.

Pages are keyset pages on the store id: a page is "the next ``limit`` runs below
id B" (or above id A, going back), so page 1000 costs what page 1 costs and no
request counts or skips the rows before it. Each filter is an equality (or a
range, for dates) on a column with an index that ends in ``id`` (migration 0008,
`slopmark.store.schema.BROWSER_INDEXES`), so the database reads one page of the
index and stops. ``passed`` is filtered on its own column only and "not errored"
as ``status != 'error'``: neither draws the planner to the status index, whose
'ok' half is nearly the whole table.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import asdict, dataclass, fields
from datetime import UTC, date, datetime, timedelta
from typing import Any

from sqlalchemy import Engine, select

from slopmark.errors import BadInput
from slopmark.store.schema import runs

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
        """The filter as SQLAlchemy clauses on ``runs``."""
        found = [runs.c[_EQUAL[name]] == value for name, value in self._given_text().items()]
        if self.passed is not None:
            found.append(runs.c.passed.is_(self.passed))
        if self.errored is not None:
            found.append(runs.c.status == "error" if self.errored else runs.c.status != "error")
        return found + self._date_clauses()

    def _given_text(self) -> dict[str, str]:
        return {name: value for name in _EQUAL if isinstance(value := getattr(self, name), str)}

    def _date_clauses(self) -> list[Any]:
        found = []
        if self.since is not None:
            found.append(runs.c.created_at >= _midnight(self.since))
        if self.until is not None:
            found.append(runs.c.created_at < _midnight(self.until + timedelta(days=1)))
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
    clauses = query.clauses()
    backwards = after is not None
    if backwards:
        clauses.append(runs.c.id > after)
    elif before is not None:
        clauses.append(runs.c.id < before)
    order = runs.c.id.asc() if backwards else runs.c.id.desc()
    statement = select(*LISTED).where(*clauses).order_by(order).limit(limit + 1)
    with engine.connect() as connection:
        found = [dict(row._mapping) for row in connection.execute(statement)]
    more, rows = len(found) > limit, found[:limit]
    if backwards:
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
    clauses, column = query.clauses(), runs.c.id
    newer = select(column).where(*clauses, column > run_id).order_by(column.asc()).limit(1)
    older = select(column).where(*clauses, column < run_id).order_by(column.desc()).limit(1)
    with engine.connect() as connection:
        return Neighbours(connection.scalar(newer), connection.scalar(older))
