"""The run store: every scored or errored run, in SQLite by default or PostgreSQL by URL.

The SQLAlchemy-backed names load on first use, so a read that needs only
`slopmark.store.location` (the board on a SQLite store) never imports SQLAlchemy.
"""

from __future__ import annotations

from importlib import import_module
from typing import TYPE_CHECKING, Any

from slopmark.store.location import ENV_VAR, database_url, default_url

if TYPE_CHECKING:
    from slopmark.store.db import migrate, open_store
    from slopmark.store.runs import (
        Run,
        Series,
        errored_task_ids,
        finished_task_ids,
        get_run,
        insert_run,
        list_runs,
        series_runs,
    )

#: the module of each name loaded on first use
_LAZY = {"migrate": "db", "open_store": "db"}

__all__ = [
    "ENV_VAR",
    "Run",
    "Series",
    "database_url",
    "default_url",
    "errored_task_ids",
    "finished_task_ids",
    "get_run",
    "insert_run",
    "list_runs",
    "migrate",
    "open_store",
    "series_runs",
]


def __getattr__(name: str) -> Any:
    if name not in __all__:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    return getattr(import_module(f"{__name__}.{_LAZY.get(name, 'runs')}"), name)
