"""The run store: every scored or errored run, in SQLite by default or PostgreSQL by URL."""

from slopmark.store.db import DEFAULT_URL, ENV_VAR, database_url, migrate, open_store
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

__all__ = [
    "DEFAULT_URL",
    "ENV_VAR",
    "Run",
    "Series",
    "database_url",
    "errored_task_ids",
    "finished_task_ids",
    "get_run",
    "insert_run",
    "list_runs",
    "migrate",
    "open_store",
    "series_runs",
]
