"""Load-sensitive tests: which failures are a test's own timeout, the rerun's merge, validate's
judgement of them (the whole loop through the CLI: test_load_sensitive.py)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import pytest
from rich.console import Console

from slopmark.cli.bench_view import print_report, report_json
from slopmark.code.bench.problem import load_problem
from slopmark.code.bench.rerun import merge, rerun_load_sensitive
from slopmark.code.bench.results import CaseOutcome, CheckpointResult, read_result, write_result
from slopmark.code.bench.testlayout import PLUGIN, PLUGIN_DIR, command, open_session
from slopmark.code.bench.testrun import HiddenTestRun, parse_events, read_report
from slopmark.code.bench.timeouts import timed_out
from slopmark.code.bench.validation import failure_keys, judge
from slopmark.sandbox.base import Execution

CONFORMANCE = Path(__file__).parent / "conformance"
EXPIRED = "subprocess.TimeoutExpired: Command '['python', 'main.py']' timed out after 10 seconds"
DONE = Execution(1, "", "", 1.0)


def record(outcome: str = "failed", **fields: Any) -> dict[str, Any]:
    return {"nodeid": ".evaluation_tests/test_checkpoint_1.py::test_x", "outcome": outcome,
            "message": None, "detail": None, **fields}  # fmt: skip


@pytest.mark.parametrize(
    ("fields", "sensitive"),
    [
        (record(exceptions=["subprocess.TimeoutExpired"], message=EXPIRED), True),
        # caught by the test and turned into its own failure: the chain still holds it
        (record(exceptions=["subprocess.TimeoutExpired", "Failed"],
                message="Failed: slow"), True),
        (record("error", exceptions=["subprocess.TimeoutExpired"], message=EXPIRED), True),
        # a report written before the chain was: its message decides
        (record(message=EXPIRED), True),
        # pytest-timeout's per-test limit is the evaluator's, not the test's own
        (record(exceptions=["Failed"], message="Failed: Timeout >30.0s"), False),
        # output that mentions the exception is not the exception
        (record(exceptions=["AssertionError"], message="AssertionError: assert 'x' == 'ok'",
                detail=f"E   {EXPIRED}\n----- Captured stdout -----\n{EXPIRED}"), False),
        # a test the session's limit cut short (`testrun._owed`)
        (record(message="not run to the end: the session was stopped by the wall limit"), False),
        (record(exceptions=["TimeoutError"], message="TimeoutError: read"), False),
        (record("passed"), False),
        (record("xfailed", exceptions=["subprocess.TimeoutExpired"], message=EXPIRED), False),
    ],
)  # fmt: skip
def test_a_failure_is_load_sensitive_when_its_chain_holds_timeout_expired(
    fields: dict[str, Any], sensitive: bool
) -> None:
    assert timed_out(fields) is sensitive


def test_the_report_marks_the_tests_that_timed_out() -> None:
    problem = load_problem(CONFORMANCE / "loadflip")
    slow = record(exceptions=["subprocess.TimeoutExpired"], message=EXPIRED)
    plain = {**record(message="AssertionError: assert 1 == 2"), "nodeid": "t.py::test_y"}
    payload = {"expected": [slow, plain], "complete": True, "kept_out": [], "collect_errors": [],
               "tests": [slow, plain], "exitstatus": 1, "collected": 2}  # fmt: skip
    run = read_report(payload, DONE, problem.checkpoints[0], problem, network=False)
    assert [(t.load_sensitive, t.first_outcome) for t in run.tests] == [(True, None), (False, None)]


TIMEOUT_PROBE = """
import subprocess, sys, time
import pytest

SLEEP = [sys.executable, "-c", "import time; time.sleep(5)"]

def test_own_timeout():
    subprocess.run(SLEEP, timeout=0.2)

def test_caught():
    try:
        subprocess.run(SLEEP, timeout=0.2)
    except subprocess.TimeoutExpired:
        pytest.fail("too slow")

def test_says_it():
    print("subprocess.TimeoutExpired: printed, not raised")
    assert False

def test_evaluator_limit():
    time.sleep(5)
"""


@pytest.mark.slow
def test_the_plugin_reports_each_failures_exception_chain(tmp_path: Path) -> None:
    """Real pytest with the report plugin and pytest-timeout (a 1 s per-test limit)."""
    (tmp_path / "test_checkpoint_1.py").write_text(TIMEOUT_PROBE)
    report = tmp_path / "report.jsonl"
    env = {**os.environ, "PYTHONPATH": str(PLUGIN_DIR), "SLOPMARK_BENCH_REPORT": str(report)}
    subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-p", PLUGIN, "-p", "no:cacheprovider",
         "-p", "no:randomly", "--timeout=1", str(tmp_path)],
        cwd=tmp_path, env=env, capture_output=True, check=False, timeout=120,
    )  # fmt: skip
    payload = parse_events(report.read_text())
    assert payload is not None
    found = {r["nodeid"].split("::")[1]: r for r in payload["tests"]}
    assert {name: r["exceptions"] for name, r in found.items()} == {
        "test_own_timeout": ["subprocess.TimeoutExpired"],
        "test_caught": ["subprocess.TimeoutExpired", "Failed"],
        "test_says_it": ["AssertionError"],
        "test_evaluator_limit": ["Failed"],
    }
    assert found["test_evaluator_limit"]["message"].startswith("Failed: Timeout")
    sensitive = {name for name, r in found.items() if timed_out(r)}
    assert sensitive == {"test_own_timeout", "test_caught"}


def case(name: str, outcome: str, sensitive: bool = False, message: str | None = None
         ) -> CaseOutcome:  # fmt: skip
    return CaseOutcome(f".evaluation_tests/test_checkpoint_1.py::{name}", "core", outcome,
                       message=message, load_sensitive=sensitive)  # fmt: skip


FIRST = HiddenTestRun(
    (case("test_ok", "passed"), case("test_flips", "failed", True, EXPIRED),
     case("test_slow", "failed", True, EXPIRED), case("test_wrong", "failed")),
    None,
)  # fmt: skip


class Rerun:
    """Stands in for a second session: returns ``found`` and keeps the node ids it was given."""

    def __init__(self, found: HiddenTestRun) -> None:
        self.found = found
        self.asked: list[tuple[str, ...]] = []

    def __call__(self, nodeids: Sequence[str]) -> HiddenTestRun:
        self.asked.append(tuple(nodeids))
        return self.found


def test_only_the_load_sensitive_tests_are_rerun_and_the_rerun_counts() -> None:
    rerun = (case("test_flips", "passed"), case("test_slow", "failed", True, "Failed: still"))
    again = Rerun(HiddenTestRun(rerun, None))
    merged = rerun_load_sensitive(FIRST, again)
    assert again.asked == [(FIRST.tests[1].nodeid, FIRST.tests[2].nodeid)]
    ok, flips, slow, wrong = merged.tests
    assert (ok, wrong) == (FIRST.tests[0], FIRST.tests[3])
    assert (flips.outcome, flips.first_outcome) == ("passed", "failed")
    assert flips.first_message == EXPIRED
    assert (slow.outcome, slow.message, slow.first_outcome) == ("failed", "Failed: still", "failed")
    assert flips.load_sensitive and slow.load_sensitive


def test_a_rerun_without_verdicts_keeps_the_first_ones_and_says_why() -> None:
    failed = HiddenTestRun((), "pytest wrote no report (killed)", "test_error")
    flips = merge(FIRST, failed).tests[1]
    assert (flips.outcome, flips.first_outcome, flips.load_sensitive) == ("failed", None, True)
    assert flips.message == f"{EXPIRED} (rerun gave no verdict: pytest wrote no report (killed))"


def test_nothing_is_rerun_without_load_sensitive_tests_or_verdicts() -> None:
    again = Rerun(FIRST)
    plain = HiddenTestRun((case("test_ok", "passed"),), None)
    errored = HiddenTestRun((), "collection error", "collect_error")
    assert rerun_load_sensitive(plain, again) is plain
    assert rerun_load_sensitive(errored, again) is errored
    assert again.asked == []


def test_a_rerun_session_is_started_on_node_ids_under_its_rootdir(tmp_path: Path) -> None:
    problem = load_problem(CONFORMANCE / "loadflip")
    envs = (tmp_path / "test-env", tmp_path / "ws-env")
    for scb in (True, False):
        session = open_session(tmp_path / "eval", scb)
        folder = ".evaluation_tests" if scb else "tests"
        only = (f"{folder}/test_checkpoint_1.py::test_x[http://a b/./c]",)
        argv = command(problem, problem.checkpoints[0], session, envs, only=only)
        assert argv[4:6] == [f"{session.ini.parent}/{only[0]}", "-c"]
        assert str(session.ini.parent) == argv[argv.index("--rootdir") + 1]


def checkpoint_result(*tests: CaseOutcome) -> CheckpointResult:
    return CheckpointResult(problem="loadflip", problem_version=1, checkpoint="checkpoint_1",
                            order=1, index=0, count=1, status="scored", agent=None,
                            tests=tests)  # fmt: skip


def test_old_results_read_without_the_rerun_fields(tmp_path: Path) -> None:
    path = tmp_path / "result.json"
    flipped = CaseOutcome("t.py::a", "core", "passed", 2.0, None, True, "failed", EXPIRED)
    write_result(path, checkpoint_result(flipped))
    assert read_result(path).tests == (flipped,)
    raw = json.loads(path.read_text())
    raw["tests"] = [{"nodeid": "t.py::a", "group": "core", "outcome": "failed",
                     "duration_s": 0.1, "message": "x"}]  # fmt: skip
    path.write_text(json.dumps(raw))
    old = read_result(path).tests[0]
    assert (old.load_sensitive, old.first_outcome, old.first_message) == (False, None, None)


KEY = "loadflip/checkpoint_1::test_checkpoint_1.py::"


def test_validate_judges_load_sensitive_tests_apart() -> None:
    flipped = CaseOutcome(FIRST.tests[1].nodeid, "core", "passed", 0.0, None, True, "failed")
    slow = CaseOutcome(FIRST.tests[2].nodeid, "core", "failed", 0.0, "x", True, "failed")
    result = checkpoint_result(case("test_ok", "passed"), flipped, slow)
    pinned = frozenset({KEY + "test_flips", KEY + "test_slow"})
    for expected in (frozenset(), pinned):
        verdict = judge(result, expected)
        assert verdict.ok and verdict.load_sensitive == (flipped, slow)
        assert (verdict.unexpected, verdict.expected, verdict.fixed) == ((), (), ())
    assert failure_keys([result]) == []


def test_a_failure_that_is_not_load_sensitive_still_fails_validate() -> None:
    result = checkpoint_result(case("test_wrong", "failed"), case("test_slow", "failed", True))
    verdict = judge(result, frozenset())
    assert not verdict.ok and [t.nodeid for t in verdict.unexpected] == [result.tests[0].nodeid]
    assert failure_keys([result]) == [KEY + "test_wrong"]


def test_the_report_counts_load_sensitive_tests_per_checkpoint(tmp_path: Path) -> None:
    flipped = CaseOutcome("t.py::a", "core", "passed", 0.0, None, True, "failed")
    slow = CaseOutcome("t.py::b", "core", "failed", 0.0, "x", True, "failed")
    results = [checkpoint_result(flipped, slow, case("test_ok", "passed"))]
    (tmp_path / "run.json").write_text("{}")
    assert report_json(tmp_path, results)["checkpoints"][0]["load_sensitive"] == 2
    console = Console(record=True, width=300)
    print_report(console, tmp_path, results)
    assert (
        "load-sensitive tests (failed on their own timeout, rerun once; the rerun counts): "
        "loadflip/checkpoint_1 2 (1 flipped)"
    ) in console.export_text()
    plain = Console(record=True, width=300)
    print_report(plain, tmp_path, [checkpoint_result(case("test_ok", "passed"))])
    assert "load-sensitive" not in plain.export_text()
