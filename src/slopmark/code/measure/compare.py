"""What a change added and removed: two measured trees compared (pure).

Only files whose content differs are looked at; the rest is the same on both sides.

- **Callables** pair up by qualified name within a file pair, then by qualified name
  anywhere (a function moved to another file), then by normal-form similarity: the
  share of clone-candidate digests (`slopmark.code.measure.clones`) the two bodies have in
  common, at least `BODY_SIMILARITY` (a function renamed, or moved into a class). A
  callable over the CC threshold that pairs with none is *new*; a paired one over the
  threshold whose CC rose *rose* (crossing the threshold included). The reverse on the
  base side is removed slop: complex callables deleted, CC that fell.
- **Rule hits** count when they touch added lines, unless a hit with the same rule,
  callable and text left removed lines (moved code).
- **Clones**: a normal form whose occurrences grew (and are two or more) gained members;
  the new ones are those on added lines, the outermost block of each.
- **Totals** are the two trees' `TreeReport` numbers, before and after (from tree
  summaries, `slopmark.code.measure.summary`, which give exactly those numbers).
- **Suppressions**: both sides are measured with the base side's settings and
  suppression comments; the exclude globs and ``slopmark: ignore[...]`` comments the
  change adds are findings of their own (`slopmark.code.measure.suppressions`), and hide nothing.
"""

from __future__ import annotations

from collections import Counter, defaultdict
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from slopmark.code.measure.fileanalysis import FileAnalysis, Skipped
from slopmark.code.measure.findings import CLONE, COMPLEX, HIT, Finding, clone_spots, file_findings
from slopmark.code.measure.languages import LANGUAGES
from slopmark.code.measure.pairing import UNCHANGED, FilePair, changed_lines, lines_of, pair_files
from slopmark.code.measure.report import CallableMetrics, FileMetrics, TreeReport
from slopmark.code.measure.scopes import SCOPES, Coverage

NEW_COMPLEX, CC_RISE, NEW_HITS, NEW_CLONES = "new-complex", "cc-rise", "new-hits", "new-clones"
NEW_SUPPRESSIONS = "new-suppressions"
GATE_KINDS = (NEW_COMPLEX, CC_RISE, NEW_HITS, NEW_CLONES, NEW_SUPPRESSIONS)
REMOVED_COMPLEX, CC_FALL, REMOVED_HITS, REMOVED_CLONES = (
    "removed-complex", "cc-fall", "removed-hits", "removed-clones",
)  # fmt: skip
REMOVED_SUPPRESSIONS = "removed-suppressions"
#: Share of body digests two callables must have in common to be one moved callable.
BODY_SIMILARITY = 0.5
#: The totals compared, as `TreeReport` attributes or counts.
TOTALS = (
    "files", "sloc", "callables", "complex_callables", "erosion", "verbosity",
    "rule_lines", "clone_lines", "flagged_lines", "rule_hits", "clone_groups",
)  # fmt: skip


@dataclass(frozen=True, slots=True)
class Change:
    """A finding the change added (or removed); CC before → after for callables."""

    kind: str
    finding: Finding
    before: int | None = None
    after: int | None = None


@dataclass(frozen=True, slots=True)
class FileRow:
    path: str
    old_path: str | None
    status: str
    sloc: tuple[int | None, int | None]
    erosion: tuple[float | None, float | None]
    verbosity: tuple[float | None, float | None]
    added: int = 0
    removed: int = 0


Totals = dict[str, float | int | None]


@dataclass(frozen=True)
class Side:
    """One measured side: its totals, every file's content digest, and of the changed
    files their metrics, analyses, text and skips; ``counts`` says how often each
    normal form occurs in the whole side."""

    label: str
    totals: Totals
    digests: Mapping[str, bytes | None]
    metrics: Mapping[str, FileMetrics]
    analyses: Mapping[str, FileAnalysis]
    counts: Mapping[bytes, int]
    texts: Mapping[str, bytes] = field(default_factory=dict)
    skipped: tuple[Skipped, ...] = ()


@dataclass(frozen=True)
class DiffReport:
    base: str
    head: str
    cc_threshold: int
    totals: dict[str, tuple[float | int | None, float | int | None]]
    files: tuple[FileRow, ...]
    added: tuple[Change, ...]
    removed: tuple[Change, ...]
    #: changed files left out of the measures (binary, syntax errors...), head side first
    skipped: tuple[Skipped, ...] = ()
    #: findings left out because the baseline holds them
    suppressed: int = 0
    #: the languages compared (`--language`; every language by default)
    languages: tuple[str, ...] = LANGUAGES
    #: the scopes compared (`--scope`; every scope by default)
    scopes: tuple[str, ...] = SCOPES
    #: what each side (base, head) held per scope and what the choice left out
    coverage: tuple[Coverage, Coverage] = (Coverage(), Coverage())
    #: the rule set both sides ran (`slopmark.code.measure.rules.RULE_SETS`)
    rule_set: str = "default"


def totals(report: TreeReport) -> Totals:
    return {
        "files": len(report.files),
        "sloc": report.sloc,
        "callables": len(report.callables),
        "complex_callables": len(report.complex_callables()),
        "erosion": report.erosion,
        "verbosity": report.verbosity,
        "rule_lines": report.rule_lines,
        "clone_lines": report.clone_lines,
        "flagged_lines": report.flagged_lines,
        "rule_hits": len(report.hits),
        "clone_groups": len(report.clone_groups),
    }


def changed_paths(base: Mapping[str, bytes | None], head: Mapping[str, bytes | None]) -> set[str]:
    """Paths whose content differs between the sides (or exists on one side only)."""
    return {
        p for p in base.keys() | head.keys() if base.get(p) is None or base.get(p) != head.get(p)
    }


@dataclass(frozen=True)
class Touched:
    """The changed files paired (base side, head side), and the lines the change removed
    from each base file and added to each head file (1-based)."""

    pairs: tuple[FilePair, ...]
    removed: Mapping[str, set[int]]
    added: Mapping[str, set[int]]


def touched(
    base: Mapping[str, bytes | None],
    head: Mapping[str, bytes | None],
    texts: tuple[Mapping[str, bytes], Mapping[str, bytes]],
) -> Touched:
    """What a change touched (``base``/``head``: path → content digest; ``texts``: the
    content of each side's changed files)."""
    pairs = [p for p in pair_files(base, head, texts) if p.status != UNCHANGED]
    removed, added = {}, {}
    for pair in pairs:
        old, new = lines_of(texts[0].get(pair.old or "")), lines_of(texts[1].get(pair.new or ""))
        lines = changed_lines(old, new)
        if pair.old:
            removed[pair.old] = lines[0]
        if pair.new:
            added[pair.new] = lines[1]
    return Touched(tuple(pairs), removed, added)


@dataclass
class _Work:
    """The changed files of both sides with their findings and touched lines."""

    pairs: Sequence[FilePair]
    findings: tuple[dict[str, list[Finding]], dict[str, list[Finding]]]
    removed_lines: Mapping[str, set[int]] = field(default_factory=dict)
    added_lines: Mapping[str, set[int]] = field(default_factory=dict)


#: Changes found outside `compare` (added, removed): a change's own suppressions.
Own = tuple[Sequence[Change], Sequence[Change]]


def compare(
    base: Side, head: Side, threshold: int, lines: Touched | None = None, own: Own = ((), ())
) -> DiffReport:
    """Everything `code diff` reports about going from ``base`` to ``head`` (callables
    with CC over ``threshold`` are complex; ``lines``: `touched` when known; ``own``: the
    suppressions the change adds and drops, `slopmark.code.measure.suppressions`)."""
    if lines is None:
        lines = touched(base.digests, head.digests, (base.texts, head.texts))
    pairs = lines.pairs
    findings = (_findings(base, pairs, 0, threshold), _findings(head, pairs, 1, threshold))
    work = _Work(pairs, findings, lines.removed, lines.added)
    callables = _callable_changes(base, head, work, threshold)
    hits = _hit_changes(work)
    clones = _clone_changes(base, head, work)
    new = sorted([*callables[0], *hits[0], *clones[0], *own[0]], key=_order)
    gone = sorted([*callables[1], *hits[1], *clones[1], *own[1]], key=_order)
    before, after = base.totals, head.totals
    skipped = {s.path: s for s in (*base.skipped, *head.skipped)}
    return DiffReport(
        base=base.label,
        head=head.label,
        cc_threshold=threshold,
        totals={name: (before[name], after[name]) for name in TOTALS},
        files=tuple(_rows(base, head, pairs, new, gone)),
        added=tuple(new),
        removed=tuple(gone),
        skipped=tuple(skipped[p] for p in sorted(skipped)),
    )


def _order(change: Change) -> tuple[str, int, str]:
    return change.finding.path, change.finding.start, change.kind


def _findings(
    side: Side, pairs: Sequence[FilePair], index: int, threshold: int
) -> dict[str, list[Finding]]:
    named = {p.new if index else p.old for p in pairs}
    paths = {p for p in named if p is not None} & side.metrics.keys()
    return {
        path: file_findings(
            side.metrics[path],
            {path: clone_spots(side.analyses[path], side.counts)},
            side.texts.get(path),
            threshold,
        )
        for path in paths
    }


def _touches(finding: Finding, lines: set[int]) -> bool:
    return any(line in lines for line in range(finding.start, finding.end + 1))


# callables --------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class _Item:
    path: str
    callable: CallableMetrics
    rank: int
    body: frozenset[bytes]


def _items(side: Side, paths: Iterable[str]) -> list[_Item]:
    items = []
    for path in paths:
        metrics, analysis = side.metrics.get(path), side.analyses.get(path)
        if metrics is None or analysis is None:
            continue
        seen: Counter[str] = Counter()
        for c in metrics.callables:
            body = frozenset(
                fp.digest for fp in analysis.fingerprints if c.start <= fp.start and fp.end <= c.end
            )
            items.append(_Item(path, c, seen[c.qualname], body))
            seen[c.qualname] += 1
    return items


def match_callables(
    base: list[_Item], head: list[_Item], renamed: Mapping[str, str]
) -> tuple[list[tuple[_Item, _Item]], list[_Item], list[_Item]]:
    """(paired, new head items, gone base items): by path and name, by name, by body."""
    steps = (
        lambda i, side: (renamed.get(i.path, i.path) if side == 0 else i.path,
                         i.callable.qualname, i.rank),
        lambda i, side: i.callable.qualname,
    )  # fmt: skip
    pairs: list[tuple[_Item, _Item]] = []
    for key in steps:
        pool: dict[object, list[_Item]] = defaultdict(list)
        for item in base:
            pool[key(item, 0)].append(item)
        left = []
        for item in head:
            found = pool.get(key(item, 1))
            if found:
                pairs.append((found.pop(0), item))
            else:
                left.append(item)
        taken = {id(b) for b, _ in pairs}
        base, head = [b for b in base if id(b) not in taken], left
    similar = _similar_bodies(base, head)
    pairs.extend(similar)
    taken_base = {id(b) for b, _ in similar}
    taken_head = {id(h) for _, h in similar}
    return (pairs, [h for h in head if id(h) not in taken_head],
            [b for b in base if id(b) not in taken_base])  # fmt: skip


def _similar_bodies(base: list[_Item], head: list[_Item]) -> list[tuple[_Item, _Item]]:
    scored = []
    for b in base:
        for h in head:
            if b.body and h.body:
                score = len(b.body & h.body) / len(b.body | h.body)
                if score >= BODY_SIMILARITY:
                    scored.append((-score, id(b), id(h), b, h))
    pairs: list[tuple[_Item, _Item]] = []
    used: set[int] = set()
    for _, bid, hid, b, h in sorted(scored, key=lambda s: s[:3]):
        if bid not in used and hid not in used:
            used.update((bid, hid))
            pairs.append((b, h))
    return pairs


def _callable_changes(
    base: Side, head: Side, work: _Work, threshold: int
) -> tuple[list[Change], list[Change]]:
    renamed = {p.old: p.new for p in work.pairs if p.old and p.new}
    olds = [p.old for p in work.pairs if p.old]
    news = [p.new for p in work.pairs if p.new]
    pairs, new, gone = match_callables(_items(base, olds), _items(head, news), renamed)
    find = _finder(work)
    added, removed = [], []
    for item in new:
        if item.callable.cc > threshold:
            added.append(Change(NEW_COMPLEX, find(1, item), None, item.callable.cc))
    for b, h in pairs:
        before, after = b.callable.cc, h.callable.cc
        if after > threshold and after > before:
            added.append(Change(CC_RISE, find(1, h), before, after))
        elif before > threshold and after < before:
            removed.append(Change(CC_FALL, find(0, b), before, after))
    for item in gone:
        if item.callable.cc > threshold:
            removed.append(Change(REMOVED_COMPLEX, find(0, item), item.callable.cc, None))
    return added, removed


def _finder(work: _Work) -> Callable[[int, _Item], Finding]:
    """The complex-callable finding of an item on side 0 (base) or 1 (head)."""

    def find(index: int, item: _Item) -> Finding:
        for finding in work.findings[index].get(item.path, ()):
            if finding.kind == COMPLEX and finding.start == item.callable.start:
                return finding
        raise LookupError(item.callable.qualname)

    return find


# rule hits and clones ---------------------------------------------------------------------


def _hit_changes(work: _Work) -> tuple[list[Change], list[Change]]:
    added = [f for path, found in work.findings[1].items() for f in found
             if f.kind == HIT and _touches(f, work.added_lines.get(path, set()))]  # fmt: skip
    removed = [f for path, found in work.findings[0].items() for f in found
               if f.kind == HIT and _touches(f, work.removed_lines.get(path, set()))]  # fmt: skip
    return (
        [Change(NEW_HITS, f) for f in unmatched(added, removed)],
        [Change(REMOVED_HITS, f) for f in unmatched(removed, added)],
    )


def unmatched(found: list[Finding], others: list[Finding]) -> list[Finding]:
    """``found`` less one finding per equal key among ``others`` (code that moved)."""
    pool = Counter(f.key for f in others)
    left = []
    for finding in found:
        if pool[finding.key]:
            pool[finding.key] -= 1
        else:
            left.append(finding)
    return left


def _clone_changes(base: Side, head: Side, work: _Work) -> tuple[list[Change], list[Change]]:
    grown = _grown(head, base, work.findings[1], work.added_lines)
    shrunk = _grown(base, head, work.findings[0], work.removed_lines)
    return (
        [Change(NEW_CLONES, f) for f in _outermost(grown)],
        [Change(REMOVED_CLONES, f) for f in _outermost(shrunk)],
    )


def _grown(
    side: Side, other: Side, findings: Mapping[str, list[Finding]], lines: Mapping[str, set[int]]
) -> list[Finding]:
    """Clone members of ``side`` on touched ``lines`` whose form occurs more often there
    than on ``other``, at most as many per form as it grew by."""
    touched: dict[str, list[Finding]] = defaultdict(list)
    for path, found in findings.items():
        for f in found:
            if f.kind == CLONE and _touches(f, lines.get(path, set())):
                touched[f.subject].append(f)
    if not touched:
        return []
    grown = []
    for digest, members in touched.items():
        key = bytes.fromhex(digest)
        gained = side.counts.get(key, 0) - other.counts.get(key, 0)
        grown.extend(members[: max(gained, 0)])
    return grown


def _outermost(found: list[Finding]) -> list[Finding]:
    """Leave out members inside another member of the same file (nested blocks)."""
    return [
        f for f in found
        if not any(o is not f and o.path == f.path and o.start <= f.start and f.end <= o.end
                   and (o.start, -o.end) < (f.start, -f.end) for o in found)
    ]  # fmt: skip


# files --------------------------------------------------------------------------------------


def _rows(
    base: Side, head: Side, pairs: Sequence[FilePair], new: Sequence[Change],
    gone: Sequence[Change],
) -> list[FileRow]:  # fmt: skip
    before, after = base.metrics, head.metrics
    added = Counter(c.finding.path for c in new)
    removed = Counter(c.finding.path for c in gone)
    rows = []
    for pair in pairs:
        b, a = before.get(pair.old or ""), after.get(pair.new or "")
        rows.append(FileRow(
            path=pair.new or pair.old or "",
            old_path=pair.old if pair.old != pair.new else None,
            status=pair.status,
            sloc=(_get(b, "sloc"), _get(a, "sloc")),
            erosion=(_get(b, "erosion"), _get(a, "erosion")),
            verbosity=(_get(b, "verbosity"), _get(a, "verbosity")),
            added=added[pair.new or ""],
            removed=removed[pair.old or ""],
        ))  # fmt: skip
    return sorted(rows, key=_by_added)


def _rise(pair: tuple[float | None, float | None]) -> float:
    before, after = pair
    return (after or 0.0) - (before or 0.0)


def _by_added(row: FileRow) -> tuple[int, float, str]:
    """A changed file's place in the list: most new findings first, then the largest rise
    in erosion (a new file rises from 0), then by name."""
    return -row.added, -_rise(row.erosion), row.path


def _get(metrics: FileMetrics | None, name: str) -> Any:
    return getattr(metrics, name) if metrics is not None else None
