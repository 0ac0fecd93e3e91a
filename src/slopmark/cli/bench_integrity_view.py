"""The integrity section of ``code bench report``: what each checkpoint's workspace held
that aims at its own evaluation, and how the evaluation was sealed against it."""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from typing import Any

from rich.console import Console
from rich.markup import escape
from rich.table import Table

from slopmark.cli.tables import print_table
from slopmark.code.bench.results import CheckpointResult
from slopmark.plurals import count


def _rows(results: Sequence[CheckpointResult]) -> list[list[str]]:
    rows = []
    for result in results:
        for finding in result.integrity.findings if result.integrity else ():
            cells = [result.problem, result.checkpoint, finding.kind, finding.path or "–",
                     finding.detail, finding.effect]  # fmt: skip
            rows.append([escape(cell) for cell in cells])
    return rows


def _unguarded(results: Sequence[CheckpointResult]) -> list[CheckpointResult]:
    return [r for r in results if r.integrity is not None and r.integrity.guarded is False]


def print_integrity(console: Console, results: Sequence[CheckpointResult]) -> None:
    """The findings table (or one line saying there were none) and the isolation line."""
    rows = _rows(results)
    if rows:
        table = Table(title="Integrity: what the workspaces held aimed at their evaluation")
        for name in ("problem", "checkpoint", "kind", "path", "what", "effect"):
            table.add_column(name)
        for row in rows:
            table.add_row(*row)
        print_table(console, table, keys=2)
    else:
        console.print("integrity: no workspace held anything aimed at its evaluation")
    unguarded = _unguarded(results)
    if unguarded:
        console.print(
            f"integrity: in {count(len(unguarded), 'checkpoint')} the submission ran without "
            "a sandbox of its own (this backend cannot nest one): it could read the hidden "
            "tests' code"
        )


def integrity_json(results: Sequence[CheckpointResult]) -> dict[str, Any]:
    """The run's integrity summary: findings by kind, and the checkpoints left unguarded."""
    kinds = Counter(
        finding.kind for r in results if r.integrity for finding in r.integrity.findings
    )
    return {
        "findings": sum(kinds.values()),
        "by_kind": dict(sorted(kinds.items())),
        "unguarded": [f"{r.problem}/{r.checkpoint}" for r in _unguarded(results)],
    }
