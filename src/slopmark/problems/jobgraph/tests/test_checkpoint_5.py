"""Checkpoint 5: `exec` runs real commands in parallel, with retries, timeouts and resume."""

from __future__ import annotations

import json
import os
import shlex
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

PYTHON = shlex.quote(sys.executable)

SITE = """\
[fetch]
cmd = echo data > data.txt
[build]
deps = fetch
cmd = cat data.txt; echo built >&2
[check]
deps = build
cmd = exit 3
[publish]
deps = check
cmd = echo never
[docs]
cmd = test $JOBGRAPH_ATTEMPT -ge 2
retries = 1
[all]
deps = build, docs
"""

# Marks itself running, watches how many jobs run at once for half a second,
# then unmarks itself and records the highest count it saw.
PROBE = """\
import os, time
job = os.environ["JOBGRAPH_JOB"]
marker = os.path.join("running", job)
open(marker, "w").close()
peak, end = 0, time.monotonic() + 0.5
while time.monotonic() < end:
    peak = max(peak, len(os.listdir("running")))
    time.sleep(0.01)
os.remove(marker)
with open(os.path.join("peaks", job), "w") as out:
    out.write(str(peak))
"""


def probe_jobs(count: int) -> str:
    cmd = f"{PYTHON} -c {shlex.quote(PROBE)}"
    return json.dumps({"jobs": [{"id": f"p{i}", "cmd": cmd} for i in range(count)]})


def peaks(tmp_path: Path) -> list[int]:
    return [int(path.read_text()) for path in sorted((tmp_path / "peaks").iterdir())]


def assert_input_error(result: subprocess.CompletedProcess[str]) -> None:
    assert result.returncode == 2, result.stderr
    assert result.stdout == ""
    assert result.stderr.strip() != ""


def test_documented_example(run, write, tmp_path):
    result = run("exec", write("site.jobs", SITE), "--workers", "2")
    assert result.returncode == 1, result.stderr
    assert result.stdout == (
        "all ok\n"
        "build ok attempts=1 exit=0\n"
        "check failed attempts=1 exit=3\n"
        "docs ok attempts=2 exit=0\n"
        "fetch ok attempts=1 exit=0\n"
        "publish skipped\n"
        "ok=4 failed=1 skipped=1 cached=0\n"
    )
    out = tmp_path / "jobgraph-out"
    assert (out / "build.out").read_text() == "data\n"
    assert (out / "build.err").read_text() == "built\n"
    assert not (out / "publish.out").exists()


def test_workers_run_in_parallel_up_to_the_limit(run, write, tmp_path):
    (tmp_path / "running").mkdir()
    (tmp_path / "peaks").mkdir()
    result = run("exec", write("probe.json", probe_jobs(5)), "--workers", "3")
    assert result.returncode == 0, result.stderr
    observed = peaks(tmp_path)
    assert len(observed) == 5
    assert max(observed) == 3


def test_single_worker_runs_one_at_a_time(run, write, tmp_path):
    (tmp_path / "running").mkdir()
    (tmp_path / "peaks").mkdir()
    result = run("exec", write("probe.json", probe_jobs(2)))
    assert result.returncode == 0, result.stderr
    assert peaks(tmp_path) == [1, 1]


def test_start_order_follows_priority_and_dependencies(run, write, tmp_path):
    log = 'echo "$JOBGRAPH_JOB" >> order.log'
    jobs = [
        {"id": "a", "cmd": log},
        {"id": "b", "cmd": log, "priority": 3},
        {"id": "c", "cmd": log, "deps": ["a"], "priority": 9},
        {"id": "d", "cmd": log, "priority": -1},
        {"id": "e", "cmd": log, "deps": ["d", "b"]},
    ]
    result = run("exec", write("order.json", json.dumps({"jobs": jobs})))
    assert result.returncode == 0, result.stderr
    assert (tmp_path / "order.log").read_text().split() == ["b", "a", "c", "d", "e"]


def test_report_json(run, write, tmp_path):
    result = run("exec", write("site.jobs", SITE), "--workers", "2", "--out", "reports/site")
    assert result.returncode == 1
    report = json.loads((tmp_path / "reports" / "site" / "report.json").read_text())
    assert report["workers"] == 2
    jobs = report["jobs"]
    assert sorted(jobs) == ["all", "build", "check", "docs", "fetch", "publish"]
    check = jobs["check"]
    assert (check["status"], check["attempts"], check["exit_code"], check["timed_out"]) == (
        "failed", 1, 3, False)
    assert (check["stdout"], check["stderr"]) == ("check.out", "check.err")
    assert jobs["docs"]["attempts"] == 2 and jobs["docs"]["status"] == "ok"
    assert jobs["publish"] == {"status": "skipped", "attempts": 0, "exit_code": None,
                               "timed_out": False, "started": None, "finished": None,
                               "stdout": None, "stderr": None}
    assert jobs["all"]["status"] == "ok" and jobs["all"]["attempts"] == 0
    assert jobs["fetch"]["finished"] <= jobs["build"]["started"]
    assert 0 <= jobs["build"]["started"] <= jobs["build"]["finished"]


def test_resume_after_kill_does_not_rerun_finished_jobs(entrypoint_argv, write, tmp_path, run):
    text = (
        "[first]\ncmd = echo ran >> first.count\n"
        "[second]\ndeps = first\n"
        "cmd = if [ -f go ]; then echo done > second.txt; else touch started; sleep 30; fi\n"
    )
    jobs = write("k.jobs", text)
    process = subprocess.Popen(
        [*entrypoint_argv, "exec", jobs, "--state", "k.state"], cwd=tmp_path,
        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True,
    )
    try:
        deadline = time.monotonic() + 10
        while not (tmp_path / "started").exists() and time.monotonic() < deadline:
            time.sleep(0.05)
        assert (tmp_path / "started").exists()
    finally:
        os.killpg(process.pid, signal.SIGKILL)
        process.wait()
    (tmp_path / "go").touch()
    result = run("exec", jobs, "--state", "k.state", "--resume")
    assert result.returncode == 0, result.stderr
    assert result.stdout == (
        "first cached\nsecond ok attempts=1 exit=0\nok=1 failed=0 skipped=0 cached=1\n"
    )
    assert (tmp_path / "first.count").read_text() == "ran\n"
    assert (tmp_path / "second.txt").read_text() == "done\n"


@pytest.mark.functionality
def test_resume_reruns_failed_and_changed_jobs(run, write, tmp_path):
    template = (
        "[a]\ncmd = echo a >> runs.log\n"
        "[b]\ncmd = echo b >> runs.log{extra}\n"
        "[c]\ndeps = b\ncmd = echo c >> runs.log; test -f fixed\n"
        "[d]\ndeps = c\ncmd = echo d >> runs.log\n"
    )
    jobs = write("r.jobs", template.format(extra=""))
    first = run("exec", jobs, "--state", "r.state")
    assert first.returncode == 1
    assert first.stdout.splitlines()[-1] == "ok=2 failed=1 skipped=1 cached=0"
    (tmp_path / "fixed").touch()
    (tmp_path / "runs.log").write_text("")
    second = run("exec", jobs, "--state", "r.state", "--resume")
    assert second.returncode == 0, second.stderr
    assert second.stdout.splitlines()[:2] == ["a cached", "b cached"]
    assert sorted((tmp_path / "runs.log").read_text().split()) == ["c", "d"]
    (tmp_path / "runs.log").write_text("")
    write("r.jobs", template.format(extra="; true"))
    third = run("exec", jobs, "--state", "r.state", "--resume")
    assert third.returncode == 0, third.stderr
    assert third.stdout.splitlines() == [
        "a cached", "b ok attempts=1 exit=0", "c ok attempts=1 exit=0",
        "d ok attempts=1 exit=0", "ok=3 failed=0 skipped=0 cached=1",
    ]


@pytest.mark.functionality
def test_timeout_kills_command(run, write, tmp_path):
    jobs = {"jobs": [
        {"id": "slow", "cmd": "sleep 30; echo late > late.txt", "timeout": 0.5},
        {"id": "after", "deps": ["slow"], "cmd": "echo no"},
        {"id": "quick", "cmd": "echo yes"},
    ]}
    started = time.monotonic()
    result = run("exec", write("t.json", json.dumps(jobs)), "--workers", "2")
    # a runner that did not kill the command would wait out its 30 s sleep
    assert time.monotonic() - started < 15
    assert result.returncode == 1
    assert result.stdout == (
        "after skipped\nquick ok attempts=1 exit=0\nslow failed attempts=1 exit=timeout\n"
        "ok=1 failed=1 skipped=1 cached=0\n"
    )
    report = json.loads((tmp_path / "jobgraph-out" / "report.json").read_text())
    assert report["jobs"]["slow"]["timed_out"] is True
    assert report["jobs"]["slow"]["exit_code"] is None
    time.sleep(0.2)
    assert not (tmp_path / "late.txt").exists()


@pytest.mark.functionality
def test_output_files_hold_last_attempt(run, write, tmp_path):
    text = '[j]\ncmd = echo "try $JOBGRAPH_ATTEMPT"; [ $JOBGRAPH_ATTEMPT = 3 ]\nretries = 4\n'
    result = run("exec", write("retry.jobs", text))
    assert result.returncode == 0, result.stderr
    assert result.stdout == "j ok attempts=3 exit=0\nok=1 failed=0 skipped=0 cached=0\n"
    assert (tmp_path / "jobgraph-out" / "j.out").read_text() == "try 3\n"


@pytest.mark.functionality
def test_run_ignores_cmd(run, write):
    result = run("run", write("site.jobs", SITE), "--workers", "2")
    assert result.returncode == 0, result.stderr
    assert result.stdout.splitlines()[-1] == "makespan=4"


@pytest.mark.error
def test_cycle_runs_nothing(run, write, tmp_path):
    text = "[a]\ndeps = b\ncmd = touch a.txt\n[b]\ndeps = a\n[c]\ncmd = touch c.txt\n"
    result = run("exec", write("cyc.jobs", text))
    assert result.returncode == 1
    assert result.stderr.strip() == "error: dependency cycle: a -> b -> a"
    assert not (tmp_path / "c.txt").exists()


@pytest.mark.error
@pytest.mark.parametrize(
    "document",
    [
        {"id": "a", "cmd": 5},
        {"id": "a", "cmd": " "},
        {"id": "a", "cmd": "true", "timeout": 0},
        {"id": "a", "cmd": "true", "timeout": "1"},
        {"id": "a", "cmd": "true", "timeout": True},
    ],
    ids=["cmd-number", "cmd-blank", "timeout-zero", "timeout-string", "timeout-bool"],
)
def test_bad_exec_fields(run, write, document, tmp_path):
    assert_input_error(run("exec", write("bad.json", json.dumps({"jobs": [document]}))))
    assert not (tmp_path / "jobgraph-out" / "a.out").exists()


@pytest.mark.error
@pytest.mark.parametrize("line", ["cmd =", "timeout = soon", "timeout = -1"])
def test_bad_exec_text_fields(run, write, line):
    assert_input_error(run("exec", write("bad.jobs", f"[a]\n{line}\n")))


@pytest.mark.error
def test_resume_needs_state(run, write):
    assert_input_error(run("exec", write("site.jobs", SITE), "--resume"))


@pytest.mark.error
def test_state_kinds_are_not_interchangeable(run, write):
    jobs = write("site.jobs", SITE)
    run("run", jobs, "--state", "sim.state", "--stop-after", "1")
    assert_input_error(run("exec", jobs, "--state", "sim.state", "--resume"))
    run("exec", jobs, "--state", "exec.state")
    assert_input_error(run("run", jobs, "--state", "exec.state", "--resume"))
    assert_input_error(run("status", "exec.state"))
    assert_input_error(run("exec", jobs, "--state", "missing.state", "--resume"))
