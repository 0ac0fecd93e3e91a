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
from slopmark.code.measure.mainline import MAINLINE, SECOND_ROOT
from slopmark.code.measure.measure_history import HistoryReport

_LEFT = ("commit", "date", "lineage")


def history_json(report: HistoryReport) -> dict[str, Any]:
    return {
        "slopmark": __version__,
        "repo": report.repo,
        "rev": report.rev,
        "all_branches": report.all_branches,
        "rule_set": report.rule_set,
        "head": report.commits[-1].commit.sha if report.commits else None,
        "roots": list(report.roots),
        "second_roots": list(report.second_roots),
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
                "lineage": p.lineage,
                "by_scope": p.by_scope,
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


def roots_note(roots: tuple[str, ...], lineages: list[str], all_branches: bool) -> str | None:
    """The warning a history with a second root gets (None with one root): how many roots,
    which, and (every branch) how many points are off the first-parent line or from
    another root's history."""
    if len(roots) < 2:
        return None
    others = ", ".join(sha[:10] for sha in roots[1:])
    merged = f"{len(roots)} root commits: {others} started unrelated histories merged into "
    if not all_branches:
        return f"{merged}the line of {roots[0][:10]}, which every point follows"
    off = sum(1 for lineage in lineages if lineage != MAINLINE)
    foreign = lineages.count(SECOND_ROOT)
    return (
        f"{merged}the line of {roots[0][:10]}; {off} of {len(lineages)} points off the "
        f"first-parent line, {foreign} from a second root's history"
    )


def render_history(report: HistoryReport, console: Console) -> None:
    line = "every branch" if report.all_branches else "first-parent line"
    console.print(
        f"[bold]slopmark code history[/bold] {report.repo} ({report.rev}, {line}): "
        f"{len(report.commits)} of {report.candidates} commits (the source-modifying ones and "
        f"the revision's own, the last point), {report.blobs_measured} file versions measured, "
        f"rule set {report.rule_set}"
    )
    note = roots_note(report.roots, [p.lineage for p in report.commits], report.all_branches)
    if note is not None:
        console.print(f"[yellow]warning[/yellow]: {note}", highlight=False)
    table = Table()
    columns = ("#", "commit", "date", "files", "SLOC", "callables", "erosion", "verbosity")
    for column in (*columns, "lineage") if report.all_branches else columns:
        table.add_column(column, justify="left" if column in _LEFT else "right")
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
            *([p.lineage] if report.all_branches else []),
        )
    print_table(console, table, keys=2)
    if report.commits:
        last = report.commits[-1]
        console.print(f"measured:  {last.coverage.line()} at the last commit", highlight=False)
        if last.skipped:
            console.print(f"skipped:   {_skips(last.skipped)} at the last commit", highlight=False)
    console.print(f"erosion:   {_trend(report.erosion_slope, report.erosion_rose)}")
    console.print(f"verbosity: {_trend(report.verbosity_slope, report.verbosity_rose)}")
