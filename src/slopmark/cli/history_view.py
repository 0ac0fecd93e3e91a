"""`HistoryReport` → terminal table and JSON."""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from typing import Any

from rich.console import Console
from rich.table import Table

from slopmark import __version__
from slopmark.cli.code_report import fmt_ratio
from slopmark.cli.tables import print_table
from slopmark.code.measure.fileanalysis import Skipped
from slopmark.code.measure.measure_history import HistoryReport


def history_json(report: HistoryReport) -> dict[str, Any]:
    return {
        "slopmark": __version__,
        "repo": report.repo,
        "rev": report.rev,
        "source_commits": report.candidates,
        "blobs_measured": report.blobs_measured,
        "erosion_slope": report.erosion_slope,
        "verbosity_slope": report.verbosity_slope,
        "erosion_rose": report.erosion_rose,
        "verbosity_rose": report.verbosity_rose,
        "languages": list(report.languages),
        "scopes": list(report.scopes),
        "commits": [
            {
                "sha": p.commit.sha,
                "date": p.commit.date,
                "subject": p.commit.subject,
                "files": p.files,
                "sloc": p.sloc,
                "callables": p.callables,
                "complex_callables": p.complex_callables,
                "erosion": p.erosion,
                "verbosity": p.verbosity,
                "files_by_scope": dict(p.coverage.kept),
                "excluded": {
                    "by_language": dict(p.coverage.by_language),
                    "by_scope": dict(p.coverage.by_scope),
                },
                "skipped": [{"path": s.path, "reason": s.reason} for s in p.skipped],
            }
            for p in report.commits
        ],
    }


def _skips(skipped: Sequence[Skipped]) -> str:
    """``3 files (Go: the go tool ignores vendor/ ...), 1 file (...)``: the skips by reason."""
    reasons = Counter(s.reason for s in skipped)
    return ", ".join(f"{n} file{'s' if n > 1 else ''} ({why})" for why, n in reasons.items())


def _trend(slope: float | None, rose: bool | None) -> str:
    if slope is None:
        return "undefined (fewer than 2 measured commits)"
    return f"slope {slope:+.5f} per commit, {'rose' if rose else 'did not rise'} first to last"


def render_history(report: HistoryReport, console: Console) -> None:
    console.print(
        f"[bold]slopmark code history[/bold] {report.repo} ({report.rev}): "
        f"{len(report.commits)} of {report.candidates} source-modifying commits, "
        f"{report.blobs_measured} file versions measured"
    )
    table = Table()
    for column in ("#", "commit", "date", "files", "SLOC", "callables", "erosion", "verbosity"):
        table.add_column(column, justify="right" if column not in ("commit", "date") else "left")
    for index, p in enumerate(report.commits):
        table.add_row(
            str(index),
            p.commit.sha[:10],
            p.commit.date[:10],
            str(p.files),
            str(p.sloc),
            str(p.callables),
            fmt_ratio(p.erosion, p.callables),
            fmt_ratio(p.verbosity, p.sloc),
        )
    print_table(console, table, keys=2)
    if report.commits:
        last = report.commits[-1]
        console.print(f"measured:  {last.coverage.line()} at the last commit", highlight=False)
        if last.skipped:
            console.print(f"skipped:   {_skips(last.skipped)} at the last commit", highlight=False)
    console.print(f"erosion:   {_trend(report.erosion_slope, report.erosion_rose)}")
    console.print(f"verbosity: {_trend(report.verbosity_slope, report.verbosity_rose)}")
