"""Open the run store: pick the URL, tune SQLite, bring the schema to the latest revision."""

from __future__ import annotations

from functools import cache
from pathlib import Path
from typing import Any

from sqlalchemy import Engine, create_engine, event, inspect, text
from sqlalchemy.engine import make_url
from sqlalchemy.exc import ArgumentError, DBAPIError, NoSuchModuleError

from slopmark.errors import BadInput
from slopmark.store.location import (
    BUSY_TIMEOUT_MS,
    HEAD_REVISION,
    REVISION_QUERY,
    sqlite_file,
    sqlite_tables,
)

_HERE = Path(__file__).parent

#: Pragmas set on every SQLite connection. WAL lets readers (the board, a
#: second `eval run`) work while a suite writes; ``synchronous=NORMAL`` in WAL
#: mode still loses no committed run when the process is killed (only a power
#: cut can drop the last commits).
SQLITE_PRAGMAS = (
    "PRAGMA journal_mode=WAL",
    f"PRAGMA busy_timeout={BUSY_TIMEOUT_MS}",
    "PRAGMA foreign_keys=ON",
    "PRAGMA synchronous=NORMAL",
)


def _tune_sqlite(dbapi_connection: Any, _record: Any) -> None:
    cursor = dbapi_connection.cursor()
    for pragma in SQLITE_PRAGMAS:
        cursor.execute(pragma)
    cursor.close()


def _engine(url: str, origin: str) -> Engine:
    try:
        parsed = make_url(url)
        engine = create_engine(parsed)
    except (ArgumentError, NoSuchModuleError, ValueError) as error:
        raise BadInput(
            f"{origin} {url!r}: not a usable database URL ({error}); use a path to a SQLite "
            "file, or a URL such as sqlite:///runs.db or postgresql+psycopg://user@host/db"
        ) from error
    except ModuleNotFoundError as error:
        hint = f"pip install {error.name}"
        raise BadInput(f"{origin} {url!r}: its database driver is not installed: {hint}") from error
    if parsed.get_backend_name() == "sqlite":
        event.listen(engine, "connect", _tune_sqlite)
    return engine


def current_revision(engine: Engine) -> str | None:
    """The store's migration revision; None for a new (or not yet migrated) store."""
    try:
        with engine.connect() as connection:
            return connection.execute(text(REVISION_QUERY)).scalar()
    except DBAPIError:
        return None


def migrate(engine: Engine) -> None:
    """Apply every migration the store has not seen yet (run on every open)."""
    if current_revision(engine) == HEAD_REVISION:
        return
    from alembic import command
    from alembic.config import Config
    from alembic.util import CommandError

    config = Config(str(_HERE / "alembic.ini"))
    config.set_main_option("script_location", str(_HERE / "migrations"))
    try:
        with engine.begin() as connection:
            config.attributes["connection"] = connection
            command.upgrade(config, "head")
    except CommandError as error:  # a revision this slopmark does not know: a newer one
        known = f"its schema is not one this slopmark knows ({error}); upgrade slopmark"
        raise BadInput(known) from error


def _tables(engine: Engine, url: str) -> list[str]:
    """The tables already there, read without writing: SQLite files through the standard
    library (before any pragma runs), other databases through SQLAlchemy's inspector."""
    path = sqlite_file(url)
    if path is not None:
        return sqlite_tables(path) or []
    return inspect(engine).get_table_names()


def _refuse_foreign(engine: Engine, url: str) -> None:
    """A database with tables but no slopmark schema version belongs to someone else:
    refused before anything is written to it."""
    tables = _tables(engine, url)
    if tables and "alembic_version" not in tables:
        shown = ", ".join(tables[:5]) + (", …" if len(tables) > 5 else "")
        raise BadInput(
            f"not a slopmark store (it has other tables: {shown}); give a slopmark store "
            "or a new file"
        )


def _missing_folder(url: str) -> str:
    """The hint for a SQLite file whose folder does not exist; empty otherwise."""
    path = sqlite_file(url)
    if path is None or path.absolute().parent.is_dir():
        return ""
    return f"; the folder {path.absolute().parent} does not exist: create it first"


def open_store(url: str, origin: str = "--db") -> Engine:
    """An engine on ``url`` with the schema up to date; bad URLs, files that are not a
    slopmark store and stores that cannot be opened raise `BadInput` naming ``origin``
    (``--db``, ``$SLOPMARK_DB``, ...). Nothing is written to a store that is refused."""
    engine = _engine(url, origin)
    try:
        _refuse_foreign(engine, url)
        migrate(engine)
    except BadInput as error:
        engine.dispose()
        raise BadInput(f"{origin} {url!r}: {error}") from None
    except DBAPIError as error:
        engine.dispose()
        reason = " ".join(str(error.orig).split())
        raise BadInput(
            f"{origin} {url!r}: cannot open the store: {reason}{_missing_folder(url)}"
        ) from error
    return engine


@cache
def cached_store(url: str) -> Engine:
    """One engine per store URL in this process: the units a worker runs share it."""
    return open_store(url)
