"""Checkpoint 2: durations, priorities, the `run` simulation and its JSON output."""

from __future__ import annotations

import json
import subprocess

import pytest

BUILD = """\
[fetch]
duration = 2
[lint]
[build]
deps = fetch
duration = 3
[test]
deps = build, lint
duration = 2
"""

PRIORITY = {
    "jobs": [
        {"id": "a", "duration": 2},
        {"id": "b", "duration": 1, "priority": 5},
        {"id": "c", "deps": ["a"], "priority": 1},
        {"id": "d", "duration": 3},
    ]
}


def assert_usage_error(result: subprocess.CompletedProcess[str]) -> None:
    assert result.returncode == 2, result.stderr
    assert result.stdout == ""
    assert result.stderr.strip() != ""


def test_run_two_workers(run, write):
    result = run("run", write("build.jobs", BUILD), "--workers", "2")
    assert result.returncode == 0, result.stderr
    assert result.stdout == (
        "t=0 start fetch worker=1\n"
        "t=0 start lint worker=2\n"
        "t=1 end lint worker=2\n"
        "t=2 end fetch worker=1\n"
        "t=2 start build worker=1\n"
        "t=5 end build worker=1\n"
        "t=5 start test worker=1\n"
        "t=7 end test worker=1\n"
        "makespan=7\n"
    )


def test_run_default_single_worker(run, write):
    result = run("run", write("build.jobs", BUILD))
    assert result.returncode == 0, result.stderr
    assert result.stdout == (
        "t=0 start fetch worker=1\n"
        "t=2 end fetch worker=1\n"
        "t=2 start build worker=1\n"
        "t=5 end build worker=1\n"
        "t=5 start lint worker=1\n"
        "t=6 end lint worker=1\n"
        "t=6 start test worker=1\n"
        "t=8 end test worker=1\n"
        "makespan=8\n"
    )


def test_run_priorities(run, write):
    result = run("run", write("prio.json", json.dumps(PRIORITY)), "--workers", "2")
    assert result.returncode == 0, result.stderr
    assert result.stdout == (
        "t=0 start b worker=1\n"
        "t=0 start a worker=2\n"
        "t=1 end b worker=1\n"
        "t=1 start d worker=1\n"
        "t=2 end a worker=2\n"
        "t=2 start c worker=2\n"
        "t=3 end c worker=2\n"
        "t=4 end d worker=1\n"
        "makespan=4\n"
    )


def test_lowest_free_worker_and_simultaneous_ends(run, write):
    text = (
        "[long]\nduration = 5\n[mid]\nduration = 2\n[short]\nduration = 2\n"
        "[x]\ndeps = short\n[y]\ndeps = mid\n[z]\npriority = -1\n"
    )
    result = run("run", write("w.jobs", text), "--workers", "3")
    assert result.returncode == 0, result.stderr
    assert result.stdout == (
        "t=0 start long worker=1\n"
        "t=0 start mid worker=2\n"
        "t=0 start short worker=3\n"
        "t=2 end mid worker=2\n"
        "t=2 end short worker=3\n"
        "t=2 start x worker=2\n"
        "t=2 start y worker=3\n"
        "t=3 end x worker=2\n"
        "t=3 end y worker=3\n"
        "t=3 start z worker=2\n"
        "t=4 end z worker=2\n"
        "t=5 end long worker=1\n"
        "makespan=5\n"
    )


def test_order_respects_priority(run, write):
    text = "[a]\n[b]\npriority = 2\n[c]\ndeps = a\npriority = 10\n[d]\npriority = -1\n"
    result = run("order", write("p.jobs", text))
    assert result.returncode == 0, result.stderr
    assert result.stdout == "b\na\nc\nd\n"


@pytest.mark.functionality
def test_json_output(run, write):
    result = run("run", write("build.jobs", BUILD), "--workers", "2", "--json")
    assert result.returncode == 0, result.stderr
    document = json.loads(result.stdout)
    keys = ("start", "end", "worker")
    document["jobs"] = {
        job_id: {key: entry[key] for key in keys} for job_id, entry in document["jobs"].items()
    }
    assert document == {
        "makespan": 7,
        "jobs": {
            "build": {"start": 2, "end": 5, "worker": 1},
            "fetch": {"start": 0, "end": 2, "worker": 1},
            "lint": {"start": 0, "end": 1, "worker": 2},
            "test": {"start": 5, "end": 7, "worker": 1},
        },
    }


@pytest.mark.functionality
def test_more_workers_than_jobs(run, write):
    jobs = {"jobs": [{"id": f"j{i}", "duration": i} for i in range(1, 4)]}
    result = run("run", write("wide.json", json.dumps(jobs)), "--workers", "8")
    assert result.returncode == 0, result.stderr
    lines = result.stdout.splitlines()
    assert lines[:3] == ["t=0 start j1 worker=1", "t=0 start j2 worker=2", "t=0 start j3 worker=3"]
    assert lines[-1] == "makespan=3"


@pytest.mark.functionality
def test_empty_run(run, write):
    result = run("run", write("empty.jobs", "# nothing\n"))
    assert result.returncode == 0, result.stderr
    assert result.stdout == "makespan=0\n"


@pytest.mark.functionality
def test_levels_ignore_priority(run, write):
    text = "[a]\n[b]\npriority = 9\n[c]\ndeps = a, b\n"
    result = run("order", write("lv.jobs", text), "--levels")
    assert result.returncode == 0, result.stderr
    assert result.stdout == "a b\nc\n"


@pytest.mark.functionality
def test_run_reports_cycle(run, write):
    text = "[a]\ndeps = b\nduration = 2\n[b]\ndeps = a\n"
    result = run("run", write("cyc.jobs", text))
    assert result.returncode == 1
    assert result.stdout == ""
    assert result.stderr.strip() == "error: dependency cycle: a -> b -> a"


@pytest.mark.error
@pytest.mark.parametrize("workers", ["0", "-1", "two"])
def test_bad_worker_count(run, write, workers):
    assert_usage_error(run("run", write("build.jobs", BUILD), "--workers", workers))


@pytest.mark.error
@pytest.mark.parametrize(
    "job",
    [{"duration": 0}, {"duration": 1.5}, {"duration": "3"}, {"duration": True}, {"priority": "hi"}],
    ids=["zero", "float", "string", "bool", "priority-string"],
)
def test_bad_json_field_values(run, write, job):
    document = json.dumps({"jobs": [{"id": "a", **job}]})
    result = run("run", write("bad.json", document))
    assert_usage_error(result)
    assert result.stderr.startswith("error: ")


@pytest.mark.error
@pytest.mark.parametrize("line", ["duration = soon", "duration = -4", "priority = 1.5"])
def test_bad_text_field_values(run, write, line):
    result = run("run", write("bad.jobs", f"[a]\n{line}\n"))
    assert_usage_error(result)
    assert result.stderr.startswith("error: ")
