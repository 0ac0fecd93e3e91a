"""Clone groups: candidates whose normalised forms are equal, pooled across files.

A candidate is a function definition or an ``if``/``for``/``while``/``with``/
``try``/``match`` statement at any depth (not ``if TYPE_CHECKING:``) spanning
at least 3 SLOC lines. The native core digests its normal form, the reference
tool's tree-sitter form: each node's kind with its children, comments and
plain-string statements dropped, identifiers renamed to positions by first
appearance and literals reduced to their kind (`native/src/clones.rs`). A form
seen twice or more is a clone group and every member counts, the first one too.
"""

from __future__ import annotations

from collections import Counter, defaultdict
from collections.abc import Sequence
from dataclasses import dataclass
from typing import NamedTuple

from slopmark.code.analysis import FileAnalysis


class CloneMember(NamedTuple):
    path: str
    start: int
    end: int
    sloc: int


@dataclass(frozen=True, slots=True)
class CloneGroup:
    digest: str
    kind: str
    members: tuple[CloneMember, ...]

    @property
    def sloc(self) -> int:
        """SLOC lines covered by all members together."""
        return sum(m.sloc for m in self.members)


def clone_groups(files: Sequence[FileAnalysis]) -> tuple[CloneGroup, ...]:
    """Group equal fingerprints across ``files``; biggest groups first."""
    seen = Counter(fp.digest for analysis in files for fp in analysis.fingerprints)
    pooled: dict[bytes, list[CloneMember]] = defaultdict(list)
    kinds: dict[bytes, str] = {}
    for analysis in files:
        for fp in analysis.fingerprints:
            if seen[fp.digest] > 1:  # most forms occur once: no member is made for them
                member = CloneMember(
                    analysis.path, fp.start, fp.end, analysis.sloc_between(fp.start, fp.end)
                )
                pooled[fp.digest].append(member)
                kinds[fp.digest] = fp.kind
    groups = [
        CloneGroup(digest.hex(), kinds[digest], tuple(sorted(members, key=_member_key)))
        for digest, members in pooled.items()
    ]
    groups.sort(key=lambda g: (-g.sloc, _member_key(g.members[0])))
    return tuple(groups)


def _member_key(member: CloneMember) -> tuple[str, int, int]:
    return member.path, member.start, member.end
