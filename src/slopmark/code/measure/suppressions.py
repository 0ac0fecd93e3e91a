"""What a change does to its own measurement: the suppressions it adds and drops (pure).

The measured never configures its measurement. `code diff` lists and measures both
sides with the base side's ``[tool.slopmark]`` settings (`slopmark.code.measure.sides`), and
counts rule hits with the base side's suppression comments. What the change adds to
them is a finding of kind ``new-suppressions``, what it takes away one of kind
``removed-suppressions``:

- each glob the head side's ``[tool.slopmark] exclude`` adds, naming the files it would
  hide there (a glob it drops: the files it hid on the base side);
- each ``slopmark: ignore[...]`` comment on a line the change added, unless the same
  comment (its rule ids and its line's text) left a removed line: code that moved keeps
  its suppressions. A comment the change adds hides nothing: `without_added` takes it out
  of the head side's analyses, so the hits it names count (as ``new-hits`` when they
  are on added lines) and the head's totals are those without it.
"""

from __future__ import annotations

import hashlib
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import replace

from slopmark.code.measure.compare import (
    NEW_SUPPRESSIONS,
    REMOVED_SUPPRESSIONS,
    Change,
    Touched,
    unmatched,
)
from slopmark.code.measure.fileanalysis import FileAnalysis
from slopmark.code.measure.findings import Finding
from slopmark.code.measure.pairing import lines_of
from slopmark.code.measure.project import CONFIG_FILE, ProjectConfig, hidden_by

#: Finding kind and SARIF rule id of a suppression a change adds.
SUPPRESSION, SUPPRESSION_RULE = "suppression", "added-suppression"
#: Files a glob's finding names before "+N more".
NAMED = 3

Changes = tuple[list[Change], list[Change]]


def _digest(*parts: str) -> str:
    return hashlib.sha256("\x1f".join(parts).encode()).hexdigest()[:32]


def _finding(path: str, line: int, subject: str, message: str, text: str, rank: int) -> Finding:
    key = _digest(SUPPRESSION, subject, text)
    return Finding(
        SUPPRESSION, SUPPRESSION_RULE, path, line, line, subject, "", message, "warning", key,
        _digest(path, key, str(rank)),
    )  # fmt: skip


def exclude_changes(
    base: ProjectConfig, head: ProjectConfig, listed: tuple[Iterable[str], Iterable[str]]
) -> Changes:
    """The globs ``head`` adds to the excludes of ``base`` and those it drops
    (``listed``: every source path of each side, hidden or not)."""
    added = [g for g in dict.fromkeys(head.excludes) if g not in base.excludes]
    dropped = [g for g in dict.fromkeys(base.excludes) if g not in head.excludes]
    new, old = sorted(set(listed[1])), sorted(set(listed[0]))
    return (
        [Change(NEW_SUPPRESSIONS, _glob(head, g, new, ("adds", "hides"))) for g in added],
        [Change(REMOVED_SUPPRESSIONS, _glob(base, g, old, ("drops", "hid"))) for g in dropped],
    )


def _glob(
    config: ProjectConfig, glob: str, paths: Sequence[str], verbs: tuple[str, str]
) -> Finding:
    files = [p for p in paths if hidden_by(p, [glob])]
    more = f" +{len(files) - NAMED} more" if len(files) > NAMED else ""
    named = ", ".join(files[:NAMED]) + more
    message = f"`[tool.slopmark] exclude` {verbs[0]} {glob!r} ({verbs[1]} {named or 'no file'})"
    subject = f"exclude {glob!r}"
    return _finding(CONFIG_FILE, _line_of(config.text, glob), subject, message, "", 0)


def _line_of(text: bytes | None, glob: str) -> int:
    """The line of ``text`` (a pyproject.toml) that quotes ``glob``; 1 when none does."""
    quoted = (f'"{glob}"', f"'{glob}'")
    for number, line in enumerate(lines_of(text), 1):
        if any(q in line for q in quoted):
            return number
    return 1


def comment_changes(
    lines: Touched,
    analyses: tuple[Mapping[str, FileAnalysis], Mapping[str, FileAnalysis]],
    texts: tuple[Mapping[str, bytes], Mapping[str, bytes]],
) -> Changes:
    """The suppression comments on lines the change added (less those that moved), and
    those on lines it removed (less those that moved)."""
    added = _comments(analyses[1], texts[1], lines.added, "added; it hides nothing in this diff")
    removed = _comments(analyses[0], texts[0], lines.removed, "removed")
    return (
        [Change(NEW_SUPPRESSIONS, f) for f in unmatched(added, removed)],
        [Change(REMOVED_SUPPRESSIONS, f) for f in unmatched(removed, added)],
    )


def _subject(ids: Sequence[str]) -> str:
    return f"ignore[{', '.join(ids)}]"


def _comments(
    analyses: Mapping[str, FileAnalysis],
    texts: Mapping[str, bytes],
    touched: Mapping[str, set[int]],
    what: str,
) -> list[Finding]:
    found = []
    for path in sorted(analyses.keys() & touched.keys()):
        text, seen = lines_of(texts.get(path)), Counter[str]()
        for line, ids in analyses[path].ignores:
            if line not in touched[path]:
                continue
            subject = _subject(ids)
            words = " ".join(text[line - 1].split()) if line <= len(text) else ""
            message = f"`slopmark: {subject}` {what}"
            found.append(_finding(path, line, subject, message, words, seen[subject + words]))
            seen[subject + words] += 1
    return found


def without_added(
    analyses: Mapping[str, FileAnalysis], added: Iterable[Change]
) -> dict[str, FileAnalysis]:
    """``analyses`` without the suppression comments ``added`` names (the change's own)."""
    own = {(c.finding.path, c.finding.start, c.finding.subject) for c in added}
    found = {}
    for path, analysis in analyses.items():
        kept = tuple(i for i in analysis.ignores if (path, i[0], _subject(i[1])) not in own)
        found[path] = (
            analysis if len(kept) == len(analysis.ignores) else replace(analysis, ignores=kept)
        )
    return found
