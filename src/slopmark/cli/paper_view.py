"""Tables and files of `slopmark paper`."""

from __future__ import annotations

import json
import sys
from collections.abc import Sequence
from dataclasses import asdict
from pathlib import Path
from typing import Any

from rich.console import Console
from rich.table import Table

from slopmark.cli.output import write_file
from slopmark.cli.tables import print_table, sized_console
from slopmark.executor import Executor
from slopmark.paper.bench import AGGREGATE, AGGREGATE_NO_FLAGS, CROSSED, BenchResult, flag_summary
from slopmark.paper.document import Note
from slopmark.paper.findings import counts, findings_json, findings_markdown, title
from slopmark.paper.pairs import Estimate, PairReport
from slopmark.paper.score import PaperScore
from slopmark.paper.sweep import PaperJob
from slopmark.plurals import count


def _num(value: float | None) -> str:
    return "–" if value is None else f"{value:.3f}"


def rests_on_line(score: PaperScore) -> str:
    """``rests on: STRUCTURE: a, b; ARTIFACTS: evidence_gap (0/1)``, with a warning when one
    0/1 measure carries a whole plane."""
    basis = "; ".join(f"{plane}: {', '.join(names) or 'nothing'}"
                      for plane, names in score.rests_on.items())  # fmt: skip
    flags = score.flag_planes
    if not flags:
        return f"rests on: {basis}"
    return (f"rests on: {basis} — {', '.join(flags)} rest{'s' if len(flags) == 1 else ''} on "
            "a single 0/1 flag, which decides that plane's share of S(p)")


def print_score(
    console: Console, paper: str, notes: Sequence[Note], score: PaperScore
) -> None:
    table = Table("measure", "plane", "score", "units", title=f"Scientific slop: {paper}")
    for result in score.results:
        table.add_row(title(result.measure), result.plane, _num(result.score), counts(result))
    print_table(console, table)
    planes = ", ".join(f"{plane} {_num(value)}" for plane, value in score.planes.items())
    covered = ", ".join(score.covered) or "none"
    console.print(f"aggregate S(p) {_num(score.aggregate)} (planes covered: {covered}; {planes})")
    console.print(rests_on_line(score))
    if score.recovery is not None:
        console.print(f"structure recovered from the PDF: {recovered_text(score.recovery)}")
    for note in notes:
        where = f" ({note.at.file}:{note.at.line})" if note.at else ""
        console.print(f"[yellow]note:[/] {note.message}{where}")


def write_findings(path: Path, paper: str, score: PaperScore) -> None:
    if path.suffix.lower() == ".json":
        text = json.dumps(findings_json(paper, score), indent=1) + "\n"
    else:
        text = findings_markdown(paper, score)
    write_file(path, text, "--findings")


def _estimate(estimate: Estimate) -> str:
    if estimate.value is None:
        return "–"
    if estimate.low is None or estimate.high is None:
        return f"{estimate.value:.3f}"
    return f"{estimate.value:.3f} [{estimate.low:.3f}, {estimate.high:.3f}]"


def _aggregate(result: BenchResult) -> PairReport | None:
    return next((r for r in result.reports if r.measure == AGGREGATE), None)


def flag_line(result: BenchResult) -> str | None:
    """Which planes rest on a single 0/1 measure, in how many papers (None: in none)."""
    found = flag_summary(result.scores)
    if not found:
        return None
    planes = ", ".join(f"{plane} in {n} of {len(result.scores)}" for plane, n in found.items())
    return (f"rests on a single 0/1 measure: {planes} papers; "
            f"'{title(AGGREGATE_NO_FLAGS)}' is S(p) with those planes left out")  # fmt: skip


def design_line(result: BenchResult) -> str:
    """What was compared and how the intervals were made."""
    last = _aggregate(result)
    human = count(last.human_papers, "human paper") if last else ""
    papers = f"{last.ai_papers} AI and {human}" if last else ""
    if result.design == CROSSED:
        what = "all-cross-pairs accuracy (every AI paper against every human paper; = AUROC)"
    else:
        what = "matched-pair accuracy (the pairs of the file; a paper may sit in several)"
    return (f"computed: {what}; {papers} (aggregate). PairAcc intervals: two-way cluster "
            "bootstrap over AI papers and human papers (Wilson's score interval when every pair "
            "goes one way); AUROC: Newcombe's score interval; TPR: papers redrawn per group, "
            "widened to Wilson's interval over the AI papers")


def print_bench(console: Console, result: BenchResult) -> None:
    heading = f"Pair benchmark ({count(result.pairs, 'usable pair')}; higher = more AI-like)"
    table = Table("measure", "pairs", "PairAcc [95% CI]", "AUROC [95% CI]", "TPR@5%FPR [95% CI]",
                  title=heading)  # fmt: skip
    for report in result.reports:
        table.add_row(
            title(report.measure), str(report.pairs), _estimate(report.pair_accuracy),
            _estimate(report.auroc), _estimate(report.tpr_at_5_fpr),
        )  # fmt: skip
    print_table(console, table)
    console.print(design_line(result))
    flags = flag_line(result)
    if flags is not None:
        console.print(flags)
    aggregate = _aggregate(result)
    for note in aggregate.notes if aggregate is not None else ():
        console.print(f"[yellow]note:[/] {note}")


def bench_json(result: BenchResult, problems: list[tuple[str, str]]) -> dict[str, Any]:
    return {
        "design": result.design,
        "computed": design_line(result),
        "flag_planes": flag_summary(result.scores),
        "pairs": result.pairs,
        "reports": [asdict(report) for report in result.reports],
        "papers": {path: {"aggregate": s.aggregate, "planes": s.planes, "rests_on": s.rests_on,
                          "scores": {r.measure: r.score for r in s.results}}
                   for path, s in result.scores.items()},
        "problems": [{"where": w, "error": e} for w, e in [*problems, *result.problems]],
    }  # fmt: skip


def print_papers(paths: Sequence[Path], job: PaperJob, executor: Executor, as_json: bool) -> int:
    """Score several papers as a sweep; print each (JSON: one list); 2 when one failed."""
    from slopmark.cli.output import print_json
    from slopmark.cli.sweep_options import print_ending
    from slopmark.cli.sweep_view import sweep_view
    from slopmark.paper.sweep import score_papers

    with sweep_view("scoring papers") as view:
        done = score_papers(executor, paths, job, view)
    if as_json:
        papers = [
            {**findings_json(key, s.score), "profile": job.profile,
             "notes": [note.message for note in s.notes]}
            for key in dict.fromkeys(map(str, paths)) if (s := done.scored.get(key))
        ]  # fmt: skip
        problems = [{"where": where, "error": error} for where, error in done.problems]
        print_json({"papers": papers, "problems": problems})
    else:
        console = sized_console()
        for key in dict.fromkeys(map(str, paths)):
            if key in done.scored:
                print_score(console, key, done.scored[key].notes, done.scored[key].score)
    for where, error in done.problems:
        print(f"slopmark: error: {where}: {error} (left out)", file=sys.stderr)
    if done.tally.cancelled:
        print_ending(done.tally, "papers")
        return 130
    return 2 if done.problems else 0


#: How each count of the PDF route's structure recovery reads in a sentence.
_RECOVERED = {
    "words": "words",
    "prose_words": "words of running text",
    "renumbered": "printed section numbers renumbered",
}


def recovered_text(recovery: dict[str, int]) -> str:
    """The recovery summary as a reader says it ("6 sections, …, an abstract")."""
    parts = []
    for name, value in recovery.items():
        if name == "abstract":
            parts.append("an abstract" if value else "no abstract")
        else:
            parts.append(f"{value} {_RECOVERED.get(name, name)}")
    return ", ".join(parts)
