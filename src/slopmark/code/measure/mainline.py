"""Which line of a repository's history a commit is on (adapter over `Repository`).

A history follows the **first-parent line** of its revision by default: the
commits reached from it through first parents only (``git rev-list
--first-parent``), the line a project's main branch moved along. A merged
maintenance branch and a repository merged in with ``git merge
--allow-unrelated-histories`` are then left out, though their changes arrive
through the merge commits on the line.

With every branch (``--all-branches``) a sampled commit's **lineage** says
where it came from:

- ``mainline``: on the first-parent line;
- ``branch``: off the line but a descendant of the line's root (a side
  branch merged into it);
- ``second-root``: not a descendant of the line's root: it belongs to another
  root's history, an unrelated tree merged in (pydantic-core inside pydantic).

The **roots** of a revision are the commits with no parent behind its tip, the first-parent
line's own root first; more than one root means unrelated histories were
merged, which a report flags.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from slopmark.code.measure.git import Repository

MAINLINE, BRANCH, SECOND_ROOT = "mainline", "branch", "second-root"


@dataclass(frozen=True)
class Lineage:
    """The roots of a revision (the first-parent line's root first) and the lineage of
    each commit asked about, keyed by sha."""

    roots: tuple[str, ...]
    of: dict[str, str]


def roots_of(repo: Repository, rev: str) -> tuple[str, ...]:
    """The parentless commits ``rev`` reaches, the first-parent line's root first."""
    every = repo.shas("--max-parents=0", rev)
    first = repo.shas("--first-parent", "--max-parents=0", rev)
    return tuple(first + sorted(sha for sha in every if sha not in first))


def lineage(repo: Repository, rev: str, shas: Sequence[str], all_branches: bool) -> Lineage:
    """The roots of ``rev`` and where each of ``shas`` lies; on the first-parent line
    (not ``all_branches``) every commit is ``mainline`` by construction."""
    roots = roots_of(repo, _end(rev))
    if not all_branches:
        return Lineage(roots, dict.fromkeys(shas, MAINLINE))
    line = set(repo.shas("--first-parent", rev))
    rooted = _descendants(repo, roots[0], rev) if roots else set()
    return Lineage(roots, {sha: _place(sha, line, rooted) for sha in shas})


def _descendants(repo: Repository, root: str, rev: str) -> set[str]:
    """``root`` and the commits of ``rev`` that descend from it."""
    return {root, *repo.shas("--ancestry-path", f"{root}..{_end(rev)}")}


def _end(rev: str) -> str:
    """The revision's tip: ``B`` of ``A..B`` (``HEAD`` when B is left out)."""
    if ".." not in rev:
        return rev
    return rev.split("..")[-1].lstrip(".") or "HEAD"


def _place(sha: str, line: set[str], rooted: set[str]) -> str:
    if sha in line:
        return MAINLINE
    return BRANCH if sha in rooted else SECOND_ROOT
