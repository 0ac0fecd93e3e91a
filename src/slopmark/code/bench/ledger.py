"""Store every checkpoint of a run as a run of the `code_iterative` domain.

Subject = agent (+ model); task = problem version and checkpoint; template =
the problem (its checkpoints are correlated, so the board clusters on it).
``passed`` is the strict solve, ``score`` the share of tests passed. Quality
numbers go to ``details``. A harness failure (the tests produced no report
for a reason that is not the submission's) is stored as an errored run,
which the board keeps out of pass rates.
"""

from __future__ import annotations

from dataclasses import asdict
from pathlib import Path

from sqlalchemy import Engine

from slopmark.code.bench.results import CheckpointResult
from slopmark.store.runs import Run, insert_run

DOMAIN = "code_iterative"
HARNESS_VERSION = "bench-1"
TASK_SET_VERSION = "scb-layout-1"
STORED = "stored"


def subject(agent: str, model: str | None) -> str:
    return f"{agent}:{model}" if model else agent


def harness_version(prompt: str) -> str:
    """Runs under different prompt templates are never merged in one ranking."""
    return f"{HARNESS_VERSION}/{prompt}"[:40]


def _harness_fault(result: CheckpointResult) -> bool:
    error = result.error or ""
    return result.status == "test_error" and error.startswith("pytest wrote no report")


def to_run(result: CheckpointResult, agent: str, model: str | None, prompt: str) -> Run:
    errored = _harness_fault(result)
    record = result.agent
    tests = {group: [t.passed for t in result.tests if t.group == group]
             for group in ("core", "functionality", "error", "regression")}  # fmt: skip
    details = {
        "checkpoint_status": result.status,
        "strict": result.strict, "isolated": result.isolated, "core": result.core,
        "tests": {g: {"passed": sum(flags), "total": len(flags)} for g, flags in tests.items()},
        "quality": asdict(result.quality) if result.quality else None,
        "agent_status": record.status if record else None,
        "steps": record.steps if record else None,
        "timings": result.timings,
        "error": result.error,
    }  # fmt: skip
    return Run(
        task_id=f"{result.problem}.v{result.problem_version}/{result.checkpoint}",
        domain=DOMAIN, model=subject(agent, model), provider=agent,
        harness_version=harness_version(prompt), mode="agent",
        task_set_version=TASK_SET_VERSION, source=result.source, template_id=result.problem,
        status="error" if errored else "ok",
        passed=None if errored else result.strict,
        score=None if errored else result.pass_fraction,
        details=details, error=result.error if errored else None,
        latency_ms=record.wall_s * 1000 if record else None,
        input_tokens=record.input_tokens if record else None,
        output_tokens=record.output_tokens if record else None,
        cost_usd=record.cost_usd if record else None,
    )  # fmt: skip


def store_result(
    engine: Engine,
    run_dir: Path,
    result: CheckpointResult,
    agent: str,
    model: str | None,
    prompt: str,
) -> bool:
    """Store ``result`` once (a marker beside its result.json); True when it was stored now."""
    marker = run_dir / result.problem / result.checkpoint / STORED
    if marker.is_file():
        return False
    insert_run(engine, to_run(result, agent, model, prompt))
    marker.write_text("")
    return True
