"""The /bench pages' row of one stored checkpoint (`schema.bench_checkpoints`).

`slopmark.code.bench.ledger` stores each checkpoint as a run of the
``code_iterative`` domain whose ``details["bench"]`` names where it comes from
(run folder, problem set, agent, model, prompt, position); `bench_row` turns
such a run into the flat row the pages aggregate with indexed SQL, and
`store_bench_row` writes it once. Runs stored before ``details["bench"]``
existed are copied by migration 0005 through `legacy_rows`.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable, Mapping
from datetime import UTC, datetime
from typing import Any

from sqlalchemy import Engine, delete, insert

from slopmark.store.schema import bench_checkpoints

__all__ = ["bench_row", "legacy_rows", "phase_of", "store_bench_row"]

PHASES = ("Start", "Early", "Mid", "Late", "Final")
#: checkpoint statuses that are no verdict on the agent (`code.bench.results.ERRORED`)
ERRORED = ("env_error", "collect_error")


def phase_of(index: int, count: int) -> str:
    """The progress phase, as `slopmark.code.bench.scoring.phase` (the store must not
    import the benchmark)."""
    if index == 0:
        return "Start"
    if index == count - 1:
        return "Final"
    return PHASES[1 + (index - 1) * 3 // (count - 2)]


def _mapping(value: Any) -> Mapping[str, Any]:
    if isinstance(value, str):
        value = json.loads(value)
    return value if isinstance(value, Mapping) else {}


def _quality(details: Mapping[str, Any]) -> dict[str, Any]:
    quality = _mapping(details.get("quality"))
    return {
        "erosion": quality.get("erosion"), "verbosity": quality.get("verbosity"),
        "sloc": quality.get("sloc"), "complex_callables": quality.get("complex_callables"),
        "churn": details.get("relative_churn"),
    }  # fmt: skip


def _verdicts(details: Mapping[str, Any], status: str) -> dict[str, Any]:
    errored = status == "error" or details.get("checkpoint_status") in ERRORED
    flags = {
        name: None if errored else bool(details.get(name))
        for name in ("strict", "isolated", "core")
    }
    return {"status": str(details.get("checkpoint_status") or status), "errored": errored, **flags}


def bench_row(run: Mapping[str, Any]) -> dict[str, Any]:
    """The bench row of a stored run (columns of `runs` as a mapping) with ``details["bench"]``."""
    details = _mapping(run["details"])
    origin = _mapping(details.get("bench"))
    return {
        "run_id": run["id"], "run": origin["run"], "problem_set": origin["problem_set"],
        "problem": run["template_id"], "checkpoint": origin["checkpoint"],
        "position": origin["index"], "count": origin["count"],
        "phase": phase_of(origin["index"], origin["count"]),
        "agent": origin["agent"], "model": origin.get("model"), "prompt": origin["prompt"],
        **_verdicts(details, run["status"]), **_quality(details),
        "cost_usd": run.get("cost_usd"), "wall_s": details.get("wall_s"),
        "created_at": datetime.now(UTC),
    }  # fmt: skip


def store_bench_row(engine: Engine, run: Mapping[str, Any]) -> None:
    """Write ``run``'s bench row, replacing the row its checkpoint had (a checkpoint that
    errored and was run again keeps only its latest verdict)."""
    row = bench_row(run)
    table = bench_checkpoints.c
    same = (table.run == row["run"]) & (table.problem == row["problem"])
    with engine.begin() as connection:
        connection.execute(
            delete(bench_checkpoints).where(same, table.checkpoint == row["checkpoint"])
        )
        connection.execute(insert(bench_checkpoints).values(row))


def _number(checkpoint: str) -> tuple[int, str]:
    digits = re.findall(r"\d+", checkpoint)
    return (int(digits[-1]) if digits else 0, checkpoint)


def _legacy_origin(run: Mapping[str, Any], index: int, count: int, first: int) -> dict[str, Any]:
    prompt = str(run["harness_version"]).partition("/")[2] or "unknown"
    return {
        "run": f"stored-{first}", "problem_set": "stored", "agent": run["model"], "model": None,
        "prompt": prompt, "checkpoint": str(run["task_id"]).rpartition("/")[2],
        "index": index, "count": count,
    }  # fmt: skip


def legacy_rows(stored: Iterable[Mapping[str, Any]]) -> list[dict[str, Any]]:
    """Bench rows of runs stored before ``details["bench"]``: the checkpoints of one
    (subject, prompt, problem, attempt) form a chain, in their checkpoints' number order."""
    chains: dict[tuple[Any, ...], list[Mapping[str, Any]]] = {}
    for run in stored:
        key = (run["model"], run["harness_version"], run["attempt"])
        chains.setdefault(key, []).append(run)
    rows = []
    for chain in chains.values():
        first = min(int(run["id"]) for run in chain)
        by_problem: dict[str, list[Mapping[str, Any]]] = {}
        for run in chain:
            by_problem.setdefault(str(run["template_id"]), []).append(run)
        for runs in by_problem.values():
            ordered = sorted(runs, key=lambda r: _number(str(r["task_id"]).rpartition("/")[2]))
            for index, run in enumerate(ordered):
                origin = _legacy_origin(run, index, len(ordered), first)
                details = {**_mapping(run["details"]), "bench": origin}
                rows.append(bench_row({**run, "details": details}))
    return rows
