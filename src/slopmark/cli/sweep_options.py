"""The options and checks every sweep command shares: executor, cluster, store, exit.

Imported by the command modules, so it loads nothing heavy until a sweep runs.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any

import typer

from slopmark.cli.options import DB_HELP
from slopmark.errors import BadInput
from slopmark.store.location import StoreLocation, locate, sqlite_file

if TYPE_CHECKING:
    from slopmark.executor import Executor
    from slopmark.sweep.drive import Tally

EXECUTOR = typer.Option(
    "local", "--executor", help="Where units run: local (a process pool) or ray (a Ray cluster)."
)
ADDRESS = typer.Option(
    None,
    "--address",
    help="The Ray cluster to join: auto (the one started on this machine), HOST:PORT or "
    "ray://HOST:PORT; without it --executor ray starts Ray here.",
)
JOBS = typer.Option(
    0, "--jobs", min=0, help="Local worker processes, or CPUs of a Ray started here (0: per core)."
)
DB = typer.Option(
    None, "--db", help=DB_HELP
)
#: the exit code of a sweep stopped with Ctrl-C (128 + SIGINT)
CANCELLED = 130


def shared_store(flag: str | None) -> StoreLocation:
    """The store ``--db`` or ``$SLOPMARK_DB`` names, at a URL workers can open too (a
    relative SQLite path made absolute); errors about it name where it came from."""
    store = locate(flag, os.environ)
    path = sqlite_file(store.url)
    if path is not None and not path.is_absolute():
        return StoreLocation(f"sqlite:///{path.resolve()}", store.origin)
    return store


def check_shared_store(store: StoreLocation, executor: Executor) -> None:
    """Refuse a SQLite file when units may run on several machines."""
    nodes = executor.node_count()
    if store.url.startswith("sqlite") and nodes > 1:
        raise BadInput(
            f"{store.origin} {store.url!r}: a SQLite file cannot be shared by the {nodes} nodes "
            "of the Ray cluster; pass --db postgresql+psycopg://user@host/db "
            "(README: Running on a cluster)"
        )


def check_where(executor: str, address: str | None) -> None:
    """Refuse, before any input is read, an unknown executor and an address only Ray uses."""
    from slopmark.executor import executor_factory

    executor_factory(executor)
    if address is not None and executor == "local":
        raise BadInput(
            f"--address {address!r}: only --executor ray joins a cluster; "
            "add --executor ray or drop --address"
        )


def open_sweep(
    name: str, address: str | None, jobs: int, store: StoreLocation | None
) -> Executor:
    """The executor, connected; with a ``store``, checked to be shareable by the
    executor's nodes and brought up to date here (before its workers open it at once)."""
    from slopmark.cli.store import writable
    from slopmark.executor import open_executor
    from slopmark.store.db import open_store

    executor = open_executor(name, address=address, jobs=jobs)
    try:
        if store is not None:
            check_shared_store(store, executor)
            writable(store)  # the default store's folder made, the store named at the end
            open_store(store.url, store.origin).dispose()
    except BaseException:
        executor.close()
        raise
    return executor


def masked(url: str) -> str:
    """``url`` without its password (what a folder may keep)."""
    from sqlalchemy.engine import make_url

    return make_url(url).render_as_string(hide_password=True)


def print_ending(tally: Tally, what: str) -> None:
    """Say on stderr what a cancelled sweep left, or which units failed."""
    if tally.cancelled:
        done = len(tally.finished)
        print(
            f"slopmark: cancelled: {done} of {tally.units} {what} finished and are kept; "
            "run the same command again to resume",
            file=sys.stderr,
        )
    for failure in tally.failed:
        where = f" (node {failure.node})" if failure.node else ""
        print(f"slopmark: failed: {failure.key}{where}: {failure.error}", file=sys.stderr)


def exit_code(tally: Tally, extra_failures: int = 0) -> int:
    """130 when cancelled, 1 when a unit failed, else 0."""
    if tally.cancelled:
        return CANCELLED
    return 1 if tally.failed or extra_failures else 0


def folder_record(folder: Path, key: str, wanted: dict[str, Any]) -> dict[str, Any]:
    """Read ``folder/<key>.json`` or create it; BadInput when it names another sweep."""
    import json

    path = folder / f"{key}.json"
    before: dict[str, Any] = {}
    if path.is_file():
        try:
            before = json.loads(path.read_text(encoding="utf-8"))
        except (OSError, ValueError) as error:
            raise BadInput(f"{path}: unreadable ({error}); pass another --out") from None
        if before.get("id") != wanted["id"]:
            raise BadInput(
                f"{path}: this folder holds {key} {before.get('id')!r}, not {wanted['id']!r}; "
                "run with the same REPOS file and options, or pass another --out"
            )
    folder.mkdir(parents=True, exist_ok=True)
    record = {**wanted, **{k: v for k, v in before.items() if k == "started"}}
    path.write_text(json.dumps(record, indent=1) + "\n", encoding="utf-8")
    return record
