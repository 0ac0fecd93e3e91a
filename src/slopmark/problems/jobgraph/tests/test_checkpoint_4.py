"""Checkpoint 4: --stop-after, state files, --resume and the status command."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

import pytest

DEPLOY = """\
[fetch]
outcomes = fail, ok
retries = 2
backoff = 2
[build]
deps = fetch
duration = 2
[upload]
outcomes = fail
retries = 1
[deploy]
deps = build, upload
[notify]
deps = deploy
[docs]
duration = 3
"""

CHAIN = {
    "jobs": [
        {"id": "a", "duration": 3},
        {"id": "b", "duration": 4},
        {"id": "c", "deps": ["a"], "duration": 2},
        {"id": "d", "deps": ["b", "c"], "duration": 1},
    ]
}


def assert_input_error(result: subprocess.CompletedProcess[str]) -> None:
    assert result.returncode == 2, result.stderr
    assert result.stdout == ""
    assert result.stderr.strip() != ""


def test_stop_after_interrupts_running_jobs(run, write):
    result = run("run", write("chain.json", json.dumps(CHAIN)), "--workers", "2",
                 "--state", "run.state", "--stop-after", "4")
    assert result.returncode == 3, result.stderr
    assert result.stdout == (
        "t=0 start a worker=1\n"
        "t=0 start b worker=2\n"
        "t=3 end a worker=1\n"
        "t=3 start c worker=1\n"
        "t=4 end b worker=2\n"
        "t=4 interrupt c worker=1\n"
        "stopped at t=4\n"
    )


def test_resume_continues_without_rerunning(run, write):
    jobs = write("chain.json", json.dumps(CHAIN))
    run("run", jobs, "--workers", "2", "--state", "run.state", "--stop-after", "4")
    result = run("run", jobs, "--workers", "2", "--state", "run.state", "--resume")
    assert result.returncode == 0, result.stderr
    assert result.stdout == (
        "resumed at t=4\n"
        "t=4 start c worker=1\n"
        "t=6 end c worker=1\n"
        "t=6 start d worker=1\n"
        "t=7 end d worker=1\n"
        "makespan=7\n"
    )


def test_documented_example(run, write):
    jobs = write("deploy.jobs", DEPLOY)
    first = run("run", jobs, "--workers", "2", "--state", "run.state", "--stop-after", "5")
    assert first.returncode == 3
    assert first.stdout.splitlines()[-3:] == [
        "t=4 start build worker=1",
        "t=5 interrupt build worker=1",
        "stopped at t=5",
    ]
    status = run("status", "run.state")
    assert status.returncode == 0, status.stderr
    assert status.stdout == (
        "stopped at t=5\n"
        "build pending attempts=0\n"
        "deploy skipped attempts=0\n"
        "docs ok attempts=1\n"
        "fetch ok attempts=2\n"
        "notify skipped attempts=0\n"
        "upload failed attempts=2\n"
    )
    second = run("run", jobs, "--workers", "2", "--state", "run.state", "--resume")
    assert second.returncode == 1
    assert second.stdout == (
        "resumed at t=5\n"
        "t=5 start build worker=1\n"
        "t=7 end build worker=1\n"
        "makespan=7\n"
        "failed: upload\n"
        "skipped: deploy notify\n"
    )


def test_resume_keeps_pending_retry_and_attempts(run, write):
    text = "[flaky]\nduration = 2\noutcomes = fail, fail, ok\nretries = 2\nbackoff = 3\n"
    jobs = write("flaky.jobs", text)
    first = run("run", jobs, "--state", "s.state", "--stop-after", "3")
    assert first.returncode == 3
    assert first.stdout == (
        "t=0 start flaky worker=1\nt=2 fail flaky worker=1 retry_at=5\nstopped at t=3\n"
    )
    status = run("status", "s.state")
    assert status.stdout == "stopped at t=3\nflaky pending attempts=1 ready_at=5\n"
    second = run("run", jobs, "--state", "s.state", "--resume")
    assert second.returncode == 0, second.stderr
    assert second.stdout == (
        "resumed at t=3\n"
        "t=5 start flaky worker=1 attempt=2\n"
        "t=7 fail flaky worker=1 retry_at=13\n"
        "t=13 start flaky worker=1 attempt=3\n"
        "t=15 end flaky worker=1\n"
        "makespan=15\n"
    )


UNIT_STEPS = """\
[a]
outcomes = fail, fail, ok
retries = 2
backoff = 1
[b]
[c]
deps = a
[d]
deps = b
outcomes = fail
[e]
deps = d
[f]
deps = c
[g]
priority = -1
"""


def test_chained_resumes_match_uninterrupted_run(run, write):
    # Every job takes one time unit, so no attempt is running at a stop time and
    # the stitched timeline must equal the uninterrupted one.
    jobs = write("unit.jobs", UNIT_STEPS)
    full = run("run", jobs, "--workers", "2")
    assert full.returncode == 1
    events: list[str] = []
    for stop in ("1", "2", "4"):
        args = ["--resume"] if events else []
        step = run("run", jobs, "--workers", "2", "--state", "s.state", "--stop-after", stop, *args)
        assert step.returncode == 3, step.stderr
        lines = step.stdout.splitlines()
        assert lines[-1] == f"stopped at t={stop}"
        events += [line for line in lines[:-1] if not line.startswith("resumed")]
    last = run("run", jobs, "--workers", "2", "--state", "s.state", "--resume")
    assert last.returncode == 1
    assert last.stdout.splitlines()[0] == "resumed at t=4"
    events += last.stdout.splitlines()[1:]
    assert "\n".join(events) + "\n" == full.stdout


@pytest.mark.functionality
def test_resume_finished_run(run, write):
    jobs = write("deploy.jobs", DEPLOY)
    run("run", jobs, "--workers", "2", "--state", "done.state")
    status = run("status", "done.state")
    assert status.stdout.splitlines()[0] == "finished makespan=6"
    again = run("run", jobs, "--workers", "2", "--state", "done.state", "--resume")
    assert again.returncode == 1
    assert again.stdout == "resumed at t=6\nmakespan=6\nfailed: upload\nskipped: deploy notify\n"


@pytest.mark.functionality
def test_stop_after_end_finishes_normally(run, write):
    result = run("run", write("chain.json", json.dumps(CHAIN)), "--workers", "2",
                 "--stop-after", "6", "--state", "s.state")
    assert result.returncode == 0, result.stderr
    assert result.stdout.splitlines()[-1] == "makespan=6"
    assert run("status", "s.state").stdout.splitlines()[0] == "finished makespan=6"


@pytest.mark.functionality
def test_stop_after_zero_and_resume_with_more_workers(run, write):
    jobs = write("chain.json", json.dumps(CHAIN))
    first = run("run", jobs, "--state", "s.state", "--stop-after", "0")
    assert first.returncode == 3
    assert first.stdout == "stopped at t=0\n"
    second = run("run", jobs, "--workers", "3", "--state", "s.state", "--resume")
    assert second.returncode == 0, second.stderr
    assert second.stdout.splitlines()[:3] == [
        "resumed at t=0", "t=0 start a worker=1", "t=0 start b worker=2"
    ]
    assert second.stdout.splitlines()[-1] == "makespan=6"


@pytest.mark.functionality
def test_state_file_replaced_by_fresh_run(run, write, tmp_path: Path):
    jobs = write("chain.json", json.dumps(CHAIN))
    run("run", jobs, "--state", "s.state", "--stop-after", "2")
    fresh = run("run", jobs, "--state", "s.state")
    assert fresh.returncode == 0
    assert fresh.stdout.splitlines()[0] == "t=0 start a worker=1"
    assert not [p.name for p in tmp_path.iterdir() if p.name not in {"chain.json", "s.state"}]
    assert run("status", "s.state").stdout.splitlines()[0] == "finished makespan=10"


@pytest.mark.error
def test_resume_needs_state_option(run, write):
    assert_input_error(run("run", write("chain.json", json.dumps(CHAIN)), "--resume"))


@pytest.mark.error
def test_resume_missing_state_file(run, write):
    jobs = write("chain.json", json.dumps(CHAIN))
    assert_input_error(run("run", jobs, "--state", "absent.state", "--resume"))


@pytest.mark.error
def test_resume_corrupt_state_file(run, write):
    jobs = write("chain.json", json.dumps(CHAIN))
    write("bad.state", "this is not a state file\n")
    assert_input_error(run("run", jobs, "--state", "bad.state", "--resume"))
    assert_input_error(run("status", "bad.state"))


@pytest.mark.error
def test_resume_after_job_file_changed(run, write):
    run("run", write("chain.json", json.dumps(CHAIN)), "--state", "s.state", "--stop-after", "2")
    changed = json.loads(json.dumps(CHAIN))
    changed["jobs"][1]["duration"] = 5
    result = run("run", write("chain.json", json.dumps(changed)), "--state", "s.state", "--resume")
    assert_input_error(result)


@pytest.mark.error
@pytest.mark.parametrize("extra", [["--stop-after", "2"], ["--resume", "--state", "s.state"]])
def test_json_with_stop_or_resume(run, write, extra):
    jobs = write("chain.json", json.dumps(CHAIN))
    run("run", jobs, "--state", "s.state", "--stop-after", "1")
    assert_input_error(run("run", jobs, "--json", *extra))


@pytest.mark.error
def test_stop_after_before_resumed_time(run, write):
    jobs = write("chain.json", json.dumps(CHAIN))
    run("run", jobs, "--state", "s.state", "--stop-after", "4")
    assert_input_error(run("run", jobs, "--state", "s.state", "--resume", "--stop-after", "3"))


@pytest.mark.error
@pytest.mark.parametrize("value", ["-1", "soon"])
def test_bad_stop_after(run, write, value):
    assert_input_error(run("run", write("chain.json", json.dumps(CHAIN)), "--stop-after", value))
