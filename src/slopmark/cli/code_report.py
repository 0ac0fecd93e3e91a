"""`TreeReport` → terminal tables and JSON."""

from __future__ import annotations

import functools
import heapq
import json
import sys
from collections import Counter
from collections.abc import Sequence
from json.encoder import encode_basestring_ascii
from typing import TYPE_CHECKING, Any

from slopmark import __version__, _core
from slopmark.cli.output import dumps
from slopmark.code.measure.clones import CloneGroup, CloneMember
from slopmark.code.measure.hits import RuleHit
from slopmark.code.measure.report import CallableMetrics, FileMetrics, TreeReport
from slopmark.code.measure.tree_store import language_json, summary
from slopmark.plurals import count

if TYPE_CHECKING:  # rich is imported where tables are drawn: `--json` never needs it
    from rich.console import Console

#: How mass is computed under each --size-term (see `slopmark.code.measure.metrics.mass`).
MASS_FORMULAS = {"sqrt": "CC × √SLOC", "linear": "CC × SLOC", "none": "CC"}


def fmt_ratio(value: float | None, n: int) -> str:
    """A ratio, or 'undefined (n=0)' when there is nothing to divide by."""
    return f"{value:.3f}" if value is not None else f"undefined (n={n})"


def _file_json(f: FileMetrics, detail: bool = True) -> dict[str, Any]:
    """One file's JSON (without its callables and hits when not ``detail``)."""
    found = {
        "path": f.path,
        "language": f.language,
        "sloc": f.sloc,
        "erosion": f.erosion,
        "verbosity": f.verbosity,
        "rule_lines": f.rule_lines,
        "clone_lines": f.clone_lines,
        "flagged_lines": f.flagged_lines,
        "notes": list(f.notes),
    }
    if not detail:
        return found
    return found | {
        "callables": [
            {
                "qualname": c.qualname,
                "start": c.start,
                "end": c.end,
                "cc": c.cc,
                "sloc": c.sloc,
                "mass": c.mass,
            }
            for c in f.callables
        ],
        "hits": [
            {
                "rule": h.rule,
                "start": h.start,
                "end": h.end,
                "severity": h.severity,
                "message": h.message,
            }
            for h in f.hits
        ],
    }


#: The keys of a callable, a rule hit and a clone group's member in `to_json`, with the
#: fields of `CallableMetrics`, `RuleHit` and `CloneMember` they take (a callable's path is
#: its file's).
_CALLABLE = ("qualname", "start", "end", "cc", "sloc", "mass")
_HIT = ("rule", "start", "end", "severity", "message")
_MEMBER = ("path", "start", "end", "sloc")
_CALLABLE_FIELDS = tuple(CallableMetrics._fields.index(key) for key in _CALLABLE)
_HIT_FIELDS = tuple(RuleHit._fields.index(key) for key in _HIT)
_MEMBER_FIELDS = tuple(CloneMember._fields.index(key) for key in _MEMBER)
#: A clone group as compact JSON, its members' text put in.
_GROUP = '{"digest":%s,"kind":%s,"sloc":%d,"members":[%s]}'
#: Where the files and clone groups go in the compact text (see `json_parts`).
_FILES, _GROUPS = "\0files\0", "\0clone_groups\0"
_compact = functools.partial(json.dumps, separators=(",", ":"))


def json_text(report: TreeReport, extra: dict[str, Any]) -> str:
    """``dumps(to_json(report) | extra)``, the same text (see `json_parts`)."""
    return "".join(json_parts(report, extra))


def json_parts(report: TreeReport, extra: dict[str, Any]) -> list[str]:
    """`json_text` in parts, to be written one after the other (a big tree's text is ten
    megabytes: joined and copied whole it took fresh memory each time). Compact JSON (stdout
    not a terminal) has the core write the files' callables and hits and the clone groups'
    members (a big tree's tens of thousands of objects), several times faster than
    `json.dumps`."""
    if sys.stdout.isatty():
        return [dumps(to_json(report) | extra)]
    head = _compact(to_json(report, detail=False) | extra)
    fill = {
        _compact(_FILES): lambda: _files_parts(report.files),
        _compact(_GROUPS): lambda: _groups_parts(report.clone_groups),
    }
    # each at its first place: only the version, the root (a path: no NUL) and numbers come
    # before them, while a message after them may quote source text that holds one
    parts: list[str] = []
    at = 0
    for index, placeholder in sorted((head.index(p), p) for p in fill):
        parts += [head[at:index], *fill[placeholder]()]
        at = index + len(placeholder)
    parts.append(head[at:])
    return parts


def _files_parts(files: Sequence[FileMetrics]) -> list[str]:
    """The files of `to_json` as compact JSON text, in parts."""
    callables = _core.json_objects(_CALLABLE, _CALLABLE_FIELDS, [f.callables for f in files])
    hits = _core.json_objects(_HIT, _HIT_FIELDS, [f.hits for f in files])
    texts = [
        f'{_compact(_file_json(f, detail=False))[:-1]},"callables":[{c}],"hits":[{h}]}},'
        for f, c, h in zip(files, callables, hits, strict=True)
    ]
    if texts:
        texts[-1] = texts[-1][:-1]
    return ["[", *texts, "]"]


def _groups_parts(groups: Sequence[CloneGroup]) -> list[str]:
    """The clone groups of `to_json` as compact JSON text, in parts."""
    quote = encode_basestring_ascii
    members = _core.json_objects(_MEMBER, _MEMBER_FIELDS, [g.members for g in groups])
    texts = [
        _GROUP % (quote(g.digest), quote(g.kind), g.sloc, text)
        for g, text in zip(groups, members, strict=True)
    ]
    return ["[", ",".join(texts), "]"]


def to_json(report: TreeReport, detail: bool = True) -> dict[str, Any]:
    """The whole report: summary at the top, then per file, clone groups, skips, problems
    (without ``detail``, `json_text` puts the files and clone groups in)."""
    return {
        "slopmark": __version__,
        "root": report.root,
        "settings": {
            "cc_threshold": report.settings.cc_threshold,
            "size_term": report.settings.size_term,
            "rule_set": report.settings.rule_set,
        },
        "rule_set": report.settings.rule_set,
        **summary(report),
        "languages": [language_json(row) for row in report.languages()],
        "files": [_file_json(f) for f in report.files] if detail else _FILES,
        "clone_groups": [_group_json(g) for g in report.clone_groups] if detail else _GROUPS,
        "skipped": [{"path": s.path, "reason": s.reason} for s in report.skipped],
        "problems": [
            {"path": p.path, "line": p.line, "message": p.message} for p in report.problems
        ],
    }


def _group_json(group: CloneGroup) -> dict[str, Any]:
    return {
        "digest": group.digest,
        "kind": group.kind,
        "sloc": group.sloc,
        "members": [
            {"path": m.path, "start": m.start, "end": m.end, "sloc": m.sloc}
            for m in group.members
        ],
    }


def render(report: TreeReport, console: Console, top: int, measured: str | None = None) -> None:
    """Print the human report: summary (with ``measured``: the languages and scopes chosen
    and what they left out), then the worst offenders of each kind."""
    from rich.table import Table

    from slopmark.cli.tables import print_table

    s = summary(report)
    console.print(f"[bold]slopmark code measure[/bold] {report.root}")
    table = Table(show_header=False, box=None, pad_edge=False)
    table.add_row("files", f"{s['files_measured']} measured, {s['files_skipped']} skipped")
    if measured is not None:
        table.add_row("measured", measured)
    table.add_row("SLOC", str(s["sloc"]))
    table.add_row(
        "callables",
        f"{s['callables']} ({s['complex_callables']} with CC > "
        f"{report.settings.cc_threshold}, max CC {s['max_cc'] or '-'})",
    )
    table.add_row("[bold]erosion[/bold]", fmt_ratio(report.erosion, s["callables"]))
    table.add_row("[bold]verbosity[/bold]", fmt_ratio(report.verbosity, s["sloc"]))
    table.add_row(
        "  rule lines",
        f"{s['rule_lines']} ({count(s['rule_hits'], 'hit')} of {count(s['rules_run'], 'rule')})",
    )
    table.add_row("  rule set", report.settings.rule_set)
    table.add_row("  clone lines", f"{s['clone_lines']} ({count(s['clone_groups'], 'group')})")
    table.add_row("  union", str(s["flagged_lines"]))
    print_table(console, table)
    _languages(report, console)
    if top:
        _top_callables(report, console, top)
        _top_rules(report, console, top)
        _top_clones(report, console, top)
    _skipped(report, console)


def _languages(report: TreeReport, console: Console) -> None:
    """A row per language when the tree mixes several (the summary above pools them)."""
    from rich.table import Table

    from slopmark.cli.tables import print_table

    if len({f.language for f in report.files}) < 2:  # rows of one language: not made
        return
    rows = report.languages()
    table = Table(title="per language", title_justify="left")
    for column in ("language", "files", "SLOC", "callables", "erosion", "verbosity"):
        table.add_column(column, justify="left" if column == "language" else "right")
    for row in rows:
        table.add_row(
            row.language,
            str(row.files),
            str(row.sloc),
            str(row.callables),
            fmt_ratio(row.erosion, row.callables),
            fmt_ratio(row.verbosity, row.sloc),
        )
    print_table(console, table)


def _top_callables(report: TreeReport, console: Console, top: int) -> None:
    from rich.table import Table

    from slopmark.cli.tables import print_table

    ranked = heapq.nsmallest(top, report.callables, key=lambda c: -c.mass)  # sorted()[:top]
    if not ranked:
        return
    formula = MASS_FORMULAS[report.settings.size_term]
    table = Table(title=f"top callables by mass ({formula})", title_justify="left")
    for column in ("callable", "where", "CC", "SLOC", "mass"):
        table.add_column(column, justify="right" if column in ("CC", "SLOC", "mass") else "left")
    for c in ranked:
        flag = "[red]" if c.cc > report.settings.cc_threshold else ""
        table.add_row(
            c.qualname, f"{c.path}:{c.start}", f"{flag}{c.cc}", str(c.sloc), f"{c.mass:.1f}"
        )
    print_table(console, table)


def _top_rules(report: TreeReport, console: Console, top: int) -> None:
    from rich.table import Table

    from slopmark.cli.tables import print_table

    lines: Counter[str] = Counter()
    counts: Counter[str] = Counter()
    for h in report.hits:
        lines[h.rule] += h.end - h.start + 1
        counts[h.rule] += 1
    if not lines:
        return
    table = Table(title="top rules by flagged lines", title_justify="left")
    table.add_column("rule")
    table.add_column("hits", justify="right")
    table.add_column("lines", justify="right")
    for rule, n in lines.most_common(top):
        table.add_row(rule, str(counts[rule]), str(n))
    print_table(console, table)


def _top_clones(report: TreeReport, console: Console, top: int) -> None:
    from rich.table import Table

    from slopmark.cli.tables import print_table

    if not report.clone_groups:
        return
    table = Table(title="biggest clone groups", title_justify="left")
    table.add_column("kind")
    table.add_column("members", justify="right")
    table.add_column("SLOC", justify="right")
    table.add_column("where")
    for g in report.clone_groups[:top]:
        where = ", ".join(f"{m.path}:{m.start}" for m in g.members[:3])
        more = f" +{len(g.members) - 3}" if len(g.members) > 3 else ""
        table.add_row(g.kind, str(len(g.members)), str(g.sloc), where + more)
    print_table(console, table)


#: Skipped paths listed per reason on the terminal (--json lists every one).
SKIPS_SHOWN = 10


def _skipped(report: TreeReport, console: Console) -> None:
    """Each skipped path with its reason; past `SKIPS_SHOWN` of one reason (a Go module's
    vendor/ holds thousands of files), the rest counted on one line."""
    shown: Counter[str] = Counter()
    for s in report.skipped:
        shown[s.reason] += 1
        if shown[s.reason] <= SKIPS_SHOWN:
            console.print(f"[yellow]skipped[/yellow] {s.path}: {s.reason}", highlight=False)
    for reason, seen in shown.items():
        if seen > SKIPS_SHOWN:
            more = seen - SKIPS_SHOWN
            console.print(f"[yellow]skipped[/yellow] {more} more: {reason}", highlight=False)
    for f in report.files:
        for note in f.notes:
            console.print(f"[yellow]note[/yellow] {f.path}: {note}", highlight=False)
