"""`DiffReport` → terminal text, JSON and pull-request markdown."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any
from urllib.parse import quote

from slopmark import __version__
from slopmark.code.measure.compare import (
    CC_FALL,
    CC_RISE,
    NEW_CLONES,
    NEW_COMPLEX,
    NEW_HITS,
    NEW_SUPPRESSIONS,
    REMOVED_CLONES,
    REMOVED_COMPLEX,
    REMOVED_HITS,
    REMOVED_SUPPRESSIONS,
    Change,
    DiffReport,
)
from slopmark.code.measure.fileanalysis import Skipped
from slopmark.code.measure.languages import language_of_path
from slopmark.plurals import count

if TYPE_CHECKING:
    from rich.console import Console

#: Totals shown in the text and markdown summaries (label, name, format).
SHOWN = (
    ("files", "files", "d"),
    ("SLOC", "sloc", "d"),
    ("callables", "callables", "d"),
    ("complex callables", "complex_callables", "d"),
    ("erosion", "erosion", ".3f"),
    ("verbosity", "verbosity", ".3f"),
    ("rule lines", "rule_lines", "d"),
    ("clone lines", "clone_lines", "d"),
)


def describe(change: Change, threshold: int) -> str:
    """One line saying what changed."""
    f = change.finding
    texts = {
        NEW_COMPLEX: f"`{f.subject}` is new and too complex (CC {change.after} > {threshold})",
        CC_RISE: f"`{f.subject}` CC {change.before} → {change.after}"
        + (f" (crossed {threshold})" if (change.before or 0) <= threshold else ""),
        NEW_HITS: f"{f.rule}: {f.message}",
        NEW_CLONES: f.message,
        REMOVED_COMPLEX: f"`{f.subject}` (CC {change.before}) is gone",
        CC_FALL: f"`{f.subject}` CC {change.before} → {change.after}",
        REMOVED_HITS: f"{f.rule} no longer hits: {f.message}",
        REMOVED_CLONES: f"no longer duplicated: {f.message}",
        NEW_SUPPRESSIONS: f.message,
        REMOVED_SUPPRESSIONS: f.message,
    }
    return texts[change.kind]


def _value(value: float | int | None, spec: str) -> str:
    return "-" if value is None else format(value, spec)


def _delta(before: float | int | None, after: float | int | None, spec: str) -> str:
    if before is None or after is None:
        return "-"
    return format(after - before, "+" + spec)


def change_json(change: Change, threshold: int) -> dict[str, Any]:
    f = change.finding
    return {
        "kind": change.kind,
        "path": f.path,
        "line": f.start,
        "end": f.end,
        "rule": f.rule,
        "subject": f.subject if f.kind != "clone" else f.context,
        "message": describe(change, threshold),
        "cc_before": change.before,
        "cc_after": change.after,
        "fingerprint": f.fingerprint,
    }


def diff_json(report: DiffReport) -> dict[str, Any]:
    t = report.cc_threshold
    return {
        "slopmark": __version__,
        "base": report.base,
        "head": report.head,
        "cc_threshold": t,
        "rule_set": report.rule_set,
        "languages": list(report.languages),
        "scopes": list(report.scopes),
        "measured": {"base": report.coverage[0].to_json(), "head": report.coverage[1].to_json()},
        "totals": {
            name: {"before": b, "after": a, "delta": None if b is None or a is None else a - b}
            for name, (b, a) in report.totals.items()
        },
        "files": [
            {
                "path": r.path,
                "old_path": r.old_path,
                "status": r.status,
                "language": language_of_path(r.path),
                "sloc": list(r.sloc),
                "erosion": list(r.erosion),
                "verbosity": list(r.verbosity),
                "added": r.added,
                "removed": r.removed,
            }
            for r in report.files
        ],  # fmt: skip
        "added": [change_json(c, t) for c in report.added],
        "removed": [change_json(c, t) for c in report.removed],
        "skipped": [{"path": s.path, "reason": s.reason} for s in report.skipped],
        "suppressed_by_baseline": report.suppressed,
    }


def render_diff(report: DiffReport, console: Console, top: int) -> None:
    """The human report: totals before → after, then what was added and removed."""
    from rich.table import Table

    from slopmark.cli.tables import print_table

    console.print(f"[bold]slopmark code diff[/bold] {report.base} → {report.head}", highlight=False)
    console.print(
        f"measured: {report.coverage[1].line()} in the head; rule set {report.rule_set}",
        highlight=False,
    )
    table = Table(box=None, pad_edge=False)
    for column in ("", "before", "after", "Δ"):
        table.add_column(column, justify="right" if column else "left")
    for label, name, spec in SHOWN:
        before, after = report.totals[name]
        table.add_row(label, _value(before, spec), _value(after, spec), _delta(before, after, spec))
    print_table(console, table)
    _changes(console, "new slop", report.added, report.cc_threshold, top, "red")
    _changes(console, "removed slop", report.removed, report.cc_threshold, top, "green")
    if report.suppressed:
        console.print(
            f"{count(report.suppressed, 'finding')} left out: in the baseline", highlight=False
        )
    if top and report.files:
        _files(console, report, top)
    if not report.added and not report.removed:
        console.print("no slop added or removed", highlight=False)
    for s in report.skipped:
        console.print(f"[yellow]skipped[/yellow] {s.path}: {s.reason}", highlight=False)


def _changes(
    console: Console, title: str, changes: Sequence[Change], threshold: int, top: int, colour: str
) -> None:
    if not changes:
        return
    console.print(f"[bold {colour}]{title}[/bold {colour}] ({len(changes)})", highlight=False)
    for change in changes[: top or len(changes)]:
        _change(console, change, threshold)
    if top and len(changes) > top:
        console.print(f"  and {len(changes) - top} more (--top, --json)", highlight=False)


def _change(console: Console, change: Change, threshold: int) -> None:
    """One change on one line when it fits the console; else its kind and place, then what
    it is on lines of their own, indented (a long path is folded, never cut)."""
    from rich.padding import Padding
    from rich.text import Text

    f = change.finding
    where, what = f"  {change.kind:16} {f.path}:{f.start}", describe(change, threshold)
    if len(where) + 2 + len(what) <= console.width:
        console.print(Text(f"{where}  {what}"), highlight=False)
        return
    console.print(Text(where, overflow="fold"), highlight=False)
    console.print(Padding(Text(what, overflow="fold"), (0, 0, 0, 6)), highlight=False)


def _files(console: Console, report: DiffReport, top: int) -> None:
    from rich.table import Table

    from slopmark.cli.tables import print_table

    table = Table(title="changed files", title_justify="left")
    for column in ("file", "status", "SLOC", "erosion", "verbosity", "+", "-"):
        table.add_column(column, justify="left" if column in ("file", "status") else "right")
    for row in report.files[:top]:
        name = f"{row.old_path} → {row.path}" if row.old_path else row.path
        table.add_row(
            name, row.status,
            _pair(row.sloc, "d"), _pair(row.erosion, ".3f"), _pair(row.verbosity, ".3f"),
            str(row.added), str(row.removed),
        )  # fmt: skip
    print_table(console, table)


def _pair(values: tuple[float | int | None, float | int | None], spec: str) -> str:
    before, after = values
    if before == after:
        return _value(after, spec)
    return f"{_value(before, spec)} → {_value(after, spec)}"


# markdown -------------------------------------------------------------------------------


def _findings(n: int) -> str:
    return "finding" if n == 1 else "findings"


def _cell(text: str) -> str:
    return text.replace("|", "\\|").replace("\n", " ")


def _link(path: str, line: int, link_base: str) -> str:
    return f"[{_cell(path)}:{line}]({link_base}{quote(path, safe='/')}#L{line})"


#: Where on a stored report's page (``/code/{id}``) each kind of new finding is listed.
_ON_REPORT = {NEW_COMPLEX: "#callables", CC_RISE: "#callables", NEW_CLONES: "#clones"}


def _kind_cell(change: Change, report_url: str) -> str:
    """A finding's kind, linked to where the head side's stored report lists its kind."""
    if not report_url:
        return change.kind
    if change.kind == NEW_HITS:
        return f"[{change.kind}]({report_url}/rules/{quote(change.finding.rule, safe='')})"
    anchor = _ON_REPORT.get(change.kind)
    return f"[{change.kind}]({report_url}{anchor})" if anchor else change.kind


def _report_line(report_url: str) -> list[str]:
    """The markdown's line linking the stored report's page (none without one)."""
    if not report_url:
        return []
    return [
        f"Full report: [{_cell(report_url)}]({report_url}) (top callables, rule hits by "
        "rule with their explanations, clone groups side by side).",
        "",
    ]


def diff_markdown(report: DiffReport, top: int, link_base: str = "", report_url: str = "") -> str:
    """A pull-request comment: a short table and the top findings, linked by file:line
    (relative to the repository root, or under ``link_base``) and, given ``report_url``
    (the page of the head side's stored code report), to their rule or table there."""
    lines = ["### slopmark: code slop in this change", "", *_report_line(report_url)]
    lines += ["| | before | after | Δ |", "|---|---:|---:|---:|"]
    for label, name, spec in SHOWN[1:6]:
        before, after = report.totals[name]
        cells = (_value(before, spec), _value(after, spec), _delta(before, after, spec))
        lines.append(f"| {label} | " + " | ".join(cells) + " |")
    lines += [
        "",
        f"**{len(report.added)} new** {_findings(len(report.added))}, "
        f"{len(report.removed)} removed (rule set `{report.rule_set}`).",
    ]
    for title, changes in (("New", report.added), ("Removed", report.removed)):
        if not changes:
            continue
        lines += ["", f"#### {title}", "", "| kind | where | what |", "|---|---|---|"]
        for change in changes[: top or len(changes)]:
            f = change.finding
            what = _cell(describe(change, report.cc_threshold))
            kind = _kind_cell(change, report_url)
            lines.append(f"| {kind} | {_link(f.path, f.start, link_base)} | {what} |")
        if top and len(changes) > top:
            lines.append(f"| | | … and {len(changes) - top} more |")
    if report.suppressed:
        lines += ["", f"{count(report.suppressed, 'finding')} left out: in the baseline."]
    return "\n".join([*lines, *_skipped_markdown(report.skipped, top)]) + "\n"


def _skipped_markdown(skipped: Sequence[Skipped], top: int) -> list[str]:
    """The files left out, as a table (none: nothing)."""
    if not skipped:
        return []
    lines = ["", f"#### Skipped ({len(skipped)})", "", "| file | why |", "|---|---|"]
    lines += [f"| {_cell(s.path)} | {_cell(s.reason)} |" for s in skipped[: top or None]]
    if top and len(skipped) > top:
        lines.append(f"| … and {len(skipped) - top} more | |")
    return lines
