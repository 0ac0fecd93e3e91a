"""Findings with stable fingerprints: the complex callables, rule hits and clone members
of a measured file, as SARIF, baselines and `code diff` name them.

A fingerprint leaves line numbers out, so inserting lines above a finding or editing
another function of the file keeps it. It is made of the file's path, the finding's
kind, its subject (qualified name, rule id, clone digest), the callable it sits in, the
whitespace-normalised text of a rule hit's lines (less any ``slopmark: ignore[...]``
directive: adding a suppression to a hit's line keeps the hit's fingerprint), and the
finding's rank among the findings of the file that share all of that (two equal hits in
one function).

``key`` is the same without the path and the rank: what `code diff` compares when it
matches code that moved between files.
"""

from __future__ import annotations

import hashlib
import re
from collections import Counter, defaultdict
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from slopmark.code.measure.clones import CloneGroup
from slopmark.code.measure.fileanalysis import FileAnalysis
from slopmark.code.measure.report import CallableMetrics, FileMetrics

#: Finding kinds of `code measure` (and of baselines).
COMPLEX, HIT, CLONE = "complex", "hit", "clone"
#: SARIF rule ids of the findings that are not rule hits.
COMPLEX_RULE, CLONE_RULE = "complex-callable", "duplicated-block"
#: A suppression comment's directive (with its comment opener), left out of a hit's text.
_DIRECTIVE = re.compile(r"[ \t]*(#|//|/\*)?[ \t]*slopmark:[ \t]*ignore\[[^\]\n]*\]([ \t]*\*/)?")


@dataclass(frozen=True, slots=True)
class Finding:
    """One complex callable, rule hit or clone member of a file."""

    kind: str
    rule: str
    path: str
    start: int
    end: int
    subject: str
    context: str
    message: str
    level: str
    key: str
    fingerprint: str
    #: CC of a complex callable, else 0
    cc: int = 0


def _digest(*parts: str) -> str:
    return hashlib.sha256("\x1f".join(parts).encode()).hexdigest()[:32]


def enclosing(callables: Sequence[CallableMetrics], line: int) -> str:
    """Qualified name of the innermost callable holding ``line`` ('' at module level)."""
    best: CallableMetrics | None = None
    for c in callables:
        if c.start <= line <= c.end and (best is None or c.start >= best.start):
            best = c
    return best.qualname if best else ""


def normalised(lines: Sequence[str], start: int, end: int) -> str:
    """Lines ``start..end`` (1-based) with whitespace runs collapsed."""
    return "\n".join(" ".join(line.split()) for line in lines[start - 1 : end])


class _Ranker:
    """Fingerprints from keys: the rank of each key within the file is added."""

    def __init__(self, path: str) -> None:
        self.path = path
        self.seen: Counter[str] = Counter()

    def __call__(self, key: str) -> str:
        rank = self.seen[key]
        self.seen[key] += 1
        return _digest(self.path, key, str(rank))


@dataclass(frozen=True, slots=True)
class CloneSpot:
    """A member of a clone group: its form's digest (hex), kind, group size and span."""

    digest: str
    kind: str
    count: int
    start: int
    end: int


Members = dict[str, list[CloneSpot]]


def members_by_path(groups: Sequence[CloneGroup]) -> Members:
    """Each file's clone members, from a tree's clone groups."""
    found: Members = defaultdict(list)
    for group in groups:
        for m in group.members:
            found[m.path].append(
                CloneSpot(group.digest, group.kind, len(group.members), m.start, m.end)
            )
    return found


def clone_spots(analysis: FileAnalysis, counts: Mapping[bytes, int]) -> list[CloneSpot]:
    """A file's clone members, given how often each form occurs in its tree."""
    return [
        CloneSpot(fp.digest.hex(), fp.kind, counts[fp.digest], fp.start, fp.end)
        for fp in analysis.fingerprints
        if counts.get(fp.digest, 0) > 1
    ]


def file_findings(
    metrics: FileMetrics, members: Members, text: bytes | None, cc_threshold: int
) -> list[Finding]:
    """Every finding of one file, in line order (``members``: its tree's clone members)."""
    lines = text.decode("utf-8", errors="replace").splitlines() if text is not None else []
    found = [
        *_complex(metrics, cc_threshold),
        *_hits(metrics, lines),
        *_clones(metrics, members.get(metrics.path, ())),
    ]
    found.sort(key=lambda f: (f.start, f.kind, f.subject, f.end))
    rank = _Ranker(metrics.path)
    return [_ranked(f, rank(f.key)) for f in found]


def _ranked(finding: Finding, fingerprint: str) -> Finding:
    return Finding(
        finding.kind, finding.rule, finding.path, finding.start, finding.end, finding.subject,
        finding.context, finding.message, finding.level, finding.key, fingerprint, finding.cc,
    )  # fmt: skip


def _complex(metrics: FileMetrics, threshold: int) -> list[Finding]:
    return [
        Finding(
            COMPLEX,
            COMPLEX_RULE,
            metrics.path,
            c.start,
            c.end,
            c.qualname,
            c.qualname,
            f"`{c.qualname}` is too complex (CC {c.cc} > {threshold})",
            "warning",
            _digest(COMPLEX, c.qualname),
            "",
            c.cc,
        )  # fmt: skip
        for c in metrics.callables
        if c.cc > threshold
    ]


def _hits(metrics: FileMetrics, lines: Sequence[str]) -> list[Finding]:
    found = []
    for hit in metrics.hits:
        context = enclosing(metrics.callables, hit.start)
        text = _DIRECTIVE.sub("", normalised(lines, hit.start, hit.end))
        level = {"error": "error", "warning": "warning"}.get(hit.severity, "note")
        key = _digest(HIT, hit.rule, context, text)
        found.append(
            Finding(
                HIT,
                hit.rule,
                metrics.path,
                hit.start,
                hit.end,
                hit.rule,
                context,
                hit.message,
                level,
                key,
                "",
            )  # fmt: skip
        )
    return found


def _clones(metrics: FileMetrics, spots: Sequence[CloneSpot]) -> list[Finding]:
    found = []
    for member in sorted(spots, key=lambda s: (s.start, s.end)):
        context = enclosing(metrics.callables, member.start)
        message = f"{member.kind} block duplicated {member.count} times"
        key = _digest(CLONE, member.digest, context)
        found.append(
            Finding(
                CLONE,
                CLONE_RULE,
                metrics.path,
                member.start,
                member.end,
                member.digest,
                context,
                message,
                "note",
                key,
                "",
            )  # fmt: skip
        )
    return found
