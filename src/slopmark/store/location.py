"""Where the run store is, and a read-only SQLite connection to it without SQLAlchemy.

Importing this module costs nothing beyond the standard library. Read-only
commands on a SQLite store that is already at the latest schema revision use
`read_sqlite` and skip SQLAlchemy's import (a fifth of a second); every
other case opens the store through `slopmark.store.db.open_store`.
"""

from __future__ import annotations

import sqlite3
import sys
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path

#: The store's file name, in the user data folder (`user_data_folder`).
STORE_NAME = "slopmark.db"
#: Where the store was before it moved to the user data folder: the current folder.
LEGACY_STORE = Path(STORE_NAME)
ENV_VAR = "SLOPMARK_DB"
DEFAULT_ORIGIN = "the default store"
BUSY_TIMEOUT_MS = 30_000
#: The newest migration in ``migrations/versions`` (a test keeps it in step with
#: Alembic's head): a store already there opens without loading Alembic.
HEAD_REVISION = "0013"
#: The store's migration revision, as Alembic records it.
REVISION_QUERY = "SELECT version_num FROM alembic_version"

_SQLITE_SCHEMES = ("sqlite:///", "sqlite+pysqlite:///")


@dataclass(frozen=True)
class StoreLocation:
    """The store's URL and where it came from (named in every error about it)."""

    url: str
    origin: str  # "--db", "$SLOPMARK_DB" or "the default store"


def user_data_folder(environ: Mapping[str, str], platform: str = sys.platform) -> Path:
    """slopmark's folder among the user's data, where the platform keeps them (as the
    XDG Base Directory spec, Apple's File System Programming Guide and Windows'
    Known Folders say): ``$XDG_DATA_HOME/slopmark`` (else ``~/.local/share/slopmark``),
    ``~/Library/Application Support/slopmark`` on macOS, ``%LOCALAPPDATA%\\slopmark``."""
    home = Path(environ.get("HOME") or environ.get("USERPROFILE") or Path.home())
    if platform == "win32":
        local = environ.get("LOCALAPPDATA")
        return (Path(local) if local else home / "AppData" / "Local") / "slopmark"
    if platform == "darwin":
        return home / "Library" / "Application Support" / "slopmark"
    data = environ.get("XDG_DATA_HOME", "")
    return (Path(data) if Path(data).is_absolute() else home / ".local" / "share") / "slopmark"


def default_url(environ: Mapping[str, str]) -> str:
    """The default store: ``slopmark.db`` in the `user_data_folder`, one place a user finds
    again whichever folder a command runs in."""
    return f"sqlite:///{user_data_folder(environ) / STORE_NAME}"


def as_url(value: str) -> str:
    """A database URL as given; anything else (no ``://``) is a path to a SQLite file."""
    return value if "://" in value else f"sqlite:///{value}"


def locate(flag: str | None, environ: Mapping[str, str]) -> StoreLocation:
    """The store: ``--db`` first, then ``$SLOPMARK_DB``, then `default_url`; each a URL
    or a plain path to a SQLite file."""
    if flag:
        return StoreLocation(as_url(flag), "--db")
    if environ.get(ENV_VAR):
        return StoreLocation(as_url(environ[ENV_VAR]), f"${ENV_VAR}")
    return StoreLocation(default_url(environ), DEFAULT_ORIGIN)


def database_url(flag: str | None, environ: Mapping[str, str]) -> str:
    """The store URL: ``--db`` first, then ``$SLOPMARK_DB``, then `default_url`."""
    return locate(flag, environ).url


def sqlite_file(url: str) -> Path | None:
    """The file of a plain SQLite URL (``sqlite:///path``, no query string); else None."""
    for scheme in _SQLITE_SCHEMES:
        if url.startswith(scheme) and "?" not in url:
            path = url[len(scheme) :]
            return Path(path) if path and path != ":memory:" else None
    return None


def _read_only(path: Path | None) -> sqlite3.Connection | None:
    """A read-only connection to the existing SQLite file ``path``; None if there is none."""
    if path is None or not path.is_file():
        return None
    try:
        return sqlite3.connect(f"{path.resolve().as_uri()}?mode=ro", uri=True)
    except sqlite3.Error:
        return None


def sqlite_tables(path: Path) -> list[str] | None:
    """The table names of the SQLite file at ``path``, read without writing a byte;
    None when there is no such file or it cannot be read as SQLite."""
    connection = _read_only(path)
    if connection is None:
        return None
    try:
        rows = connection.execute("SELECT name FROM sqlite_master WHERE type = 'table'")
        return sorted(name for (name,) in rows)
    except sqlite3.Error:
        return None
    finally:
        connection.close()


def read_sqlite(url: str) -> sqlite3.Connection | None:
    """A read-only connection to the SQLite store at ``url`` when it exists and is at
    `HEAD_REVISION`; None otherwise (the caller then opens it with SQLAlchemy, which
    creates, migrates or explains)."""
    connection = _read_only(sqlite_file(url))
    if connection is None:
        return None
    try:
        connection.execute(f"PRAGMA busy_timeout={BUSY_TIMEOUT_MS}")
        (revision,) = connection.execute(REVISION_QUERY).fetchone()
    except (sqlite3.Error, TypeError):
        revision = None
    if revision != HEAD_REVISION:
        connection.close()
        return None
    return connection
