"""``--store`` of ``code measure`` and ``code history``: keep the report in the run store.

The report goes in as `slopmark.code.measure.bounded` cuts it, built from the same
summary and rows ``--json`` prints; the clone groups' members take their source text
from the measured files (read here, the adapter). The stored report's id and the path
of its page (``/code/ID`` of ``slopmark serve``) go to stderr, so ``--json`` output on
stdout stays one JSON document.
"""

from __future__ import annotations

import sys
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

import typer

from slopmark.cli.options import DB_HELP
from slopmark.errors import BadInput

if TYPE_CHECKING:
    from sqlalchemy import Engine

    from slopmark.code.measure.bounded import CodeRecord
    from slopmark.code.measure.measure_history import HistoryReport
    from slopmark.code.measure.metrics import Settings
    from slopmark.code.measure.report import TreeReport
    from slopmark.code.measure.rules import Rule

STORE = typer.Option(
    False,
    "--store",
    help="Keep the report in the run store (see --db) for `slopmark serve`'s /code pages.",
)
DB = typer.Option(
    None, "--db", help=f"With --store: {DB_HELP}"
)


def report_store(store: bool, db: str | None) -> Engine | None:
    """The store ``--store`` writes to, opened before any work so that a bad ``--db``
    costs nothing (None without ``--store``; ``--db`` without it is refused: it would be
    ignored)."""
    if not store:
        if db is not None:
            raise BadInput(f"--db {db!r}: only --store writes to the store; add --store")
        return None
    from slopmark.cli.store import open_cli_store

    return open_cli_store(db)


def store_measure(report: TreeReport, engine: Engine, catalog: Sequence[Rule]) -> int:
    """Keep a measured tree, its totals as ``--json`` prints them."""
    from slopmark.code.measure.tree_store import tree_record

    return _store(tree_record(report, catalog), engine)


def store_history(
    report: HistoryReport, history: dict[str, Any], settings: Settings, engine: Engine
) -> int:
    """Keep a history; ``history``: its ``--json`` object."""
    from slopmark import __version__
    from slopmark.code.measure.bounded import history_record

    chosen = {"cc_threshold": settings.cc_threshold, "size_term": settings.size_term,
              "rule_set": settings.rule_set}  # fmt: skip
    record = history_record(report.repo, report.rev, __version__, history, chosen)
    return _store(record, engine)


def _store(record: CodeRecord, engine: Engine) -> int:
    from slopmark.code.measure.stored_reports import store_report

    try:
        report_id = store_report(engine, record)
    finally:
        engine.dispose()
    print(f"slopmark: stored code report {report_id}: /code/{report_id}", file=sys.stderr)
    return report_id
