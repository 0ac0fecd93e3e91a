"""A cheap fingerprint of what the store has committed: while it stays equal, so do the rows.

The server keeps what it computed from the runs (the boards, `slopmark.server.boardcache`)
until this fingerprint changes, whichever process wrote: the server itself, a CLI
``eval run`` beside it, another server on the same store.

- SQLite (a file): ``PRAGMA data_version`` on a connection of the probe's own that never
  writes. The value is per connection and changes whenever any other connection (this
  process's pool or another process) has committed to the file since that connection last
  asked. O(1): a look at the WAL index, no table read.
- PostgreSQL: the current snapshot (``pg_current_snapshot()``: xmin, xmax and the
  transactions in progress). Two equal snapshots see the same committed rows: a commit
  since the first either took its transaction out of the in-progress list or was given
  an id past the first's xmax. O(1): no table read, no privilege, no trigger. Any write
  in the cluster changes it, so a busy cluster recomputes more often (never wrongly).
- Anything else, and in-memory SQLite (each connection its own database): no
  fingerprint (None), so nothing may be kept.

A fingerprint says that something was committed, not what: a write to any table counts
as a change of the runs (inserted, updated or deleted alike). Read it *before* the data
it guards: data read afterwards is then at least as new, and a commit in between only
makes the next fingerprint differ (one recomputation too many, never a stale answer).
"""

from __future__ import annotations

import threading
from collections.abc import Hashable
from typing import Protocol

from sqlalchemy import Engine, text
from sqlalchemy.pool import PoolProxiedConnection


class ChangeProbe(Protocol):
    def fingerprint(self) -> Hashable | None:
        """The store's fingerprint now; None when it cannot tell (keep nothing)."""

    def close(self) -> None: ...


class NoProbe:
    """A store whose changes cannot be seen cheaply: every read is fresh."""

    def fingerprint(self) -> Hashable | None:
        return None

    def close(self) -> None:
        return None


class SqliteProbe:
    """``PRAGMA data_version`` on a dedicated connection that only ever asks that."""

    def __init__(self, engine: Engine) -> None:
        self._connection: PoolProxiedConnection | None = None
        self._engine = engine
        self._lock = threading.Lock()

    def _own(self) -> PoolProxiedConnection:
        if self._connection is None:
            connection = self._engine.raw_connection()
            connection.detach()  # out of the pool: nobody else writes through it
            self._connection = connection
        return self._connection

    def fingerprint(self) -> Hashable | None:
        with self._lock:
            cursor = self._own().cursor()
            try:
                cursor.execute("PRAGMA data_version")
                row = cursor.fetchone()
            finally:
                cursor.close()
        return None if row is None else int(row[0])

    def close(self) -> None:
        with self._lock:
            if self._connection is not None:
                self._connection.close()
                self._connection = None


class PostgresProbe:
    """The current snapshot's text (``xmin:xmax:xip,...``)."""

    def __init__(self, engine: Engine) -> None:
        self._engine = engine

    def fingerprint(self) -> Hashable | None:
        version = self._engine.dialect.server_version_info or (0,)
        function = "pg_current_snapshot" if version >= (13,) else "txid_current_snapshot"
        with self._engine.connect() as connection:
            snapshot: str = connection.execute(text(f"SELECT {function}()::text")).scalar_one()
        return snapshot

    def close(self) -> None:
        return None


def _in_memory(engine: Engine) -> bool:
    database = engine.url.database or ""
    return database in ("", ":memory:") or "mode=memory" in database + str(engine.url.query)


def change_probe(engine: Engine) -> ChangeProbe:
    """The probe of ``engine``'s store: SQLite file, PostgreSQL, or none."""
    backend = engine.url.get_backend_name()
    if backend == "sqlite" and not _in_memory(engine):
        return SqliteProbe(engine)
    if backend == "postgresql":
        return PostgresProbe(engine)
    return NoProbe()
