"""`HistoryReport` → terminal table and JSON."""

from __future__ import annotations

from typing import Any

from rich.console import Console
from rich.table import Table

from slopmark import __version__
from slopmark.cli.code_report import fmt_ratio
from slopmark.cli.tables import print_table
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
            }
            for p in report.commits
        ],
    }


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
    console.print(f"erosion:   {_trend(report.erosion_slope, report.erosion_rose)}")
    console.print(f"verbosity: {_trend(report.verbosity_slope, report.verbosity_rose)}")
