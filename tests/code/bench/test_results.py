"""Result files and the store record of a checkpoint (grouping: test_scb_rules.py)."""

from __future__ import annotations

from pathlib import Path

import pytest

from slopmark.code.bench.ledger import DOMAIN, harness_version, subject, to_run
from slopmark.code.bench.results import (
    AgentRecord,
    CaseOutcome,
    CheckpointResult,
    Quality,
    read_result,
    write_result,
)


def sample() -> CheckpointResult:
    return CheckpointResult(
        problem="p", problem_version=2, checkpoint="checkpoint_2", order=2, index=1, count=3,
        status="scored",
        agent=AgentRecord("ok", 12.5, cost_usd=None, input_tokens=10, output_tokens=5, steps=3),
        tests=(CaseOutcome("a", "core", "passed"), CaseOutcome("b", "error", "failed", 0.1, "x")),
        quality=Quality(0.25, 0.1, 40, 1, 3, 1, 11, 12, 4),
        timings={"agent_s": 12.5},
    )  # fmt: skip


def test_result_round_trips(tmp_path: Path) -> None:
    path = tmp_path / "result.json"
    write_result(path, sample())
    assert read_result(path) == sample()
    assert not path.with_suffix(".json.tmp").exists()


def test_store_record() -> None:
    run = to_run(sample(), "loop", "gpt-x", "anti-slop")
    assert (run.domain, run.model, run.provider) == (DOMAIN, "loop:gpt-x", "loop")
    assert run.task_id == "p.v2/checkpoint_2"
    assert run.template_id == "p"
    assert run.harness_version == harness_version("anti-slop") == "bench-1/anti-slop"
    assert (run.status, run.passed, run.score) == ("ok", False, 0.5)
    assert run.cost_usd is None
    assert run.latency_ms == 12500.0
    assert run.details["tests"]["error"] == {"passed": 0, "total": 1}
    assert run.details["quality"]["erosion"] == 0.25
    assert subject("replay", None) == "replay"


def test_harness_failure_is_an_errored_run() -> None:
    broken = CheckpointResult(
        problem="p", problem_version=1, checkpoint="checkpoint_1", order=1, index=0, count=1,
        status="test_error", agent=AgentRecord("ok", 1.0), error="pytest wrote no report (boom)",
    )  # fmt: skip
    run = to_run(broken, "replay", None, "just-solve")
    assert (run.status, run.passed, run.score) == ("error", None, None)
    limited = CheckpointResult(
        problem="p", problem_version=1, checkpoint="checkpoint_1", order=1, index=0, count=1,
        status="test_error", agent=AgentRecord("ok", 1.0),
        error="the test session was stopped by the timeout limit",
    )  # fmt: skip
    assert to_run(limited, "replay", None, "just-solve").passed is False


@pytest.mark.parametrize("status", ["env_error", "collect_error"])
def test_environment_and_collection_errors_are_errored_runs(status: str) -> None:
    result = CheckpointResult(
        problem="p", problem_version=1, checkpoint="checkpoint_1", order=1, index=0, count=1,
        status=status, agent=None, error="environment error: p needs Python 3.12",  # type: ignore[arg-type]
    )  # fmt: skip
    assert result.errored and not result.strict
    run = to_run(result, "replay", None, "just-solve")
    assert (run.status, run.passed, run.score) == ("error", None, None)
    assert run.details["checkpoint_status"] == status
