"""A measured tree kept in the run store: the ``--json`` totals, and the record written.

`code measure --store` and the benchmark's checkpoints (each snapshot the hidden
tests ran on) keep their report the same way, so a chain page links to the very
report ``/code/{id}`` shows and its totals are those ``code measure --json``
prints. The clone members' source text is read from the measured files, only
under the measured root.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from slopmark.code.measure.bounded import CodeRecord, measure_record
from slopmark.code.measure.report import LanguageRow, TreeReport
from slopmark.code.measure.rules import Rule

if TYPE_CHECKING:
    from sqlalchemy import Engine


def summary(report: TreeReport) -> dict[str, Any]:
    """The totals of ``report`` as ``code measure --json`` prints them."""
    callables = report.callables
    complex_ = report.complex_callables()
    return {
        "files_measured": len(report.files),
        "files_skipped": len(report.skipped),
        "sloc": report.sloc,
        "callables": len(callables),
        "erosion": report.erosion,
        "verbosity": report.verbosity,
        "rule_lines": report.rule_lines,
        "clone_lines": report.clone_lines,
        "flagged_lines": report.flagged_lines,
        "complex_callables": len(complex_),
        "max_cc": max((c.cc for c in callables), default=None),
        "total_mass": sum(c.mass for c in callables),
        "complex_mass": sum(c.mass for c in complex_),
        "rules_run": report.rules_run,
        "rule_hits": len(report.hits),
        "clone_groups": len(report.clone_groups),
    }


def language_json(row: LanguageRow) -> dict[str, Any]:
    """One language's totals as ``code measure --json`` prints them."""
    return {
        "language": row.language,
        "files": row.files,
        "sloc": row.sloc,
        "callables": row.callables,
        "complex_callables": row.complex_callables,
        "erosion": row.erosion,
        "verbosity": row.verbosity,
        "rule_lines": row.rule_lines,
        "clone_lines": row.clone_lines,
        "flagged_lines": row.flagged_lines,
    }


class TreeText:
    """The lines of the measured files, read once each, only under the measured root."""

    def __init__(self, root: str) -> None:
        given = Path(root)
        self.base = (given if given.is_dir() else given.parent).resolve()
        self.lines: dict[str, list[str] | None] = {}

    def __call__(self, path: str, start: int, end: int) -> str | None:
        if path not in self.lines:
            self.lines[path] = self._read(path)
        lines = self.lines[path]
        return None if lines is None else "".join(lines[start - 1 : end])

    def _read(self, path: str) -> list[str] | None:
        target = (self.base / path).resolve()
        if not target.is_relative_to(self.base):
            return None
        try:
            return target.read_text(encoding="utf-8", errors="replace").splitlines(keepends=True)
        except OSError:
            return None


def tree_record(report: TreeReport, catalog: Sequence[Rule]) -> CodeRecord:
    """``report`` as the store keeps it; ``catalog`` explains its rules."""
    from slopmark import __version__

    languages = [language_json(row) for row in report.languages()]
    header = (__version__, summary(report))
    return measure_record(report, header, languages, catalog, TreeText(report.root))


def store_tree(engine: Engine, report: TreeReport, catalog: Sequence[Rule]) -> int:
    """Keep ``report`` in the store; its new id (the page ``/code/{id}``)."""
    from slopmark.code.measure.stored_reports import store_report

    return store_report(engine, tree_record(report, catalog))
