"""What a revision run records: one `RoundRecord` per round, round 0 being the original.

A round keeps the manuscript it ends with (the previous one when the round
was discarded), its measurement, the feedback the editor received, every
model answer, the edit-block rejections, the reviewed changes, the
retirements and the preservation violations. `RevisionRun` holds the rounds
and why the run stopped.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from slopmark.errors import BadInput, did_you_mean
from slopmark.paper.revise.edits import Rejection
from slopmark.paper.revise.preserve import Violation
from slopmark.paper.revise.review import Retirement, Reviewed
from slopmark.paper.score import PaperScore

METHODS = ("harness", "base", "reviewer-refine", "slop-aware")


def check_method(method: str) -> None:
    """`BadInput` naming the closest method when ``method`` is none of `METHODS`."""
    if method not in METHODS:
        hint = did_you_mean(method, METHODS)
        known = f"; {hint}" if hint else f" (methods: {', '.join(METHODS)})"
        raise BadInput(f"--method: unknown method '{method}'{known}")


@dataclass(frozen=True)
class Call:
    """One model answer: who answered (editor, reviewer), about what, and the text."""

    role: str
    subject: str
    answer: str


@dataclass(frozen=True)
class RoundRecord:
    number: int
    #: The manuscript after the round (the previous one when the round was discarded).
    tree: Mapping[str, str]
    #: The measurement of ``tree`` (after review).
    score: PaperScore
    #: SLOP_FINDINGS.md (and notes) as the editor received them; "" for round 0.
    feedback: str = ""
    #: The editor's tree before review (None for round 0).
    draft: Mapping[str, str] | None = None
    calls: tuple[Call, ...] = ()
    rejections: tuple[Rejection, ...] = ()
    reviewed: tuple[Reviewed, ...] = ()
    retirements: tuple[Retirement, ...] = ()
    #: Preservation against the original manuscript, after the round.
    violations: tuple[Violation, ...] = ()
    #: The reviewed tree a hard violation discarded (harness only).
    discarded: Mapping[str, str] | None = None

    @property
    def hard_violations(self) -> tuple[Violation, ...]:
        return tuple(v for v in self.violations if v.hard)

    @property
    def disqualified(self) -> bool:
        """A hard violation discarded the round (harness) or marks it (baselines)."""
        return bool(self.hard_violations)

    @property
    def kept(self) -> tuple[Reviewed, ...]:
        return tuple(r for r in self.reviewed if r.verdict.decision == "keep")

    @property
    def reverted(self) -> tuple[Reviewed, ...]:
        return tuple(r for r in self.reviewed if r.verdict.decision == "revert")


@dataclass(frozen=True)
class RevisionRun:
    method: str
    #: The paper folder.
    paper: str
    main: str
    rounds: tuple[RoundRecord, ...]
    #: Why the run stopped, in words.
    stop: str
    #: The models, described ("editor": "name at url", ...).
    models: Mapping[str, str]

    @property
    def final(self) -> RoundRecord:
        return self.rounds[-1]
