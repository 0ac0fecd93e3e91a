"""Store and read runs: one committed row per finished (or errored) attempt."""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import asdict, dataclass, field, fields, replace
from datetime import UTC, datetime
from typing import Any

from sqlalchemy import Engine, Row, and_, func, insert, select
from sqlalchemy.exc import IntegrityError

from slopmark.store.schema import runs

STATUSES = ("ok", "error")
_INSERT_TRIES = 5
_SURROGATE = re.compile("[\ud800-\udfff]")


@dataclass(frozen=True)
class Series:
    """What a resumed suite must match to count a task as done."""

    model: str
    provider: str
    harness_version: str
    mode: str
    task_set_version: str


@dataclass(frozen=True)
class Run:
    """One attempt of one model at one task. Unknown numbers are None, never 0.

    ``id``, ``attempt`` and ``created_at`` are set by the store on insert.
    An errored run (``status="error"``) has ``passed`` and ``score`` None: it
    is not a failed answer.
    """

    task_id: str
    domain: str
    model: str
    provider: str
    harness_version: str
    mode: str
    task_set_version: str
    source: str
    status: str
    output: str = ""
    passed: bool | None = None
    score: float | None = None
    details: Mapping[str, Any] = field(default_factory=dict)
    ambiguous: bool = False
    upstream: str | None = None
    template_id: str | None = None
    latency_first_byte_ms: float | None = None
    latency_ms: float | None = None
    input_tokens: int | None = None
    output_tokens: int | None = None
    finish_reason: str | None = None
    truncated: bool = False
    cost_usd: float | None = None
    paste: bool = False
    error: str | None = None
    id: int | None = None
    attempt: int | None = None
    created_at: datetime | None = None

    @property
    def series(self) -> Series:
        return Series(
            self.model, self.provider, self.harness_version, self.mode, self.task_set_version
        )


_COLUMNS = tuple(f.name for f in fields(Run))
_TEXT_FIELDS = ("output", "error", "upstream", "finish_reason")


def _valid_text(value: str | None) -> str | None:
    """Model text can hold lone surrogates (from JSON escapes); store them as U+FFFD."""
    if value is None:
        return None
    return _SURROGATE.sub("\ufffd", value)


def _series_filter(series: Series) -> Any:
    return and_(*(runs.c[name] == value for name, value in asdict(series).items()))


def _values(run: Run) -> dict[str, Any]:
    if run.status not in STATUSES:
        raise ValueError(f"run status {run.status!r} must be one of {', '.join(STATUSES)}")
    values = {name: getattr(run, name) for name in _COLUMNS if name != "id"}
    for name in _TEXT_FIELDS:
        values[name] = _valid_text(values[name])
    values["details"] = dict(run.details)
    values["created_at"] = _utc(run.created_at or datetime.now(UTC))
    return values


def _utc(stamp: datetime) -> datetime:
    if stamp.tzinfo is None:
        raise ValueError(f"run created_at {stamp.isoformat()} has no timezone; pass a UTC time")
    return stamp.astimezone(UTC)


def _next_attempt(connection: Any, run: Run) -> int:
    last = connection.execute(
        select(func.max(runs.c.attempt)).where(
            _series_filter(run.series), runs.c.task_id == run.task_id
        )
    ).scalar()
    return int(last or 0) + 1


def insert_run(engine: Engine, run: Run) -> Run | None:
    """Commit ``run`` as the next attempt of its task; None if an ok run already exists.

    The store refuses a second ok model run for the same series and task, so
    a resumed or concurrently started suite never duplicates a run.
    """
    for _ in range(_INSERT_TRIES):
        try:
            with engine.begin() as connection:
                values = _values(run) | {"attempt": _next_attempt(connection, run)}
                new_id = connection.execute(insert(runs).values(values)).inserted_primary_key
        except IntegrityError:
            if run.status == "ok" and not run.paste and _has_ok(engine, run):
                return None
            continue
        assert new_id is not None
        return replace(_from_values(values), id=int(new_id[0]))
    raise RuntimeError(f"could not store run of task {run.task_id!r} after {_INSERT_TRIES} tries")


def _from_values(values: Mapping[str, Any]) -> Run:
    return Run(**{name: values[name] for name in _COLUMNS if name in values})


def _from_row(row: Row[Any]) -> Run:
    return _from_values(dict(row._mapping))


def _has_ok(engine: Engine, run: Run) -> bool:
    return run.task_id in finished_task_ids(engine, run.series)


def finished_task_ids(engine: Engine, series: Series) -> set[str]:
    """Tasks with an ok model run in ``series``: a resumed suite skips them."""
    query = select(runs.c.task_id).where(
        _series_filter(series), runs.c.status == "ok", runs.c.paste.is_(False)
    )
    with engine.connect() as connection:
        return set(connection.execute(query).scalars())


def errored_task_ids(engine: Engine, series: Series) -> set[str]:
    """Tasks whose every run in ``series`` errored: what ``--retry-errors`` re-runs."""
    query = select(runs.c.task_id).where(
        _series_filter(series), runs.c.status == "error", runs.c.paste.is_(False)
    )
    with engine.connect() as connection:
        errored = set(connection.execute(query).scalars())
    return errored - finished_task_ids(engine, series)


def series_runs(engine: Engine, series: Series, paste: bool = False) -> list[Run]:
    """Every run of ``series`` in insertion order."""
    query = (
        select(runs)
        .where(_series_filter(series), runs.c.paste.is_(paste))
        .order_by(runs.c.id)
    )
    with engine.connect() as connection:
        return [_from_row(row) for row in connection.execute(query)]


def list_runs(engine: Engine, **equal: Any) -> list[Run]:
    """Every run whose columns equal the given values, e.g. ``list_runs(e, model="x")``."""
    unknown = sorted(set(equal) - {column.name for column in runs.c})
    if unknown:
        known = ", ".join(_COLUMNS)
        raise ValueError(f"unknown run column(s) {', '.join(unknown)}; known: {known}")
    query = select(runs).where(*(runs.c[name] == value for name, value in equal.items()))
    with engine.connect() as connection:
        return [_from_row(row) for row in connection.execute(query.order_by(runs.c.id))]


#: The largest id a store can hold (a signed 64-bit integer); larger ones name no run.
MAX_RUN_ID = 2**63 - 1


def get_run(engine: Engine, run_id: int) -> Run | None:
    """The run with ``run_id``; None when there is none (any id out of range included)."""
    if not 1 <= run_id <= MAX_RUN_ID:
        return None
    with engine.connect() as connection:
        row = connection.execute(select(runs).where(runs.c.id == run_id)).first()
    return None if row is None else _from_row(row)
