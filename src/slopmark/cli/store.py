"""The run store as the commands open it: ``--db``, else ``$SLOPMARK_DB``, else the default
(``slopmark.db`` in the user data folder, `slopmark.store.location.default_url`).

A command that writes runs creates the store (`open_cli_store`, `writable`); a command
that only reads refuses a SQLite store that is not there and creates nothing, not even
a folder (`read_cli_store`, `existing`). Each store a command used is named on stderr
when the command ends (`store_notes`), with a word about a ``./slopmark.db`` left in
the current folder from before the default store moved.
"""

from __future__ import annotations

import os
import re
from pathlib import Path
from typing import TYPE_CHECKING

from slopmark.errors import BadInput
from slopmark.store.location import (
    DEFAULT_ORIGIN,
    ENV_VAR,
    LEGACY_STORE,
    StoreLocation,
    locate,
    sqlite_file,
)

if TYPE_CHECKING:
    from sqlalchemy import Engine

#: The stores this process used, by URL, in the order first used (for `store_notes`).
_used: dict[str, StoreLocation] = {}


def _remember(location: StoreLocation) -> StoreLocation:
    _used.setdefault(location.url, location)
    return location


def writable(location: StoreLocation) -> StoreLocation:
    """``location``, its folder made first when it is the default store's (the user data
    folder may not exist yet); a folder ``--db`` or ``$SLOPMARK_DB`` names is the user's
    to make."""
    path = sqlite_file(location.url)
    if location.origin == DEFAULT_ORIGIN and path is not None:
        path.parent.mkdir(parents=True, exist_ok=True)
    return _remember(location)


def existing(location: StoreLocation) -> StoreLocation:
    """``location`` if its store may be there (a SQLite file that exists, or a server's
    URL); a missing SQLite file is `BadInput` saying how to make one or name another."""
    path = sqlite_file(location.url)
    if path is not None and not path.exists():
        raise BadInput(
            f"{_missing(location, path)}: run `slopmark eval paste` or `slopmark eval run` "
            f"first, or {_instead(location)}{_legacy_hint(location)}"
        )
    return _remember(location)


def _missing(location: StoreLocation, path: Path) -> str:
    if location.origin == DEFAULT_ORIGIN:
        return f"no store at {path} ({DEFAULT_ORIGIN})"
    return f"{location.origin} {location.url!r}: no store at {path}"


def _instead(location: StoreLocation) -> str:
    """How to name a store that exists, in the words of where this one came from."""
    if location.origin == f"${ENV_VAR}":
        return f"set ${ENV_VAR} to one that exists"
    return "pass --db"


def open_cli_store(db: str | None) -> Engine:
    """The store ``--db`` (or ``$SLOPMARK_DB``, or the default) names, created if new and
    migrated; its errors name the option or the variable the URL came from."""
    from slopmark.store import open_store

    location = writable(locate(db, os.environ))
    return open_store(location.url, location.origin)


def read_location(db: str | None) -> StoreLocation:
    """The store a read command uses, refused (creating nothing) when it is not there."""
    return existing(locate(db, os.environ))


def read_cli_store(db: str | None) -> Engine:
    """The existing store a read command names, opened (and migrated if older)."""
    from slopmark.store import open_store

    location = read_location(db)
    return open_store(location.url, location.origin)


def shown(url: str) -> str:
    """A store as a person reads it: a SQLite file's path, else the URL less its password."""
    path = sqlite_file(url)
    if path is not None:
        return str(path)
    return re.sub(r"(://[^:/@]+):[^@]*@", r"\1:***@", url)


def _legacy_store(location: StoreLocation) -> Path | None:
    """``./slopmark.db`` when the default store is used elsewhere and that file is here."""
    if location.origin != DEFAULT_ORIGIN or not LEGACY_STORE.is_file():
        return None
    default = sqlite_file(location.url)
    if default is not None and default.absolute() == LEGACY_STORE.absolute():
        return None
    return LEGACY_STORE


def legacy_note(location: StoreLocation) -> str | None:
    """One line on a ``./slopmark.db`` in this folder that the default store no longer
    is, and how to keep using it; None when there is none."""
    if _legacy_store(location) is None:
        return None
    return (
        f"./{LEGACY_STORE} here is not used any more (the default store is now "
        f"{shown(location.url)}): pass --db ./{LEGACY_STORE} or set SLOPMARK_DB=./{LEGACY_STORE} "
        "to use it, or move it there"
    )


def _legacy_hint(location: StoreLocation) -> str:
    if _legacy_store(location) is None:
        return ""
    return f"; ./{LEGACY_STORE} here is the old default store: pass --db ./{LEGACY_STORE} to use it"


def store_notes() -> list[str]:
    """A line naming each store this command used (and where it came from), then the
    note on a left-over ``./slopmark.db``; each said once."""
    lines = [f"store: {shown(url)} ({where.origin})" for url, where in _used.items()]
    lines += [note for where in _used.values() if (note := legacy_note(where))]
    _used.clear()
    return lines
