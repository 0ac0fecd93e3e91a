"""Whole tree reports through the content cache (a warm `measure` of an unchanged tree).

A `TreeReport` is a function of its files' results and of what pools them: the settings,
the rules run, the catalog's ids, the tree's root and the files discovery left out. Its
key is a digest of all of that, each file named by its path and its per-file result key
(content digest + slopmark version + core build + rule pack + settings + suffix,
`slopmark.code.measure.cache.files`), so a report is reused exactly when every input is the same;
one changed byte in one file makes a new key, and the report is pooled again from the
per-file results. Reports live in the cache's ``reports`` table (the most recently used
are kept; `code diff`'s tree summaries are apart, in ``trees``).
"""

from __future__ import annotations

import hashlib
import marshal
from collections.abc import Sequence
from dataclasses import fields
from typing import Any

from slopmark.code.measure.cache.store import ResultCache, seal, unseal
from slopmark.code.measure.clones import CloneGroup, CloneMember
from slopmark.code.measure.fileanalysis import Skipped
from slopmark.code.measure.hits import Problem, RuleHit
from slopmark.code.measure.metrics import Settings
from slopmark.code.measure.report import CallableMetrics, FileMetrics, TreeReport

#: Bump when a stored report's layout changes (the field names are in the key too).
FORMAT = 1


def _shape() -> str:
    dataclasses_ = (FileMetrics, CloneGroup, Skipped, Problem)
    names = [(c.__name__, [f.name for f in fields(c)]) for c in dataclasses_]
    names.extend((c.__name__, list(c._fields)) for c in (CallableMetrics, RuleHit, CloneMember))
    return ";".join(f"{name}:{','.join(found)}" for name, found in names)


def report_key(
    profile: bytes, context: object, files: Sequence[tuple[str, bytes | None]]
) -> bytes | None:
    """The key of a tree report: the engine ``profile``, the ``context`` that pools the
    files (its repr) and each file's (path, result key); None when a key is unknown."""
    digest = hashlib.sha256(f"slopmark-measure-report\0{FORMAT}\0{_shape()}\0".encode())
    digest.update(profile + repr(context).encode("utf-8", "surrogateescape"))
    for path, key in files:
        if key is None:
            return None
        digest.update(b"\0" + path.encode("utf-8", "surrogateescape") + b"\0" + key)
    return digest.digest()


def cached_report(
    cache: ResultCache | None, key: bytes | None, settings: Settings
) -> TreeReport | None:
    """The stored report of ``key`` (None: no key, none stored, or a corrupt or foreign
    entry)."""
    if cache is None or key is None:
        return None
    payload = unseal(cache.report(key))
    if payload is None:
        return None
    try:
        return decode(marshal.loads(payload), settings)
    except (ValueError, EOFError, TypeError, IndexError):
        return None


def keep_report(cache: ResultCache | None, key: bytes | None, report: TreeReport) -> None:
    """Store ``report`` under ``key`` (written at once: the next run may be another
    process)."""
    if cache is None or key is None:
        return
    try:
        payload = marshal.dumps(encode(report))
    except ValueError:  # a value marshal cannot hold: the report is not kept
        return
    cache.put_report(key, seal(payload))
    cache.flush()


def encode(report: TreeReport) -> tuple[Any, ...]:
    files = tuple(
        (f.path, f.sloc, f.rule_lines, f.clone_lines, f.flagged_lines,
         tuple(map(tuple, f.callables)), tuple(map(tuple, f.hits)), f.notes,
         f.erosion, f.verbosity, f.language)
        for f in report.files
    )  # fmt: skip
    groups = tuple((g.digest, g.kind, tuple(map(tuple, g.members))) for g in report.clone_groups)
    skipped = tuple((s.path, s.reason) for s in report.skipped)
    problems = tuple((p.path, p.line, p.message) for p in report.problems)
    return (report.root, report.rules_run, files, groups, skipped, problems)


def decode(values: tuple[Any, ...], settings: Settings) -> TreeReport:
    root, rules_run, files, groups, skipped, problems = values
    return TreeReport(
        root=root,
        settings=settings,
        files=tuple(_file(*row) for row in files),
        skipped=tuple(Skipped(*row) for row in skipped),
        clone_groups=tuple(
            CloneGroup(digest, kind, tuple(map(CloneMember._make, members)))
            for digest, kind, members in groups
        ),
        problems=tuple(Problem(*row) for row in problems),
        rules_run=rules_run,
    )


def _file(path: str, *values: Any) -> FileMetrics:
    sloc, rule_lines, clone_lines, flagged, callables, hits, *rest = values
    return FileMetrics(
        path, sloc, rule_lines, clone_lines, flagged,
        tuple(map(CallableMetrics._make, callables)), tuple(map(RuleHit._make, hits)), *rest,
    )  # fmt: skip
