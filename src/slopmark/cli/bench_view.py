"""Tables, JSON and charts of `slopmark code bench`."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import asdict
from pathlib import Path
from typing import Any

from rich.console import Console
from rich.table import Table

from slopmark.cli.bench_integrity_view import integrity_json, print_integrity
from slopmark.cli.tables import print_table
from slopmark.code.bench.manifest import read_manifest
from slopmark.code.bench.problem import Problem
from slopmark.code.bench.results import GROUPS, AgentRecord, CheckpointResult, Quality
from slopmark.code.bench.scoring import (
    GroupRate,
    Rates,
    Summary,
    group_rates,
    phase,
    summarize,
)
from slopmark.plurals import count


def _num(value: float | None, digits: int = 3) -> str:
    return "–" if value is None else f"{value:.{digits}f}"


def _pct(value: float | None) -> str:
    return "–" if value is None else f"{100 * value:.1f}%"


def _mark(flag: bool) -> str:
    return "✓" if flag else "·"


def print_problems(console: Console, problems: Sequence[Problem]) -> None:
    table = Table("problem", "version", "checkpoints", "entry", "description")
    for problem in problems:
        names = ", ".join(c.name.removeprefix("checkpoint_") for c in problem.checkpoints)
        table.add_row(problem.name, str(problem.version), names, problem.entry_script,
                      problem.description)  # fmt: skip
    print_table(console, table)


def _tests_cell(result: CheckpointResult, group: str) -> str:
    tests = result.group(group)
    return f"{sum(t.passed for t in tests)}/{len(tests)}" if tests else "–"


def print_result_line(console: Console, result: CheckpointResult) -> None:
    """One line per finished checkpoint, as the run goes."""
    passed = sum(t.passed for t in result.tests)
    quality = result.quality
    erosion = _num(quality.erosion if quality else None)
    console.print(
        f"{result.problem}/{result.checkpoint}: {result.status}, tests {passed}/{len(result.tests)}"
        f", strict {_mark(result.strict)}, erosion {erosion}"
        + (f" ({result.error})" if result.error else "")
    )


def _quality_cells(q: Quality | None) -> list[str]:
    if q is None:
        return ["–"] * 6
    max_cc = "–" if q.max_cc is None else str(q.max_cc)
    sizes = [str(q.sloc), str(q.complex_callables), max_cc]
    return [_num(q.erosion), _num(q.verbosity), *sizes, _churn_cell(q)]


def _churn_cell(q: Quality) -> str:
    """Relative churn of the code files, their lines added/removed beside it."""
    if q.code_lines_added is None:  # a result written before code churn existed
        return f"+{q.lines_added}/-{q.lines_removed} (all)"
    return f"{_num(q.relative_churn, 2)} +{q.code_lines_added}/-{q.code_lines_removed}"


def _agent_cells(a: AgentRecord | None) -> list[str]:
    if a is None:
        return ["–", "–"]
    known = a.input_tokens is not None
    tokens = str((a.input_tokens or 0) + (a.output_tokens or 0)) if known else "–"
    return [_num(a.cost_usd, 4), tokens]


def _checkpoint_row(r: CheckpointResult) -> list[str]:
    return [
        r.problem, r.checkpoint.removeprefix("checkpoint_"), phase(r.index, r.count), r.status,
        *(_tests_cell(r, g) for g in GROUPS), _mark(r.strict), _mark(r.isolated), _mark(r.core),
        *_quality_cells(r.quality), *_agent_cells(r.agent), _num(r.timings.get("total_s"), 1),
    ]  # fmt: skip


def _checkpoint_table(results: Sequence[CheckpointResult]) -> Table:
    table = Table("problem", "ckpt", "phase", "status", *GROUPS, "strict", "iso", "core ok",
                  "erosion", "verb.", "SLOC", "CC>10", "max CC", "churn", "cost $", "tokens",
                  "wall s", title="Checkpoints")  # fmt: skip
    for result in results:
        table.add_row(*_checkpoint_row(result))
    return table


def _rates_row(name: str, rates: Rates) -> list[str]:
    shares = [_pct(rates.strict), _pct(rates.isolated), _pct(rates.core)]
    means = [_num(rates.erosion), _num(rates.verbosity), _num(rates.relative_churn, 2),
             _num(rates.complex_callables, 1)]  # fmt: skip
    spend = [_num(rates.cost_per_checkpoint_usd, 4), _num(rates.wall_per_checkpoint_s, 1)]
    return [name, str(rates.checkpoints), *shares, *means, str(rates.measured), *spend]


def _phase_table(summary: Summary) -> Table:
    table = Table("phase", "checkpoints", "strict", "isolated", "core", "erosion", "verbosity",
                  "churn", "CC>10", "measured", "cost $", "wall s",
                  title="By phase (means per checkpoint)")  # fmt: skip
    for name, rates in summary.phases.items():
        table.add_row(*_rates_row(name, rates))
    table.add_row(*_rates_row("all", summary.overall))
    return table


def _group_cell(group: GroupRate) -> str:
    return "–" if group.rate is None else f"{_pct(group.rate)} ({group.passed}/{group.total})"


def _group_table(summary: Summary) -> Table:
    table = Table("phase", *GROUPS, title="Test pass rate by group (mean over checkpoints; "
                  "passed/total pooled)")  # fmt: skip
    rows = [*summary.phases.items(), ("all", summary.overall)]
    for name, rates in rows:
        table.add_row(name, *(_group_cell(rates.groups[g]) for g in GROUPS))
    return table


def _trajectory_table(summary: Summary) -> Table:
    table = Table("problem", "partial", "erosion slope", "erosion rose", "verbosity slope",
                  "verbosity rose", title="Trajectories (slope per checkpoint)")  # fmt: skip
    for t in summary.trajectories:
        table.add_row(t.problem, _mark(t.partial), _num(t.erosion_slope, 4), _flag(t.erosion_rose),
                      _num(t.verbosity_slope, 4), _flag(t.verbosity_rose))  # fmt: skip
    return table


def _flag(value: bool | None) -> str:
    return "–" if value is None else ("yes" if value else "no")


def print_report(
    console: Console,
    run_dir: Path,
    results: Sequence[CheckpointResult],
    recomputed: Sequence[str] = (),
) -> None:
    """Every table of the report; ``recomputed`` names the checkpoints whose churn was
    counted again from their snapshots (`rechurn`)."""
    if not results:
        console.print(f"{run_dir}: no checkpoint has finished yet")
        return
    summary = summarize(results)
    print_table(console, _checkpoint_table(results), keys=2)
    print_table(console, _phase_table(summary))
    print_table(console, _group_table(summary))
    print_table(console, _trajectory_table(summary))
    print_integrity(console, results)
    print_load_sensitive(console, results)
    cost = _num(summary.cost_usd, 4) + (
        f" (+{summary.cost_unknown} unknown)" if summary.cost_unknown else ""
    )
    console.print(
        f"{count(summary.overall.checkpoints, 'checkpoint')}: "
        f"strict {_pct(summary.overall.strict)}, "
        f"isolated {_pct(summary.overall.isolated)}, core {_pct(summary.overall.core)}; "
        f"partial {_pct(summary.partial)} of problems; erosion rose in "
        f"{_pct(summary.erosion_rose_share)}, verbosity in {_pct(summary.verbosity_rose_share)} "
        f"of trajectories; relative churn {_num(summary.overall.relative_churn, 2)} (mean); "
        f"cost {cost}; agent time {summary.agent_wall_s:.0f} s; rule set {rule_sets(results)}"
    )
    if recomputed:
        console.print(_recomputed_note(recomputed))


def _recomputed_note(recomputed: Sequence[str]) -> str:
    more = len(recomputed) - 5
    shown = ", ".join(recomputed[:5]) + (f" and {more} more" if more > 0 else "")
    return (
        f"relative churn recomputed from the workspace snapshots for "
        f"{count(len(recomputed), 'checkpoint')} written before it was stored: {shown}"
    )


def print_load_sensitive(console: Console, results: Sequence[CheckpointResult]) -> None:
    """One line naming the checkpoints with load-sensitive tests, when there are any."""
    counts = []
    for result in results:
        tests = result.load_sensitive
        flipped = sum(t.first_outcome is not None and t.outcome != t.first_outcome for t in tests)
        if tests:
            counts.append(f"{result.problem}/{result.checkpoint} {len(tests)} ({flipped} flipped)")
    if counts:
        console.print("load-sensitive tests (failed on their own timeout, rerun once; the "
                      f"rerun counts): {', '.join(counts)}")  # fmt: skip


def _result_json(result: CheckpointResult) -> dict[str, Any]:
    quality = result.quality
    return {**asdict(result), "phase": phase(result.index, result.count), "strict": result.strict,
            "isolated": result.isolated, "core": result.core,
            "pass_fraction": result.pass_fraction, "load_sensitive": len(result.load_sensitive),
            "relative_churn": quality.relative_churn if quality else None,
            "groups": {g: asdict(r) for g, r in group_rates([result]).items()}}  # fmt: skip


def rule_sets(results: Sequence[CheckpointResult]) -> str:
    """The rule set(s) the checkpoints were measured with (the paper's when none was)."""
    found = sorted({r.quality.rule_set for r in results if r.quality is not None})
    return ", ".join(found) or "paper"


def report_json(
    run_dir: Path, results: Sequence[CheckpointResult], recomputed: Sequence[str] = ()
) -> dict[str, Any]:
    """Every number of the report; ``churn_recomputed`` lists the checkpoints whose churn
    was counted again from their snapshots (`rechurn`)."""
    summary = summarize(results)
    return {
        "run": read_manifest(run_dir).record,
        "rule_set": rule_sets(results),
        "churn_recomputed": list(recomputed),
        "summary": {
            "overall": asdict(summary.overall),
            "phases": {name: asdict(rates) for name, rates in summary.phases.items()},
            "partial": summary.partial,
            "erosion_rose_share": summary.erosion_rose_share,
            "verbosity_rose_share": summary.verbosity_rose_share,
            "cost_usd": summary.cost_usd, "cost_unknown": summary.cost_unknown,
            "input_tokens": summary.input_tokens, "output_tokens": summary.output_tokens,
            "agent_wall_s": summary.agent_wall_s,
        },
        "trajectories": [
            {"problem": t.problem, "partial": t.partial, "erosion_slope": t.erosion_slope,
             "verbosity_slope": t.verbosity_slope, "erosion_rose": t.erosion_rose,
             "verbosity_rose": t.verbosity_rose}
            for t in summary.trajectories
        ],
        "integrity": integrity_json(results),
        "checkpoints": [_result_json(result) for result in results],
    }  # fmt: skip
