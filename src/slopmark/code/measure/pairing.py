"""Which file of one side is which file of the other, and which lines a change touched.

Files pair up as git's rename detection pairs them: by path, then identical content
(a file renamed or moved unchanged), then content at least `SIMILARITY` alike (git's
default ``-M50%``), measured on lines. Lines are compared with `difflib`.
"""

from __future__ import annotations

import difflib
from collections import Counter
from collections.abc import Mapping
from dataclasses import dataclass

#: How alike a deleted and an added file must be to count as one renamed file.
SIMILARITY = 0.5
#: Above this many (deleted × added) candidates only identical content pairs (git's
#: ``diff.renameLimit`` has the same purpose).
MAX_CANDIDATES = 400 * 400

ADDED, DELETED, MODIFIED, RENAMED, UNCHANGED = "added", "deleted", "modified", "renamed", ""


@dataclass(frozen=True, slots=True)
class FilePair:
    """A file on the base side (``old``) and the head side (``new``); None when absent."""

    old: str | None
    new: str | None
    status: str


def lines_of(data: bytes | None) -> list[str]:
    return data.decode("utf-8", errors="replace").splitlines() if data is not None else []


def pair_files(
    base: Mapping[str, bytes | None],
    head: Mapping[str, bytes | None],
    texts: tuple[Mapping[str, bytes], Mapping[str, bytes]],
) -> list[FilePair]:
    """Pairs of every file on either side (``base``/``head``: path → content digest;
    ``texts``: the content of each side's changed files)."""
    pairs = []
    for path in sorted(base.keys() & head.keys()):
        same = base[path] is not None and base[path] == head[path]
        pairs.append(FilePair(path, path, UNCHANGED if same else MODIFIED))
    deleted = sorted(base.keys() - head.keys())
    added = sorted(head.keys() - base.keys())
    moved = _identical(deleted, added, base, head)
    if len(deleted) * len(added) <= MAX_CANDIDATES:
        moved.update(_similar(
            [p for p in deleted if p not in moved],
            [p for p in added if p not in moved.values()],
            texts,
        ))  # fmt: skip
    for old, new in moved.items():
        pairs.append(FilePair(old, new, RENAMED))
    taken = set(moved.values())
    pairs.extend(FilePair(p, None, DELETED) for p in deleted if p not in moved)
    pairs.extend(FilePair(None, p, ADDED) for p in added if p not in taken)
    return pairs


def _identical(
    deleted: list[str], added: list[str], base: Mapping[str, bytes | None],
    head: Mapping[str, bytes | None],
) -> dict[str, str]:  # fmt: skip
    by_digest: dict[bytes, list[str]] = {}
    for path in added:
        digest = head[path]
        if digest is not None:
            by_digest.setdefault(digest, []).append(path)
    moved = {}
    for path in deleted:
        candidates = by_digest.get(base[path] or b"")
        if candidates:
            moved[path] = candidates.pop(0)
    return moved


def similarity(old: list[str], new: list[str]) -> float:
    """Share of lines the two files have in common (0..1), counting repeats."""
    if not old and not new:
        return 1.0
    common = sum((Counter(old) & Counter(new)).values())
    return 2 * common / (len(old) + len(new))


def _similar(
    deleted: list[str], added: list[str], texts: tuple[Mapping[str, bytes], Mapping[str, bytes]]
) -> dict[str, str]:
    scored = []
    for old in deleted:
        old_lines = _stripped(texts[0].get(old))
        for new in added:
            score = similarity(old_lines, _stripped(texts[1].get(new)))
            if score >= SIMILARITY:
                scored.append((-score, old, new))
    moved: dict[str, str] = {}
    for _, old, new in sorted(scored):
        if old not in moved and new not in moved.values():
            moved[old] = new
    return moved


def _stripped(data: bytes | None) -> list[str]:
    return [line.strip() for line in lines_of(data) if line.strip()]


def changed_lines(old: list[str], new: list[str]) -> tuple[set[int], set[int]]:
    """(removed line numbers of ``old``, added line numbers of ``new``), 1-based."""
    removed: set[int] = set()
    added: set[int] = set()
    matcher = difflib.SequenceMatcher(a=old, b=new, autojunk=False)
    for tag, a0, a1, b0, b1 in matcher.get_opcodes():
        if tag != "equal":
            removed.update(range(a0 + 1, a1 + 1))
            added.update(range(b0 + 1, b1 + 1))
    return removed, added
