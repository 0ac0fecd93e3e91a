"""Load-sensitive tests end to end: `code bench validate` on a problem whose tests time out.

``conformance/loadflip``'s reference answers ``slow`` in 2 s. One test gives it
0.5 s in the first session and 60 s when the harness reruns it alone (as a busy
machine, then an idle one, would); one gives it 0.5 s in both; one never times
out. The run goes through the real CLI, bubblewrap and uv, with both timing
tests pinned as expected failures and today's failures written out.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from bench.scbenv import needs_bwrap, needs_scb_python
from clirun import run_cli
from slopmark.code.bench.results import CheckpointResult, read_result

CONFORMANCE = Path(__file__).parent / "conformance"
TESTS = ".evaluation_tests/test_checkpoint_1.py::"
KEY = "loadflip/checkpoint_1::test_checkpoint_1.py::"

pytestmark = [needs_bwrap, needs_scb_python, pytest.mark.slow]  # starts bench validate


@dataclass(frozen=True)
class Validated:
    returncode: int
    printed: list[str]
    payload: dict[str, Any]
    result: CheckpointResult
    folder: Path
    written: str


@pytest.fixture(scope="module")
def validated(tmp_path_factory: pytest.TempPathFactory) -> Validated:
    root = tmp_path_factory.mktemp("loadflip")
    pins, written = root / "pins.txt", root / "written.txt"
    pins.write_text(f"{KEY}test_answers_in_time\n{KEY}test_answers_fast\n")
    done = run_cli(
        "code", "bench", "validate", "--sandbox", "bwrap", "--problems",
        str(CONFORMANCE / "loadflip"), "--keep", str(root / "run"), "--json",
        "--expect-failures", str(pins), "--write-expect-failures", str(written),
    )  # fmt: skip
    folder = root / "run" / "loadflip" / "checkpoint_1"
    return Validated(
        done.returncode, done.stderr.splitlines(), json.loads(done.stdout),
        read_result(folder / "result.json"), folder, written.read_text(),
    )  # fmt: skip


def test_both_outcomes_are_recorded_and_the_reruns_counts(validated: Validated) -> None:
    tests = {t.nodeid.removeprefix(TESTS): t for t in validated.result.tests}
    in_time, fast = tests["test_answers_in_time"], tests["test_answers_fast"]
    ok = tests["test_prints_ok"]
    assert (in_time.first_outcome, in_time.outcome, in_time.load_sensitive) == (
        "failed", "passed", True,
    )  # fmt: skip
    assert (in_time.first_message or "").startswith("subprocess.TimeoutExpired: Command")
    assert (fast.first_outcome, fast.outcome, fast.load_sensitive) == ("failed", "failed", True)
    assert fast.message == "Failed: no answer within 0.5 s"
    assert (ok.outcome, ok.load_sensitive, ok.first_outcome) == ("passed", False, None)
    assert validated.result.pass_fraction == 2 / 3 and not validated.result.strict


def test_the_rerun_is_a_session_of_its_own_on_the_timed_out_tests(validated: Validated) -> None:
    rerun = [json.loads(line) for line in (validated.folder / "eval-rerun" / "report.jsonl")
             .read_text().splitlines()]  # fmt: skip
    ran = sorted(event["nodeid"] for event in rerun if event["event"] == "test")
    assert ran == [f"{TESTS}test_answers_fast", f"{TESTS}test_answers_in_time"]


def test_validate_prints_load_sensitive_tests_apart(validated: Validated) -> None:
    assert validated.printed[0] == (
        "[1/1] ok    loadflip/checkpoint_1  3 tests: 2 passed, 1 failed — core 2/3 (1 failed) "
        "(2 load-sensitive)"
    )
    in_time, fast = validated.printed[1:3]
    assert in_time.startswith(
        f"      load-sensitive core          {TESTS}test_answers_in_time  failed, rerun passed  "
        "(subprocess.TimeoutExpired: Command "
    )
    assert fast == (
        f"      load-sensitive core          {TESTS}test_answers_fast  failed, rerun failed  "
        "(Failed: no answer within 0.5 s)"
    )
    assert validated.printed[-1] == (
        "1/1 reference checkpoints ok, 0 failed, 0 errored; 2 load-sensitive tests, judged apart"
    )


def test_json_carries_the_mark_and_both_outcomes(validated: Validated) -> None:
    (entry,) = validated.payload["checkpoints"]
    marked = {t["key"]: (t["first_outcome"], t["outcome"]) for t in entry["load_sensitive"]}
    assert marked == {f"{KEY}test_answers_in_time": ("failed", "passed"),
                      f"{KEY}test_answers_fast": ("failed", "failed")}  # fmt: skip
    flags = {t["key"]: t["load_sensitive"] for t in entry["tests"]}
    assert flags[f"{KEY}test_prints_ok"] is False and flags[f"{KEY}test_answers_fast"] is True


def test_pinned_load_sensitive_tests_that_flip_leave_validate_green(validated: Validated) -> None:
    """Pinned, one now passes and one still fails: neither is 'now passes', expected or
    unexpected, and neither is written as a pin."""
    assert validated.returncode == 0 and validated.payload["ok"] is True
    (entry,) = validated.payload["checkpoints"]
    assert (entry["unexpected"], entry["expected"], entry["fixed"]) == ([], [], [])
    assert not any("now passes" in line for line in validated.printed)
    assert [line for line in validated.written.splitlines() if not line.startswith("#")] == []
