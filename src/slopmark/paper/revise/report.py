"""The final report of a revision run: scores per round per measure, what changed, what was
reverted and why, what the checks refused (Markdown for people, JSON for tools).
"""

from __future__ import annotations

from dataclasses import asdict
from typing import Any

from slopmark.paper.findings import title
from slopmark.paper.revise.align import changes
from slopmark.paper.revise.feedback import excerpt
from slopmark.paper.revise.review import Retirement, Reviewed
from slopmark.paper.revise.rounds import RevisionRun, RoundRecord
from slopmark.paper.score import PaperScore


def score_table(run: RevisionRun) -> dict[str, list[float | None]]:
    """``{measure: [score at round 0, round 1, ...], "aggregate": [...]}``."""
    table: dict[str, list[float | None]] = {}
    for record in run.rounds:
        for result in record.score.results:
            table.setdefault(result.measure, []).append(result.score)
    table["aggregate"] = [record.score.aggregate for record in run.rounds]
    return table


def scores_json(score: PaperScore) -> dict[str, Any]:
    """The scores of one measurement: per measure, per plane, and the aggregate."""
    measures = {
        r.measure: {"score": r.score, "status": r.status, "flagged": r.flagged, "units": r.units,
                    "instances": len(r.instances), "reason": r.reason}
        for r in score.results
    }  # fmt: skip
    return {"measures": measures, "planes": dict(score.planes), "aggregate": score.aggregate}


def round_json(record: RoundRecord) -> dict[str, Any]:
    return {
        "round": record.number,
        "scores": scores_json(record.score),
        "disqualified": record.disqualified,
        "changes": [{**asdict(r.change), **_verdict(r)} for r in record.reviewed],
        "rejections": [asdict(item) for item in record.rejections],
        "retirements": [asdict(item) for item in record.retirements],
        "violations": [asdict(item) for item in record.violations],
        "calls": len(record.calls),
    }


def _verdict(reviewed: Reviewed) -> dict[str, Any]:
    verdict = reviewed.verdict
    return {"verdict": verdict.decision, "category": verdict.category, "reason": verdict.reason}


def run_json(run: RevisionRun) -> dict[str, Any]:
    return {
        "paper": run.paper, "main": run.main, "method": run.method, "models": dict(run.models),
        "stop": run.stop, "rounds": [round_json(record) for record in run.rounds],
        "scores": score_table(run),
    }  # fmt: skip


def report_markdown(run: RevisionRun) -> str:
    """The final report."""
    lines = [f"# Revision report: {run.paper}", ""]
    lines += [f"- method: {run.method}", f"- main file: {run.main}"]
    lines += [f"- {role}: {model}" for role, model in run.models.items()]
    lines += [f"- rounds run: {len(run.rounds) - 1}", f"- stopped: {run.stop}"]
    if run.method != "harness":
        lines.append("- a baseline: its changes are not reviewed and every accepted edit stays")
    lines.append("")
    lines += _table_lines(run)
    lines += _overall_lines(run)
    for record in run.rounds[1:]:
        lines += _round_lines(record)
    return "\n".join(lines).rstrip() + "\n"


def _table_lines(run: RevisionRun) -> list[str]:
    heads = [f"round {r.number}" + (" (discarded)" if r.disqualified else "") for r in run.rounds]
    lines = ["## Scores per round", "", "| measure | " + " | ".join(heads) + " |"]
    lines.append("|---" * (len(heads) + 1) + "|")
    for measure, values in score_table(run).items():
        name = "aggregate S(p)" if measure == "aggregate" else title(measure)
        lines.append(f"| {name} | " + " | ".join(map(_cell, values)) + " |")
    return [*lines, ""]


def _overall_lines(run: RevisionRun) -> list[str]:
    """What differs between the original and the final manuscript, paragraph by paragraph."""
    found = changes(dict(run.rounds[0].tree), dict(run.final.tree))
    lines = ["## What changed (original → final)", ""]
    if not found:
        return [*lines, "Nothing: the final manuscript is the original.", ""]
    for change in found:
        kind = "inserted" if not change.old else "deleted" if not change.new else "rewritten"
        shown = excerpt(change.new or change.old, 160)
        lines.append(f"- `{change.file}:{change.line}` {kind}: {shown}")
    return [*lines, ""]


def _cell(value: float | None) -> str:
    return "n/a" if value is None else f"{value:.3f}"


def _round_lines(record: RoundRecord) -> list[str]:
    lines = [f"## Round {record.number}", "", *_violation_lines(record)]
    lines += _section("Kept changes", [_change_line(r) for r in record.kept])
    lines += _section("Reverted changes", [_change_line(r) for r in record.reverted])
    lines += _section("Refused edits", [f"`{r.file}`: {r.reason}" for r in record.rejections])
    lines += _section("Retirements", [_retirement_line(item) for item in record.retirements])
    audits = [f"{v.kind}: {v.detail}" for v in record.violations if not v.hard]
    return lines + _section("Audit flags", audits)


def _violation_lines(record: RoundRecord) -> list[str]:
    if not record.disqualified:
        return []
    outcome = "the round was discarded" if record.discarded is not None else "the round is kept"
    lines = [f"The preservation check found hard violations ({outcome}):", ""]
    return [*lines, *(f"- {v.kind}: {v.detail}" for v in record.hard_violations), ""]


def _section(heading: str, items: list[str]) -> list[str]:
    if not items:
        return []
    return [f"### {heading}", "", *(f"- {item}" for item in items), ""]


def _change_line(reviewed: Reviewed) -> str:
    change, verdict = reviewed.change, reviewed.verdict
    return f"change {change.number} `{change.file}:{change.line}` [{verdict.category}]: " \
        f"{verdict.reason or 'no reason given'}"  # fmt: skip


def _retirement_line(item: Retirement) -> str:
    status = "retired" if item.accepted else f"refused ({item.refusal})"
    checked = ", ".join(item.sections_checked) or "none"
    return f"{title(item.measure)} `{item.file}:{item.line}` {status}; sections checked: " \
        f"{checked}; {item.reason or 'no reason given'}"  # fmt: skip
