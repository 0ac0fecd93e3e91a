"""Store every checkpoint of a run as a run of the `code_iterative` domain.

Subject = agent (+ model); task = problem version and checkpoint; template =
the problem (its checkpoints are correlated, so the board clusters on it).
``passed`` is the strict solve, ``score`` the share of tests passed. Quality
numbers go to ``details``, with the numbers a board row of the domain shows
(`slopmark.board.checkpoints`): ``group_rates``, ``relative_churn``, ``wall_s``,
the failing test ids per group (``failing``), and where the checkpoint comes from
(``bench``: run folder, problem set, agent, model, prompt, position, phase), from
which `slopmark.store.benchrows` writes the row the /bench pages read. With it, the
checkpoint's snapshot is kept as a code report (``details["code_report"]``, its page
``/code/{id}``) and the agent's log folder as its log (`slopmark.store.benchlogs`).
A harness failure (the tests produced no report for a reason that is not the
submission's, could not be collected, or the evaluation environment lacked a
piece) is stored as an errored run, which the board keeps out of pass rates.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, replace
from pathlib import Path
from typing import Any

from sqlalchemy import Engine

from slopmark.code.bench.quality import bench_catalog, has_files, measure_report
from slopmark.code.bench.results import GROUPS, AgentRecord, CheckpointResult
from slopmark.code.bench.scoring import group_rates, phase
from slopmark.code.bench.testrun import NO_REPORT
from slopmark.code.measure.tree_store import store_tree
from slopmark.store.benchlogs import log_files, store_log
from slopmark.store.benchrows import store_bench_row
from slopmark.store.runs import Run, insert_run, list_runs

#: the board reads its rows by this name (`slopmark.board.checkpoints.CODE_ITERATIVE_DOMAIN`)
DOMAIN = "code_iterative"
HARNESS_VERSION = "bench-1"
TASK_SET_VERSION = "scb-layout-1"
STORED = "stored"


@dataclass(frozen=True)
class Origin:
    """Where a checkpoint comes from: its run folder's name and its problem set's (the
    problems folder's name)."""

    run: str
    problem_set: str


def subject(agent: str, model: str | None) -> str:
    return f"{agent}:{model}" if model else agent


def harness_version(prompt: str) -> str:
    """Runs under different prompt templates are never merged in one ranking."""
    return f"{HARNESS_VERSION}/{prompt}"[:40]


def _harness_fault(result: CheckpointResult) -> bool:
    error = result.error or ""
    return result.errored or (result.status == "test_error" and error.startswith(NO_REPORT))


def _group_rates(result: CheckpointResult) -> dict[str, float | None]:
    """Per test group, passed/total of a scored checkpoint's tests (None without any)."""
    groups = group_rates([result])
    return {g: groups[g].rate for g in GROUPS}


def _failing(result: CheckpointResult) -> dict[str, list[str]]:
    """Per test group, the ids of the tests that did not pass."""
    return {g: [t.nodeid for t in result.group(g) if not t.passed] for g in GROUPS}


def _bench(
    result: CheckpointResult, agent: str, model: str | None, prompt: str, origin: Origin
) -> dict[str, Any]:
    return {
        "run": origin.run, "problem_set": origin.problem_set, "agent": agent, "model": model,
        "prompt": prompt, "checkpoint": result.checkpoint, "index": result.index,
        "count": result.count, "phase": phase(result.index, result.count),
    }  # fmt: skip


def _details(result: CheckpointResult) -> dict[str, Any]:
    record, quality = result.agent, result.quality
    tests = {g: [t.passed for t in result.group(g)] for g in GROUPS}
    return {
        "checkpoint_status": result.status,
        "strict": result.strict, "isolated": result.isolated, "core": result.core,
        "tests": {g: {"passed": sum(flags), "total": len(flags)} for g, flags in tests.items()},
        "failing": _failing(result),
        "group_rates": _group_rates(result),
        "quality": asdict(quality) if quality else None,
        "relative_churn": quality.relative_churn if quality else None,
        "agent_status": record.status if record else None,
        "steps": record.steps if record else None,
        "timings": result.timings,
        "wall_s": result.timings.get("total_s"),
        "error": result.error,
    }  # fmt: skip


def _usage(record: AgentRecord | None) -> dict[str, Any]:
    """What the agent spent (all unknown when no agent ran)."""
    if record is None:
        return {}
    return {
        "latency_ms": record.wall_s * 1000, "input_tokens": record.input_tokens,
        "output_tokens": record.output_tokens, "cost_usd": record.cost_usd,
    }  # fmt: skip


def _verdict(result: CheckpointResult) -> dict[str, Any]:
    if _harness_fault(result):
        return {"status": "error", "passed": None, "score": None, "error": result.error}
    return {"status": "ok", "passed": result.strict, "score": result.pass_fraction}


def provider(agent: str) -> str:
    """The agent's registered name; ``command`` for an agent given as a command line
    (the whole line stays the subject, but is no provider name)."""
    from slopmark.code.bench.agents.base import agent_specs

    return agent if agent in agent_specs() else "command"


def to_run(
    result: CheckpointResult,
    agent: str,
    model: str | None,
    prompt: str,
    origin: Origin | None = None,
) -> Run:
    """The run of ``result``; with ``origin``, its details name where it comes from."""
    details = _details(result)
    if origin is not None:
        details["bench"] = _bench(result, agent, model, prompt, origin)
    return Run(
        task_id=f"{result.problem}.v{result.problem_version}/{result.checkpoint}",
        domain=DOMAIN, model=subject(agent, model), provider=provider(agent),
        harness_version=harness_version(prompt), mode="agent",
        task_set_version=TASK_SET_VERSION, source=result.source, template_id=result.problem,
        details=details, **_verdict(result), **_usage(result.agent),
    )  # fmt: skip


def store_result(
    engine: Engine,
    run_dir: Path,
    result: CheckpointResult,
    agent: str,
    model: str | None,
    prompt: str,
    origin: Origin | None = None,
) -> bool:
    """Store ``result`` once (a marker beside its result.json), with its bench row when
    ``origin`` is given; True when it was stored now."""
    folder = run_dir / result.problem / result.checkpoint
    marker = folder / STORED
    if marker.is_file():
        return False
    run = to_run(result, agent, model, prompt, origin)
    if origin is not None:
        report = _snapshot_report(engine, folder / "workspace", result)
        run = replace(run, details={**run.details, "code_report": report})
    stored = insert_run(engine, run) or _stored_ok(engine, run)
    if origin is not None and stored is not None:
        store_bench_row(engine, asdict(stored))
        if stored.id is not None:
            store_log(engine, stored.id, log_files(folder / "agent"))
    marker.write_text("")
    return True


def _snapshot_report(engine: Engine, snapshot: Path, result: CheckpointResult) -> int | None:
    """The snapshot the tests ran on, kept as a code report (its top callables, rule hits
    and clone groups on ``/code/{id}``), measured as its quality numbers were; None when
    it was not measured."""
    if result.quality is None or not has_files(snapshot):
        return None
    rule_set = result.quality.rule_set
    return store_tree(engine, measure_report(snapshot, rule_set), bench_catalog(rule_set))


def _stored_ok(engine: Engine, run: Run) -> Run | None:
    """The ok run stored before for ``run``'s task (a store interrupted before its marker)."""
    same = list_runs(engine, task_id=run.task_id, model=run.model, status="ok",
                     harness_version=run.harness_version, mode=run.mode)  # fmt: skip
    return same[-1] if same else None
