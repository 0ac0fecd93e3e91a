"""The leaderboard's fast read: one SQL statement per board group, as plain SQL text.

`RunFilter` says which runs a view reads. `stream_group_runs` lists the board
groups of the matching runs and reads each group's counted rows
(`slopmark.board.counted.COUNTED`) in the order of the ``ix_runs_board``
index, with the cluster id made in the database and no object built per run.

The statements run through a `RowSource`: `SqliteRows` runs them on a
read-only standard-library connection (`slopmark.store.location.read_sqlite`),
so `board show` on a SQLite store never imports SQLAlchemy; `EngineRows` runs
the same text through a SQLAlchemy engine, for PostgreSQL and for stores that
need migrating first. Only the JSON reads of the calibration fields differ.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import asdict, astuple, dataclass
from itertools import chain
from typing import TYPE_CHECKING, Any, Protocol

from slopmark.board.checkpoints import CODE_ITERATIVE_DOMAIN
from slopmark.board.counted import CALIBRATION_DOMAIN, Group, GroupRuns
from slopmark.gcpause import gc_paused

if TYPE_CHECKING:
    from sqlalchemy import Engine

BATCH = 5_000
GROUP = ("domain", "harness_version", "task_set_version", "mode")

Params = dict[str, Any]


@dataclass(frozen=True)
class RunFilter:
    """Runs whose columns equal every value given (None: any) and whose model is listed."""

    domain: str | None = None
    source: str | None = None
    harness_version: str | None = None
    task_set_version: str | None = None
    mode: str | None = None
    #: only these models (empty: every model)
    models: tuple[str, ...] = ()

    def _equal(self) -> dict[str, str]:
        return {name: value for name, value in asdict(self).items() if isinstance(value, str)}

    def clauses(self) -> list[Any]:
        """The filter as SQLAlchemy clauses on the ``runs`` table."""
        from slopmark.store.schema import runs

        equal = [runs.c[name] == value for name, value in self._equal().items()]
        return equal + ([runs.c.model.in_(self.models)] if self.models else [])

    def sql(self) -> tuple[list[str], Params]:
        """The filter as SQL conditions on ``runs`` and their named parameters."""
        equal = self._equal()
        conditions = [f"{name} = :f_{name}" for name in equal]
        params = {f"f_{name}": value for name, value in equal.items()}
        if self.models:
            names = [f"f_model_{i}" for i in range(len(self.models))]
            conditions.append(f"model IN ({', '.join(':' + name for name in names)})")
            params |= dict(zip(names, self.models, strict=True))
        return conditions, params

    def label(self) -> str:
        given = [f"{name}={value}" for name, value in self._equal().items()]
        given += [f"model in ({', '.join(self.models)})"] if self.models else []
        return ", ".join(given) or "all runs"


class RowSource(Protocol):
    """Runs SQL text with named (``:name``) parameters and yields its rows in batches."""

    def batches(self, sql: str, params: Mapping[str, Any]) -> Iterator[Sequence[Sequence[Any]]]:
        """The rows of ``sql`` in batches of at most `BATCH`."""
        ...

    def json_field(self, column: str, key: str, kind: str) -> str:
        """SQL for ``column``'s JSON field ``key`` as a ``float`` or ``boolean``."""
        ...


class SqliteRows:
    """Statements on a standard-library SQLite connection (the caller's; left open)."""

    def __init__(self, connection: sqlite3.Connection) -> None:
        self._connection = connection

    def batches(self, sql: str, params: Mapping[str, Any]) -> Iterator[Sequence[Sequence[Any]]]:
        cursor = self._connection.execute(sql, dict(params))
        try:
            while batch := cursor.fetchmany(BATCH):
                yield batch
        finally:
            cursor.close()

    def json_field(self, column: str, key: str, kind: str) -> str:
        return _sqlite_json(column, key)


class EngineRows:
    """Statements through a SQLAlchemy engine (any store database)."""

    def __init__(self, engine: Engine) -> None:
        self._engine = engine

    def batches(self, sql: str, params: Mapping[str, Any]) -> Iterator[Sequence[Sequence[Any]]]:
        """The driver's rows, read from the DBAPI cursor: plain tuples with no result
        processing per row (SQLite booleans stay 0 and 1)."""
        from sqlalchemy import text

        with self._engine.connect() as connection:
            result = connection.execute(text(sql), dict(params))
            try:
                while batch := result.cursor.fetchmany(BATCH):
                    yield batch
            finally:
                result.close()

    def json_field(self, column: str, key: str, kind: str) -> str:
        if self._engine.dialect.name == "sqlite":
            return _sqlite_json(column, key)
        return f"CAST(({column} ->> '{key}') AS {kind.upper()})"


def _sqlite_json(column: str, key: str) -> str:
    return f"json_extract({column}, '$.\"{key}\"')"


def _where(conditions: Sequence[str]) -> str:
    return f" WHERE {' AND '.join(conditions)}" if conditions else ""


def groups(source: RowSource, where: RunFilter) -> list[Group]:
    """The board groups with runs matching ``where``, sorted."""
    conditions, params = where.sql()
    columns = ", ".join(GROUP)
    sql = f"SELECT DISTINCT {columns} FROM runs{_where(conditions)} ORDER BY {columns}"
    return [Group(*row) for batch in source.batches(sql, params) for row in batch]


def _counted_columns(source: RowSource, domain: str) -> str:
    """The `COUNTED` fields of a group's runs; the calibration fields on calibration only,
    the details on `code_iterative` only (read by `slopmark.board.checkpoints`).

    Rows come in store order, so the store id is not read: NULL saves an int per row.
    """
    cluster = (
        "CASE WHEN coalesce(template_id, '') = '' THEN 'task:' || task_id ELSE template_id END"
    )
    stated = [
        source.json_field("details", "confidence", "float"),
        source.json_field("details", "correct", "boolean"),
    ]
    calibration = stated if domain == CALIBRATION_DOMAIN else ["NULL", "NULL"]
    checkpoint = "details" if domain == CODE_ITERATIVE_DOMAIN else "NULL"
    fields = ["model", "status = 'ok'", "task_id", cluster, "source", "passed", "score",
              "latency_ms", "cost_usd", "paste", *calibration, checkpoint, "NULL"]  # fmt: skip
    return ", ".join(fields)


def group_runs(source: RowSource, where: RunFilter, group: Group) -> GroupRuns:
    """The counted runs of ``group`` among the runs matching ``where``."""
    conditions, params = where.sql()
    for name, value in zip(GROUP, astuple(group), strict=True):
        conditions.append(f"{name} = :g_{name}")
        params[f"g_{name}"] = value
    sql = (
        f"SELECT {_counted_columns(source, group.domain)} FROM runs{_where(conditions)} "
        "ORDER BY model, task_id, id"
    )
    found = GroupRuns()
    with gc_paused():
        found.add_sorted(chain.from_iterable(source.batches(sql, params)))
    return found


def stream_group_runs(source: RowSource, where: RunFilter) -> Iterator[tuple[Group, GroupRuns]]:
    """Each board group of the matching runs with its counted runs, in group order,
    one group in memory at a time (for `slopmark.board.leaderboard.boards`)."""
    for group in groups(source, where):
        yield group, group_runs(source, where, group)
