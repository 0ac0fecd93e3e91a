"""The store and board reads behind the API and the pages: thin adapters over `slopmark.board`.

Every leaderboard rule lives in `slopmark.board`; this module only picks the
runs (by domain and source), asks the board for its tables, and lists
recent runs newest first.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from sqlalchemy import Engine, select

from slopmark.board import query
from slopmark.board.grouprows import EngineRows, stream_group_runs
from slopmark.board.leaderboard import TASK_SETS, Board
from slopmark.board.leaderboard import boards as group_boards
from slopmark.board.query import RunFilter, known_domain
from slopmark.errors import BadInput
from slopmark.evals.task import DOMAINS, SOURCES
from slopmark.store.schema import runs

MAX_LIST = 1000
#: a run listing leaves out the long fields; ``GET /api/runs/{id}`` has them
_LISTED = [column for column in runs.c if column.name not in ("output", "details")]


def run_filter(engine: Engine, domain: str | None, source: str | None = None) -> RunFilter:
    """Runs of ``domain`` and ``source`` (None: any); unknown values raise `BadInput`.

    A domain is known when it is an eval domain or has runs in the store.
    """
    if domain is not None:
        known_domain(engine, domain)
    if source is not None and source not in SOURCES:
        raise BadInput(f"source {source!r}: must be one of {', '.join(SOURCES)}")
    return RunFilter(domain=domain, source=source)


def check_tasks(tasks: str) -> str:
    if tasks not in TASK_SETS:
        raise BadInput(f"tasks {tasks!r}: must be one of {', '.join(TASK_SETS)}")
    return tasks


def boards(engine: Engine, where: RunFilter, tasks: str = "common") -> list[Board]:
    """The leaderboards of the matching runs, one per board group."""
    return list(board_stream(engine, where, tasks))


def board_stream(engine: Engine, where: RunFilter, tasks: str = "common") -> Iterator[Board]:
    """The leaderboards of the matching runs, read and computed one board group at a time
    (the board's fast read, `slopmark.board.grouprows`)."""
    return group_boards(stream_group_runs(EngineRows(engine), where), check_tasks(tasks))


def stored_domains(engine: Engine) -> list[str]:
    """The domains that have runs in the store, sorted."""
    return query.stored_domains(engine)


def domain_tabs(engine: Engine) -> list[str]:
    """The eval domains in their usual order, then any other domain with runs."""
    return list(DOMAINS) + [d for d in stored_domains(engine) if d not in DOMAINS]


def recent_runs(engine: Engine, limit: int, **equal: str | None) -> list[dict[str, Any]]:
    """At most ``limit`` runs whose columns equal the given values (None: any), newest first."""
    if not 1 <= limit <= MAX_LIST:
        raise BadInput(f"limit {limit}: must be between 1 and {MAX_LIST}")
    clauses = [runs.c[name] == value for name, value in equal.items() if value is not None]
    query = select(*_LISTED).where(*clauses).order_by(runs.c.id.desc()).limit(limit)
    with engine.connect() as connection:
        return [dict(row._mapping) for row in connection.execute(query)]
