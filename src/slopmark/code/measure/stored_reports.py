"""Code reports in the run store: written by ``code measure|history --store``, read by the
web app's ``/code`` pages.

A report is written in one transaction (its header, then its bounded rows, see
`slopmark.code.measure.bounded`). Every read names one report by its id and walks
that report's rows through their primary keys (report id first), so a page costs the
same however many reports the store holds.
"""

from __future__ import annotations

from dataclasses import fields
from datetime import UTC, datetime
from typing import Any

from sqlalchemy import Engine, Table, insert, select

from slopmark.code.measure.bounded import CodeRecord
from slopmark.store.schema import (
    code_report_callables,
    code_report_clone_members,
    code_report_clones,
    code_report_commits,
    code_report_hits,
    code_report_languages,
    code_report_rules,
    code_reports,
)

Row = dict[str, Any]
#: Each `CodeRecord` field of rows, and the table that holds them.
_CHILDREN: dict[str, Table] = {
    "languages": code_report_languages,
    "callables": code_report_callables,
    "rules": code_report_rules,
    "hits": code_report_hits,
    "clones": code_report_clones,
    "members": code_report_clone_members,
    "commits": code_report_commits,
}
#: Reports listed on a page of ``/code``.
PAGE = 50
#: Hits shown under each rule on a report's page (the rule's own page has the rest).
PREVIEW_HITS = 5


def store_report(engine: Engine, record: CodeRecord) -> int:
    """Write ``record`` and return its new id."""
    header = {name.name: getattr(record, name.name) for name in fields(record)[:7]}
    header["slopmark_version"] = header.pop("version")
    header["created_at"] = datetime.now(UTC)
    with engine.begin() as connection:
        query = insert(code_reports).values(header).returning(code_reports.c.id)
        report_id = int(connection.execute(query).scalar_one())
        for name, table in _CHILDREN.items():
            rows = [{"report_id": report_id, **row} for row in getattr(record, name)]
            if rows:
                connection.execute(insert(table), rows)
    return report_id


def _all(engine: Engine, query: Any) -> list[Row]:
    with engine.connect() as connection:
        return [dict(row._mapping) for row in connection.execute(query)]


def _one(engine: Engine, query: Any) -> Row | None:
    rows = _all(engine, query.limit(1))
    return rows[0] if rows else None


def list_reports(engine: Engine, before: int | None = None, limit: int = PAGE) -> list[Row]:
    """Up to ``limit`` reports newest first, all older than id ``before`` when given."""
    query = select(code_reports).order_by(code_reports.c.id.desc()).limit(limit)
    if before is not None:
        query = query.where(code_reports.c.id < before)
    return _all(engine, query)


def get_report(engine: Engine, report_id: int) -> Row | None:
    """The header of report ``report_id``; None when the store has no such report."""
    return _one(engine, select(code_reports).where(code_reports.c.id == report_id))


def rows_of(engine: Engine, table: Table, report_id: int) -> list[Row]:
    """Every row of ``table`` for the report, in primary-key order."""
    keys = [c.name for c in table.primary_key.columns][1:]
    query = select(table).where(table.c.report_id == report_id)
    return _all(engine, query.order_by(*(table.c[key] for key in keys)))


def preview_hits(engine: Engine, report_id: int) -> dict[str, list[Row]]:
    """The first `PREVIEW_HITS` hits of each rule of the report, by rule."""
    t = code_report_hits
    query = (
        select(t)
        .where(t.c.report_id == report_id, t.c.position < PREVIEW_HITS)
        .order_by(t.c.rule, t.c.position)
    )
    found: dict[str, list[Row]] = {}
    for row in _all(engine, query):
        found.setdefault(row["rule"], []).append(row)
    return found


def _keyed(engine: Engine, table: Table, report_id: int, **equal: object) -> Row | None:
    """The report's row of ``table`` whose columns hold the ``equal`` values."""
    clauses = [table.c[name] == value for name, value in equal.items()]
    return _one(engine, select(table).where(table.c.report_id == report_id, *clauses))


def get_rule(engine: Engine, report_id: int, rule: str) -> Row | None:
    return _keyed(engine, code_report_rules, report_id, rule=rule)


def rule_hits(engine: Engine, report_id: int, rule: str) -> list[Row]:
    """The stored hits of one rule, in file order."""
    t = code_report_hits
    query = select(t).where(t.c.report_id == report_id, t.c.rule == rule).order_by(t.c.position)
    return _all(engine, query)


def get_clone(engine: Engine, report_id: int, rank: int) -> Row | None:
    return _keyed(engine, code_report_clones, report_id, rank=rank)


def clone_members(engine: Engine, report_id: int, rank: int) -> list[Row]:
    t = code_report_clone_members
    query = select(t).where(t.c.report_id == report_id, t.c.rank == rank).order_by(t.c.position)
    return _all(engine, query)


def get_commit(engine: Engine, report_id: int, sha: str) -> Row | None:
    """A history's commit by its full sha (the first measured, if it was measured twice)."""
    t = code_report_commits
    query = select(t).where(t.c.report_id == report_id, t.c.sha == sha).order_by(t.c.position)
    return _one(engine, query)


def commit_at(engine: Engine, report_id: int, position: int) -> Row | None:
    return _keyed(engine, code_report_commits, report_id, position=position)


def commit_series(engine: Engine, report_id: int) -> list[Any]:
    """A history's (position, sha, erosion, verbosity) per commit, in order: what its
    trajectory is drawn from, read as light mappings (a history may hold thousands)."""
    t = code_report_commits
    query = (
        select(t.c.position, t.c.sha, t.c.erosion, t.c.verbosity)
        .where(t.c.report_id == report_id)
        .order_by(t.c.position)
    )
    with engine.connect() as connection:
        return list(connection.execute(query).mappings())


def commit_page(engine: Engine, report_id: int, start: int, count: int) -> list[Row]:
    """A history's commits from position ``start``, at most ``count`` of them."""
    t = code_report_commits
    query = (
        select(t)
        .where(t.c.report_id == report_id, t.c.position >= start, t.c.position < start + count)
        .order_by(t.c.position)
    )
    return _all(engine, query)
