"""The stored code reports behind ``/code`` and ``/api/code``: one report's parts, looked up
by the ids in a URL.

A URL's id that names nothing raises `Missing` (a 404 page, or a 404 in the API); an id
that is not even the right shape is `slopmark.errors.BadInput` (400). Every read goes
through `slopmark.code.measure.stored_reports`, keyed by the report's id.
"""

from __future__ import annotations

from typing import Any

from sqlalchemy import Engine

from slopmark.code.measure import stored_reports as stored
from slopmark.errors import BadInput
from slopmark.store.schema import (
    code_report_callables,
    code_report_clones,
    code_report_commits,
    code_report_languages,
    code_report_rules,
)

Row = dict[str, Any]
#: Ids and ranks in URLs: a positive integer of at most this many digits.
MAX_DIGITS = 18


class Missing(LookupError):
    """A URL names a report, rule, clone group or commit the store does not hold."""


def number(value: str, what: str) -> int:
    """``value`` of a URL as a whole number ≥ 0, else `BadInput` naming ``what``."""
    if not value.isascii() or not value.isdigit() or len(value) > MAX_DIGITS:
        raise BadInput(f"{what} {value!r}: must be a whole number such as 1")
    return int(value)


def _found(row: Row | None, missing: str) -> Row:
    """``row``, or `Missing` saying what the URL named that the store lacks."""
    if row is None:
        raise Missing(missing)
    return row


def report(engine: Engine, report_id: str) -> Row:
    """The header of the report a URL names."""
    found = stored.get_report(engine, number(report_id, "code report"))
    return _found(found, f"no code report has id {report_id}; see /code for the stored ones")


def listing(engine: Engine, before: str | None) -> tuple[list[Row], int | None]:
    """A page of reports, newest first, and the id to pass as ``before`` for the next."""
    start = number(before, "before") if before else None
    rows = stored.list_reports(engine, start, stored.PAGE + 1)
    more = rows[stored.PAGE - 1]["id"] if len(rows) > stored.PAGE else None
    return rows[: stored.PAGE], more


def parts(engine: Engine, header: Row) -> Row:
    """Everything a report's page shows, for a measured tree or a history."""
    key = header["id"]
    if header["kind"] == "history":
        return {"commits": stored.rows_of(engine, code_report_commits, key)}
    rules = stored.rows_of(engine, code_report_rules, key)
    rules.sort(key=lambda row: (-row["lines"], row["rule"]))
    return {
        "languages": stored.rows_of(engine, code_report_languages, key),
        "callables": stored.rows_of(engine, code_report_callables, key),
        "rules": rules,
        "previews": stored.preview_hits(engine, key),
        "clones": stored.rows_of(engine, code_report_clones, key),
    }


def history(engine: Engine, header: Row, start: int, count: int) -> Row:
    """A history's page: every commit's values for the chart, and one page of the table."""
    return {
        "series": stored.commit_series(engine, header["id"]),
        "page_commits": stored.commit_page(engine, header["id"], start, count),
    }


def rule(engine: Engine, header: Row, rule_id: str) -> tuple[Row, list[Row]]:
    """One rule of the report and its stored hits."""
    found = _found(
        stored.get_rule(engine, header["id"], rule_id),
        f"code report {header['id']} has no hit of rule {rule_id!r}",
    )
    return found, stored.rule_hits(engine, header["id"], rule_id)


def clone(engine: Engine, header: Row, rank: str) -> tuple[Row, list[Row]]:
    """One clone group of the report and its stored members."""
    found = _found(
        stored.get_clone(engine, header["id"], number(rank, "clone group")),
        f"code report {header['id']} stores no clone group {rank}",
    )
    return found, stored.clone_members(engine, header["id"], found["rank"])


def commit(engine: Engine, header: Row, sha: str) -> tuple[Row, Row | None, Row | None]:
    """One commit of a history, with the measured commits before and after it."""
    found = _found(
        stored.get_commit(engine, header["id"], sha) if len(sha) <= 64 else None,
        f"code report {header['id']} measured no commit {sha!r}",
    )
    position = found["position"]
    before = stored.commit_at(engine, header["id"], position - 1) if position else None
    return found, before, stored.commit_at(engine, header["id"], position + 1)
