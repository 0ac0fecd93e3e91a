"""Checkpoint 3: scripted outcomes, retries with exponential backoff, skipped dependents."""

from __future__ import annotations

import json
import subprocess

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


def assert_input_error(result: subprocess.CompletedProcess[str]) -> None:
    assert result.returncode == 2, result.stderr
    assert result.stdout == ""
    assert result.stderr.startswith("error: ")


def test_retries_failures_and_skips(run, write):
    result = run("run", write("deploy.jobs", DEPLOY), "--workers", "2")
    assert result.returncode == 1, result.stderr
    assert result.stdout == (
        "t=0 start docs worker=1\n"
        "t=0 start fetch worker=2\n"
        "t=1 fail fetch worker=2 retry_at=3\n"
        "t=1 start upload worker=2\n"
        "t=2 fail upload worker=2 retry_at=2\n"
        "t=2 start upload worker=2 attempt=2\n"
        "t=3 end docs worker=1\n"
        "t=3 fail upload worker=2\n"
        "t=3 skip deploy\n"
        "t=3 skip notify\n"
        "t=3 start fetch worker=1 attempt=2\n"
        "t=4 end fetch worker=1\n"
        "t=4 start build worker=1\n"
        "t=6 end build worker=1\n"
        "makespan=6\n"
        "failed: upload\n"
        "skipped: deploy notify\n"
    )


def test_exponential_backoff(run, write):
    jobs = {"jobs": [{"id": "flaky", "outcomes": ["fail", "fail", "fail", "ok"], "retries": 3,
                      "backoff": 1, "duration": 2}]}
    result = run("run", write("flaky.json", json.dumps(jobs)))
    assert result.returncode == 0, result.stderr
    assert result.stdout == (
        "t=0 start flaky worker=1\n"
        "t=2 fail flaky worker=1 retry_at=3\n"
        "t=3 start flaky worker=1 attempt=2\n"
        "t=5 fail flaky worker=1 retry_at=7\n"
        "t=7 start flaky worker=1 attempt=3\n"
        "t=9 fail flaky worker=1 retry_at=13\n"
        "t=13 start flaky worker=1 attempt=4\n"
        "t=15 end flaky worker=1\n"
        "makespan=15\n"
    )


def test_other_jobs_use_worker_during_backoff(run, write):
    text = "[a]\noutcomes = fail, ok\nretries = 1\nbackoff = 3\n[b]\npriority = -1\nduration = 2\n"
    result = run("run", write("gap.jobs", text))
    assert result.returncode == 0, result.stderr
    assert result.stdout == (
        "t=0 start a worker=1\n"
        "t=1 fail a worker=1 retry_at=4\n"
        "t=1 start b worker=1\n"
        "t=3 end b worker=1\n"
        "t=4 start a worker=1 attempt=2\n"
        "t=5 end a worker=1\n"
        "makespan=5\n"
    )


def test_outcomes_last_entry_repeats(run, write):
    text = "[a]\noutcomes = ok, fail\nretries = 5\n[b]\noutcomes = fail\nretries = 2\n"
    result = run("run", write("rep.jobs", text))
    assert result.returncode == 1
    lines = result.stdout.splitlines()
    assert lines[:2] == ["t=0 start a worker=1", "t=1 end a worker=1"]
    assert "t=4 fail b worker=1" in lines
    assert lines[-2:] == ["makespan=4", "failed: b"]


def test_transitive_skip_leaves_independent_branch(run, write):
    text = (
        "[root]\noutcomes = fail\n[mid]\ndeps = root\n[leaf]\ndeps = mid\n"
        "[side]\nduration = 3\n[after_side]\ndeps = side\n"
    )
    result = run("run", write("skip.jobs", text), "--workers", "2")
    assert result.returncode == 1
    assert result.stdout == (
        "t=0 start root worker=1\n"
        "t=0 start side worker=2\n"
        "t=1 fail root worker=1\n"
        "t=1 skip leaf\n"
        "t=1 skip mid\n"
        "t=3 end side worker=2\n"
        "t=3 start after_side worker=1\n"
        "t=4 end after_side worker=1\n"
        "makespan=4\n"
        "failed: root\n"
        "skipped: leaf mid\n"
    )


@pytest.mark.functionality
def test_json_statuses(run, write):
    result = run("run", write("deploy.jobs", DEPLOY), "--workers", "2", "--json")
    assert result.returncode == 1
    document = json.loads(result.stdout)
    assert document["makespan"] == 6
    jobs = document["jobs"]
    assert jobs["fetch"] == {"status": "ok", "attempts": 2, "start": 0, "end": 4, "worker": 1}
    assert jobs["upload"] == {"status": "failed", "attempts": 2, "start": 1, "end": 3,
                              "worker": 2}
    skipped = {"status": "skipped", "attempts": 0, "start": None, "end": None, "worker": None}
    assert jobs["deploy"] == skipped
    assert jobs["notify"] == skipped
    assert jobs["docs"]["status"] == "ok"


@pytest.mark.functionality
def test_success_after_retry_exits_zero(run, write):
    jobs = {"jobs": [{"id": "a", "outcomes": ["fail", "ok"], "retries": 1},
                     {"id": "b", "deps": ["a"]}]}
    result = run("run", write("ok.json", json.dumps(jobs)))
    assert result.returncode == 0, result.stderr
    assert result.stdout.splitlines()[-1] == "makespan=3"
    assert "failed:" not in result.stdout


@pytest.mark.functionality
def test_retry_waits_for_a_free_worker(run, write):
    text = "[a]\noutcomes = fail, ok\nretries = 1\n[b]\nduration = 4\n[c]\nduration = 4\n"
    result = run("run", write("busy.jobs", text), "--workers", "2")
    assert result.returncode == 0, result.stderr
    lines = result.stdout.splitlines()
    assert lines[:4] == [
        "t=0 start a worker=1",
        "t=0 start b worker=2",
        "t=1 fail a worker=1 retry_at=1",
        "t=1 start a worker=1 attempt=2",
    ]
    assert lines[-1] == "makespan=6"


@pytest.mark.functionality
def test_failed_job_with_no_retries_and_empty_outcomes_text(run, write):
    text = "[a]\noutcomes =\n[b]\noutcomes = fail\nretries = 0\n"
    result = run("run", write("plain.jobs", text))
    assert result.returncode == 1
    assert result.stdout == (
        "t=0 start a worker=1\n"
        "t=1 end a worker=1\n"
        "t=1 start b worker=1\n"
        "t=2 fail b worker=1\n"
        "makespan=2\n"
        "failed: b\n"
    )


@pytest.mark.error
@pytest.mark.parametrize(
    "line", ["outcomes = ok, maybe", "retries = -1", "retries = x", "backoff = -2"]
)
def test_bad_text_fields(run, write, line):
    assert_input_error(run("run", write("bad.jobs", f"[a]\n{line}\n")))


@pytest.mark.error
@pytest.mark.parametrize(
    "job",
    [{"outcomes": "fail"}, {"outcomes": ["OK"]}, {"retries": 1.0}, {"backoff": False}],
    ids=["outcomes-string", "outcome-case", "retries-float", "backoff-bool"],
)
def test_bad_json_fields(run, write, job):
    assert_input_error(run("run", write("bad.json", json.dumps({"jobs": [{"id": "a", **job}]}))))
