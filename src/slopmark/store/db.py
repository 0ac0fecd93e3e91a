"""Open the run store: pick the URL, tune SQLite, bring the schema to the latest revision."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from sqlalchemy import Engine, create_engine, event, text
from sqlalchemy.engine import make_url
from sqlalchemy.exc import ArgumentError, DBAPIError, NoSuchModuleError, OperationalError

from slopmark.errors import BadInput
from slopmark.store.location import BUSY_TIMEOUT_MS, HEAD_REVISION, REVISION_QUERY

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


def _engine(url: str) -> Engine:
    try:
        parsed = make_url(url)
        engine = create_engine(parsed)
    except (ArgumentError, NoSuchModuleError, ValueError) as error:
        raise BadInput(
            f"--db {url!r}: not a usable database URL ({error}); "
            "use e.g. sqlite:///./slopmark.db or postgresql+psycopg://user@host/db"
        ) from error
    except ModuleNotFoundError as error:
        hint = f"pip install {error.name}"
        raise BadInput(f"--db {url!r}: its database driver is not installed: {hint}") from error
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

    config = Config(str(_HERE / "alembic.ini"))
    config.set_main_option("script_location", str(_HERE / "migrations"))
    with engine.begin() as connection:
        config.attributes["connection"] = connection
        command.upgrade(config, "head")


def open_store(url: str) -> Engine:
    """An engine on ``url`` with the schema up to date; bad URLs raise `BadInput`."""
    engine = _engine(url)
    try:
        migrate(engine)
    except OperationalError as error:
        engine.dispose()
        raise BadInput(
            f"--db {url!r}: cannot open the store: {error.orig} "
            "(for SQLite, the folder of the file must exist)"
        ) from error
    return engine
