"""A code report cut to what the store keeps (pure): the totals whole, the findings bounded.

`code measure --store` and `code history --store` keep a report in the run store so
the web app can show it (`/code/{id}`). The totals are kept exactly as ``--json``
prints them (the caller passes the same summary and language rows), so the page and
the JSON agree to the last digit. The findings are bounded, each with its count before
the cut, so a page says "showing k of n" instead of pretending to be whole:

- the `TOP_CALLABLES` heaviest callables by mass (the table ``code measure`` prints);
- every rule that hit, with its counts and explanation, and its first `HITS_PER_RULE`
  hits in file order;
- the `CLONE_GROUPS` biggest clone groups, each with its first `MEMBERS_PER_GROUP`
  members and their source text (at most `MEMBER_LINES` lines each);
- a history's first `COMMITS` measured commits.
"""

from __future__ import annotations

import heapq
from collections import defaultdict
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from slopmark.code.measure.clones import CloneGroup
from slopmark.code.measure.hits import RuleHit
from slopmark.code.measure.report import TreeReport
from slopmark.code.measure.rules import Rule

TOP_CALLABLES = 100
HITS_PER_RULE = 500
CLONE_GROUPS = 200
MEMBERS_PER_GROUP = 20
MEMBER_LINES = 80
COMMITS = 5000

#: The source text of ``path`` from line ``start`` to ``end`` (1-based, inclusive), or
#: None when it cannot be read; the caller (an adapter) reads the files.
SourceText = Callable[[str, int, int], str | None]
Row = dict[str, Any]


@dataclass(frozen=True)
class CodeRecord:
    """One report as stored: its header (``kind``, ``root``, ``rev``, settings, totals,
    bounds) and its rows, each a mapping of column to value without the report's id."""

    kind: str
    root: str
    rev: str | None
    version: str
    settings: Row
    summary: Row
    bounds: dict[str, Row]
    languages: tuple[Row, ...] = ()
    callables: tuple[Row, ...] = ()
    rules: tuple[Row, ...] = ()
    hits: tuple[Row, ...] = ()
    clones: tuple[Row, ...] = ()
    members: tuple[Row, ...] = ()
    commits: tuple[Row, ...] = ()


def bound(total: int, stored: int) -> Row:
    """How many rows there were and how many are kept (``truncated`` when fewer)."""
    return {"total": total, "stored": stored, "truncated": stored < total}


def measure_record(
    report: TreeReport,
    header: tuple[str, Row],
    languages: Sequence[Row],
    catalog: Sequence[Rule],
    source: SourceText,
) -> CodeRecord:
    """``report`` as stored, ``header`` being (slopmark version, the ``--json`` summary)
    and ``languages`` the ``--json`` language rows; ``catalog`` explains the rules."""
    version, summary = header
    callables = _callables(report)
    rules, hits = _rules(report.hits, {rule.id: rule for rule in catalog})
    clones, members = _clones(report.clone_groups, source)
    bounds = {
        "callables": bound(summary["callables"], len(callables)),
        "rule_hits": bound(len(report.hits), len(hits)),
        "clone_groups": bound(len(report.clone_groups), len(clones)),
        "clone_members": bound(sum(c["members"] for c in clones), len(members)),
    }
    return CodeRecord(
        "measure", report.root, None, version, _settings(report), dict(summary), bounds,
        languages=tuple({"position": n, **row} for n, row in enumerate(languages)),
        callables=callables, rules=rules, hits=hits,
        clones=clones, members=members,
    )  # fmt: skip


def _settings(report: TreeReport) -> Row:
    return {
        "cc_threshold": report.settings.cc_threshold,
        "size_term": report.settings.size_term,
        "rule_set": report.settings.rule_set,
    }


def _callables(report: TreeReport) -> tuple[Row, ...]:
    """The heaviest callables by mass, heaviest first (ties in report order)."""
    ranked = heapq.nsmallest(TOP_CALLABLES, report.callables, key=lambda c: -c.mass)
    return tuple(
        {"rank": rank, "path": c.path, "qualname": c.qualname, "start": c.start,
         "end": c.end, "cc": c.cc, "sloc": c.sloc, "mass": c.mass}
        for rank, c in enumerate(ranked)
    )  # fmt: skip


def _rules(
    hits: Sequence[RuleHit], catalog: Mapping[str, Rule]
) -> tuple[tuple[Row, ...], tuple[Row, ...]]:
    """A row per rule that hit (most flagged lines first) and its first hits."""
    by_rule: dict[str, list[RuleHit]] = defaultdict(list)
    for hit in hits:
        by_rule[hit.rule].append(hit)
    rules, kept = [], []
    for rule_id, found in by_rule.items():
        rules.append(_rule_row(rule_id, found, catalog.get(rule_id)))
        kept += [
            {"rule": rule_id, "position": position, "path": h.path, "start": h.start,
             "end": h.end, "message": h.message}
            for position, h in enumerate(found[:HITS_PER_RULE])
        ]  # fmt: skip
    rules.sort(key=lambda row: (-row["lines"], row["rule"]))
    return tuple(rules), tuple(kept)


def _rule_row(rule_id: str, found: Sequence[RuleHit], rule: Rule | None) -> Row:
    """A rule's counts, and its explanation from the catalog (blank for an unknown id)."""
    return {
        "rule": rule_id,
        "severity": found[0].severity,
        "category": rule.category if rule else "",
        "hits": len(found),
        "lines": sum(h.end - h.start + 1 for h in found),
        "stored": min(len(found), HITS_PER_RULE),
        "message": rule.message if rule else found[0].message,
        "what": rule.doc("what") if rule else "",
        "why": rule.doc("why") if rule else "",
    }


def _clones(
    groups: Sequence[CloneGroup], source: SourceText
) -> tuple[tuple[Row, ...], tuple[Row, ...]]:
    """The biggest groups and their first members with their text."""
    clones, members = [], []
    for rank, group in enumerate(groups[:CLONE_GROUPS]):
        clones.append(
            {"rank": rank, "digest": group.digest, "kind": group.kind, "sloc": group.sloc,
             "members": len(group.members)}
        )  # fmt: skip
        members += [
            {"rank": rank, "position": position, "path": m.path, "start": m.start,
             "end": m.end, "sloc": m.sloc, "text": _text(source, m.path, m.start, m.end)}
            for position, m in enumerate(group.members[:MEMBERS_PER_GROUP])
        ]  # fmt: skip
    return tuple(clones), tuple(members)


def _text(source: SourceText, path: str, start: int, end: int) -> str | None:
    """A member's lines, cut after `MEMBER_LINES` lines with a note saying so."""
    last = min(end, start + MEMBER_LINES - 1)
    text = source(path, start, last)
    if text is None or last == end:
        return text
    return f"{text.rstrip(chr(10))}\n… ({end - last} more lines)\n"


def history_record(root: str, rev: str, version: str, history: Row, settings: Row) -> CodeRecord:
    """A history as stored, from its ``--json`` object (``history``: its ``commits`` and
    totals) and the metric ``settings`` it was measured with."""
    commits = history["commits"]
    summary = {key: value for key, value in history.items() if key not in ("commits", "slopmark")}
    summary["commits_measured"] = len(commits)
    rows = tuple(
        {"position": position, **{k: v for k, v in point.items() if k != "date"},
         "committed_at": point["date"]}
        for position, point in enumerate(commits[:COMMITS])
    )  # fmt: skip
    bounds = {"commits": bound(len(commits), len(rows))}
    return CodeRecord("history", root, rev, version, settings, summary, bounds, commits=rows)
