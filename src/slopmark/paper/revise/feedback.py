"""What the editor is told each round: SLOP_FINDINGS.md without the retired instances, and notes.

From round 2 the findings carry the previous round's review notes ("Science
or Slop?", Appendix C.2): the reverted changes with the reviewer's reasons,
the instances retired so far, and, when the preservation check discarded the
round, what it found. Retired instances leave the feedback only: the
measurements keep them.
"""

from __future__ import annotations

from collections.abc import Collection, Sequence
from dataclasses import replace

from slopmark.paper.findings import findings_markdown, title
from slopmark.paper.measures.base import Instance
from slopmark.paper.revise.preserve import Violation
from slopmark.paper.revise.review import Retirement, Reviewed, instance_key
from slopmark.paper.score import PaperScore

#: How much of a reverted change's proposed text the notes quote.
QUOTED = 240


def without_retired(score: PaperScore, retired: Collection[tuple[str, str]]) -> PaperScore:
    """``score`` with the retired instances left out of every result's instance list."""
    results = tuple(
        replace(r, instances=tuple(i for i in r.instances if instance_key(i) not in retired))
        for r in score.results
    )
    return replace(score, results=results)


def remaining(score: PaperScore, retired: Collection[tuple[str, str]]) -> list[Instance]:
    """The instances still open for revision."""
    kept = without_retired(score, retired)
    return [item for result in kept.results for item in result.instances]


def editor_findings(
    paper: str, score: PaperScore, retired: Collection[tuple[str, str]], notes: str = ""
) -> str:
    """The SLOP_FINDINGS.md the editor receives (up to 8 instances per pattern)."""
    return findings_markdown(paper, without_retired(score, retired), extra=notes)


def review_notes(
    round_number: int,
    reviewed: Sequence[Reviewed],
    retired: Sequence[Retirement],
    violations: Sequence[Violation] = (),
) -> str:
    """The notes appended to the next round's findings."""
    lines = [f"## Review notes from round {round_number}", ""]
    lines += _reverted_lines(reviewed)
    lines += _retired_lines(retired)
    lines += _violation_lines(violations)
    return "\n".join(lines).rstrip() + "\n"


def _reverted_lines(reviewed: Sequence[Reviewed]) -> list[str]:
    reverted = [r for r in reviewed if r.verdict.decision == "revert"]
    if not reverted:
        return []
    lines = ["### Reverted changes (restored to the previous text)", ""]
    for item in reverted:
        change, verdict = item.change, item.verdict
        lines.append(
            f"- change {change.number} (`{change.file}:{change.line}`), "
            f"{verdict.category}: {verdict.reason}"
        )
        if change.new:
            lines.append(f"  - proposed: {excerpt(change.new)}")
    return [*lines, ""]


def _retired_lines(retired: Sequence[Retirement]) -> list[str]:
    if not retired:
        return []
    lines = ["### Retired instances (leave these alone)", ""]
    for item in retired:
        checked = ", ".join(item.sections_checked)
        lines.append(
            f"- {title(item.measure)} `{item.file}:{item.line}`: {excerpt(item.text)} "
            f"(sections checked: {checked}; {item.reason or 'no reason given'})"
        )
    return [*lines, ""]


def _violation_lines(violations: Sequence[Violation]) -> list[str]:
    hard = [v for v in violations if v.hard]
    if not hard:
        return []
    lines = ["### The round was discarded: the preservation check failed", ""]
    lines += [f"- {v.kind}: {v.detail}" for v in hard]
    return [*lines, ""]


def excerpt(text: str, limit: int = QUOTED) -> str:
    """``text`` on one line, cut to ``limit`` characters with an ellipsis."""
    flat = " ".join(text.split())
    return flat if len(flat) <= limit else flat[: limit - 1] + "…"
