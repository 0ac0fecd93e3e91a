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
from itertools import chain
from operator import itemgetter
from typing import NamedTuple

from slopmark.code.measure.fileanalysis import FileAnalysis, Fingerprint

#: A fingerprint's digest (its last field).
_DIGEST = itemgetter(Fingerprint._fields.index("digest"))


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
    fingerprints = chain.from_iterable(analysis.fingerprints for analysis in files)
    seen = Counter(map(_DIGEST, fingerprints))  # counted in C: a big tree has ~100k
    repeated = {digest for digest, count in seen.items() if count > 1}
    pooled: dict[bytes, list[CloneMember]] = defaultdict(list)
    kinds: dict[bytes, str] = {}
    for analysis in files:
        # most forms occur once: only files with a repeated one make members
        for kind, start, end, digest in [f for f in analysis.fingerprints if f.digest in repeated]:
            pooled[digest].append(
                CloneMember(analysis.path, start, end, analysis.sloc_between(start, end))
            )
            kinds[digest] = kind
    groups = [
        CloneGroup(digest.hex(), kinds[digest], tuple(sorted(members, key=_member_key)))
        for digest, members in pooled.items()
    ]
    groups.sort(key=group_key)
    return tuple(groups)


def group_key(group: CloneGroup) -> tuple[int, str, int, int]:
    """Where a group stands among a tree's: biggest first, then by its first member."""
    return (-group.sloc, *_member_key(group.members[0]))


def _member_key(member: CloneMember) -> tuple[str, int, int]:
    return member.path, member.start, member.end
