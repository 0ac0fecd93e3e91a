"""`SLOP_FINDINGS.md` and its JSON twin: the located instances of every pattern.

Per measure: its score with the unit counts behind it, weak flags, and every
instance (file, line, the offending text as a person reads it, what a repair
would connect), grouped under the section that holds it in the order the
sections first appear. The JSON twin holds the same instances, every field.
The revision loop feeds this file to its editor, so it names places and
connections, never a score target.
"""

from __future__ import annotations

from dataclasses import asdict
from typing import Any

from slopmark.paper.measures.base import Instance, MeasureResult
from slopmark.paper.score import PaperScore

#: Titles that are not the measure's name capitalised with spaces for underscores.
TITLES = {"cross_section_references": "Cross-section references"}


def title(measure: str) -> str:
    """``evidence_gap`` → ``Evidence gap``."""
    return TITLES.get(measure, measure.replace("_", " ").capitalize())


def counts(result: MeasureResult) -> str:
    """``7 / 23 objects flagged``, or why there is no score."""
    if result.status != "ok":
        return f"{result.status.replace('_', ' ')}: {result.reason or 'no reason given'}"
    text = f"{result.flagged} / {result.units} {result.unit_name} flagged"
    return text + (f" (weak: {result.reason})" if result.weak else "")


def by_section(instances: tuple[Instance, ...]) -> dict[str, list[Instance]]:
    """The instances under the section holding them, sections in order of first appearance."""
    groups: dict[str, list[Instance]] = {}
    for item in instances:
        groups.setdefault(item.section or "(outside any section)", []).append(item)
    return groups


def _instance_lines(result: MeasureResult) -> list[str]:
    lines = []
    for section, items in by_section(result.instances).items():
        lines += [f"### {section} ({len(items)})", ""]
        for item in items:
            where = f"{item.at.file}:{item.at.line}"
            text = " ".join(item.text.split())
            lines += [f"- `{where}`: {text}", f"  - repair: {item.repair}"]
        lines.append("")
    return lines


def findings_markdown(paper: str, score: PaperScore, extra: str = "") -> str:
    """The whole findings file for one paper (``extra`` is appended as its own section)."""
    lines = [f"# Scientific slop findings: {paper}", ""]
    for result in score.results:
        lines += [f"## {title(result.measure)} ({result.plane})", "", counts(result), ""]
        lines += _instance_lines(result) or [""]
    if extra:
        lines += [extra.rstrip(), ""]
    return "\n".join(lines)


def findings_json(paper: str, score: PaperScore) -> dict[str, Any]:
    return {
        "paper": paper,
        "aggregate": score.aggregate,
        "planes": score.planes,
        "rests_on": score.rests_on,
        "flag_planes": list(score.flag_planes),
        "recovery": score.recovery,
        "measures": [
            {**asdict(r), "instances": [asdict(i) for i in r.instances]} for r in score.results
        ],
    }
