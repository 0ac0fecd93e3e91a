"""A tree's report pooled again from the last full one when a few files changed (a warm
`measure` after an edit).

A full pooling keeps, beside its report, a *base*: each file's result key and, for each
clone form seen exactly once, the file holding it. The next run of the same tree with
the same rules and settings (the same context) compares result keys; for the files that
changed it reads their old and new analyses. Only the forms those analyses hold
(*touched* forms) can gain or lose members, and every other holder of a touched form is
known: a group of the last report lists all its members, the base names the one holder
of a single form. Those holders and the changed files get their metrics made again;
every other file's metrics, problems and clone groups are the last report's, unchanged.
The result is the report a full pooling makes (the same files in the same order, groups
sorted by the same key); when that cannot be shown cheaply (a group sort key tied, an
old analysis no longer cached, many files changed) the caller pools every file.
"""

from __future__ import annotations

import hashlib
import marshal
from collections import Counter, defaultdict
from collections.abc import Collection, Iterable, Mapping, Sequence
from dataclasses import dataclass
from itertools import chain

from slopmark.code.measure.cache.files import Analyzer, Version, decode
from slopmark.code.measure.cache.reports import cached_report
from slopmark.code.measure.cache.store import ResultCache, seal, unseal
from slopmark.code.measure.clones import CloneGroup, clone_groups, group_key
from slopmark.code.measure.fileanalysis import FileAnalysis, Fingerprint, Skipped
from slopmark.code.measure.hits import Problem, effective_hits
from slopmark.code.measure.metrics import Settings
from slopmark.code.measure.native import Outcome
from slopmark.code.measure.report import FileMetrics, TreeReport, file_metrics

#: At most this share of a tree's files changed (more: pooling every file is as quick).
MAX_CHANGED = 0.05


@dataclass(frozen=True)
class Base:
    """The last full pooling of a tree: its report and what it was made from."""

    report: TreeReport
    #: each file's result key, by path
    keys: dict[str, bytes]
    #: each clone form (digest) seen once, and the path of the file holding it
    singles: dict[bytes, str]


@dataclass(frozen=True)
class Pooling:
    """What pools a tree's files (the same for the base and the run that uses it)."""

    min_hits: Mapping[str, int]
    known: Collection[str]
    settings: Settings


def base_key(report_key: bytes | None) -> bytes | None:
    """The key of a context's base, from the key its report would have with no files."""
    return None if report_key is None else hashlib.sha256(b"base\0" + report_key).digest()


def keep_base(
    cache: ResultCache | None,
    key: bytes | None,
    report_key: bytes | None,
    files: Sequence[tuple[str, bytes | None]],
    analyses: Sequence[FileAnalysis],
) -> None:
    """Store the base of a full pooling (its report stored under ``report_key``)."""
    if cache is None or key is None or report_key is None:
        return
    seen = Counter(fp.digest for a in analyses for fp in a.fingerprints)
    singles = {fp.digest: a.path for a in analyses for fp in a.fingerprints if seen[fp.digest] == 1}
    cache.put_report(key, seal(marshal.dumps((report_key, tuple(files), singles))))


def cached_base(cache: ResultCache | None, key: bytes | None, settings: Settings) -> Base | None:
    """The stored base of ``key`` (None: none, or its report is gone)."""
    payload = unseal(cache.report(key)) if cache is not None and key is not None else None
    if payload is None:
        return None
    try:
        report_key, files, singles = marshal.loads(payload)
        keys = dict(files)
    except (ValueError, EOFError, TypeError):
        return None
    report = cached_report(cache, report_key, settings)
    return None if report is None else Base(report, keys, singles)


def updated(
    base: Base, analyzer: Analyzer, versions: Sequence[Version], keys: Sequence[bytes | None],
    pooling: Pooling,
) -> TreeReport | None:  # fmt: skip
    """The report of ``versions`` made from ``base`` (None: pool every file instead)."""
    changed = _changed(base, versions, keys)
    old = _old_analyses(analyzer.cache, base.keys, changed) if changed else None
    if changed is None or old is None:
        return None
    by_path = {v.path: v for v in versions}
    fresh = analyzer.analyze([by_path[p] for p in sorted(changed) if p in by_path])
    touched = {fp.digest for a in (*old, *fresh) for fp in _fingerprints(a)}
    holders = _holders(base, touched) - changed
    again = analyzer.analyze([by_path[p] for p in sorted(holders)])
    return _report(base, changed, [*fresh, *again], touched, pooling)


def _changed(
    base: Base, versions: Sequence[Version], keys: Sequence[bytes | None]
) -> set[str] | None:
    """The paths whose result key is not the base's (None: none, too many, or a file's
    content could not be read)."""
    now = {v.path: k for v, k in zip(versions, keys, strict=True) if k is not None}
    changed = {p for p in now.keys() | base.keys.keys() if now.get(p) != base.keys.get(p)}
    most = max(8, MAX_CHANGED * len(now))  # a few files in any tree
    if len(now) < len(versions) or not changed or len(changed) > most:
        return None
    return changed


def _old_analyses(
    cache: ResultCache | None, keys: Mapping[str, bytes], changed: Iterable[str]
) -> list[Outcome] | None:
    """The base's outcomes of the changed files it held (None: one is no longer cached)."""
    wanted = {p: keys[p] for p in changed if p in keys}
    stored = cache.results(list(wanted.values())) if cache is not None else {}
    found = [decode(p, stored[k]) if k in stored else None for p, k in wanted.items()]
    return None if None in found else [o for o in found if o is not None]


def _fingerprints(outcome: Outcome) -> Iterable[Fingerprint]:
    return outcome.fingerprints if isinstance(outcome, FileAnalysis) else ()


def _holders(base: Base, touched: set[bytes]) -> set[str]:
    """The base's files holding a touched form."""
    groups = {g.digest: g for g in base.report.clone_groups}
    holders: set[str] = set()
    for digest in touched:
        group = groups.get(digest.hex())
        if group is not None:
            holders.update(m.path for m in group.members)
        elif digest in base.singles:
            holders.add(base.singles[digest])
    return holders


def _report(
    base: Base, changed: set[str], outcomes: Sequence[Outcome], touched: set[bytes],
    pooling: Pooling,
) -> TreeReport | None:  # fmt: skip
    analyses = sorted((o for o in outcomes if isinstance(o, FileAnalysis)), key=lambda a: a.path)
    groups = _groups(base.report.clone_groups, clone_groups(analyses), touched)
    if groups is None:
        return None
    spans = _spans(groups, {a.path for a in analyses})
    gone = changed.union(spans)
    files = {f.path: f for f in base.report.files if f.path not in gone}
    problems = _problems(base.report.problems, files)
    for a in analyses:
        files[a.path] = file_metrics(a, spans[a.path], pooling.min_hits, pooling.known,
                                     pooling.settings)  # fmt: skip
        honour = pooling.settings.suppressions
        problems[a.path] = effective_hits(a, pooling.min_hits, pooling.known, honour)[1]
    order = sorted(files)
    return TreeReport(
        root=base.report.root,
        settings=pooling.settings,
        files=tuple(files[p] for p in order),
        skipped=_skipped(base.report.skipped, changed, outcomes),
        clone_groups=groups,
        problems=tuple(chain.from_iterable(problems.get(path, ()) for path in order)),
        rules_run=base.report.rules_run,
    )


def _skipped(
    skipped: Iterable[Skipped], changed: set[str], outcomes: Iterable[Outcome]
) -> tuple[Skipped, ...]:
    """The base's skipped files that did not change with the changed ones skipped now."""
    kept = [s for s in skipped if s.path not in changed]
    kept.extend(o for o in outcomes if isinstance(o, Skipped))
    return tuple(sorted(kept, key=lambda s: s.path))


def _spans(groups: Iterable[CloneGroup], paths: set[str]) -> dict[str, list[tuple[int, int]]]:
    """The clone spans of each of ``paths`` (every one of them a key)."""
    spans: dict[str, list[tuple[int, int]]] = {path: [] for path in paths}
    for group in groups:
        for member in group.members:
            if member.path in spans:
                spans[member.path].append((member.start, member.end))
    return spans


def _problems(
    problems: Iterable[Problem], files: Mapping[str, FileMetrics]
) -> dict[str, list[Problem]]:
    """The base's problems of the files kept, by path (in their order)."""
    by_path: dict[str, list[Problem]] = defaultdict(list)
    for problem in problems:
        if problem.path in files:
            by_path[problem.path].append(problem)
    return by_path


def _groups(
    kept: Iterable[CloneGroup], pooled: Iterable[CloneGroup], touched: set[bytes]
) -> tuple[CloneGroup, ...] | None:
    """The base's groups of untouched forms with the touched ones pooled again, in
    `clone_groups` order (None: two sort keys tie, so that order depends on how the
    groups were met)."""
    forms = {digest.hex() for digest in touched}
    groups = [g for g in kept if g.digest not in forms]
    groups.extend(g for g in pooled if g.digest in forms)
    order = [group_key(g) for g in groups]
    if len(set(order)) < len(order):
        return None
    ranked = sorted(range(len(groups)), key=order.__getitem__)
    return tuple(groups[i] for i in ranked)
