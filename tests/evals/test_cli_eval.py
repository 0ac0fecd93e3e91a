"""``slopmark eval run`` and ``slopmark eval paste``: the real CLI in a subprocess,
a real fake server over HTTP, real SQLite files."""

from __future__ import annotations

import json
import os
import signal
import sqlite3
import time
from collections.abc import Callable
from pathlib import Path
from subprocess import CompletedProcess, Popen
from typing import Any

import pytest

from fakes.openai_server import Behaviour, FakeOpenAIServer
from slopmark.store import Run, insert_run, list_runs, open_store

pytestmark = pytest.mark.slow  # starts python

Cli = Callable[..., CompletedProcess[str]]


def rows(db: Path, where: str = "1=1") -> list[tuple[Any, ...]]:
    with sqlite3.connect(db) as connection:
        query = f"SELECT task_id, status, attempt, paste FROM runs WHERE {where} ORDER BY id"
        return connection.execute(query).fetchall()


def run_args(server: FakeOpenAIServer, db: Path, tasks: Path, *extra: str) -> list[str]:
    return [
        "eval", "run", "--model", "openai-compat:fake-model", "--base-url", server.base_url,
        "--domain", "instruction", "--tasks", str(tasks), "--db", f"sqlite:///{db}", *extra,
    ]  # fmt: skip


def test_both_commands_have_help(cli: Cli) -> None:
    for command in ("run", "paste"):
        done = cli("eval", command, "--help")
        assert done.returncode == 0 and "--db" in done.stdout


def test_a_suite_is_stored_and_summarised(
    cli: Cli, openai_server: FakeOpenAIServer, small_file: Path, tmp_path: Path
) -> None:
    db = tmp_path / "runs.db"
    done = cli(*run_args(openai_server, db, small_file, "--json"))
    assert done.returncode == 0, done.stderr
    report = json.loads(done.stdout)
    summary = report["summary"]
    assert (summary["ok"], summary["errors"], summary["passed"], summary["n"]) == (6, 0, 4, 6)
    assert summary["pass_rate"] == pytest.approx(4 / 6)
    assert summary["total_cost_usd"] is None and summary["cost_unknown"] == 6
    assert summary["mean_latency_ms"] > 0
    assert report["series"]["model"] == "fake-model"
    assert report["series"]["provider"] == "openai-compat"
    assert len(rows(db, "status = 'ok'")) == 6
    again = cli(*run_args(openai_server, db, small_file))
    assert again.returncode == 0, again.stderr
    assert "asked 0 tasks now; 6 skipped" in again.stdout
    assert "pass rate 66.7% (4/6, n=6)" in again.stdout and "total cost unknown" in again.stdout


def test_errored_runs_exit_1_and_retry_errors_reruns_only_them(
    cli: Cli, openai_server: FakeOpenAIServer, small_file: Path, tmp_path: Path
) -> None:
    db = tmp_path / "runs.db"
    openai_server.enqueue(Behaviour(status=500), Behaviour(status=500))
    args = run_args(openai_server, db, small_file, "--concurrency", "1", "--retries", "0")
    first = cli(*args, "--json")
    assert first.returncode == 1, first.stderr
    summary = json.loads(first.stdout)["summary"]
    assert (summary["ok"], summary["errors"], summary["n"], summary["passed"]) == (4, 2, 4, 2)
    assert summary["top_error_count"] == 2 and "HTTP 500" in summary["top_error"]
    assert rows(db, "status = 'error'") == [("small-1", "error", 1, 0), ("small-2", "error", 1, 0)]
    before = openai_server.request_count
    retry = cli(*args, "--retry-errors", "--json")
    assert retry.returncode == 0, retry.stderr
    assert openai_server.request_count - before == 2
    assert json.loads(retry.stdout)["summary"]["errors"] == 0
    assert rows(db, "task_id = 'small-1'") == [("small-1", "error", 1, 0), ("small-1", "ok", 2, 0)]


def test_the_shipped_pool_is_the_default_and_the_cache_answers_repeats(
    cli: Cli, openai_server: FakeOpenAIServer, tmp_path: Path
) -> None:
    common = ["eval", "run", "--model", "openai-compat:fake-model", "--domain", "math"]
    common += ["--base-url", openai_server.base_url, "--limit", "3"]
    common += ["--cache", str(tmp_path / "cache.db"), "--json"]
    first = cli(*common, "--db", f"sqlite:///{tmp_path / 'a.db'}")
    assert first.returncode == 0, first.stderr
    assert json.loads(first.stdout)["summary"]["ok"] == 3
    assert len(rows(tmp_path / "a.db")) == 3
    asked = openai_server.request_count
    second = cli(*common, "--db", f"sqlite:///{tmp_path / 'b.db'}")
    assert second.returncode == 0, second.stderr
    assert openai_server.request_count == asked  # every answer came from the cache
    assert sorted(rows(tmp_path / "a.db")) == sorted(rows(tmp_path / "b.db"))


def _wait_for_rows(db: Path, at_least: int, timeout_s: float = 60.0) -> int:
    deadline = time.monotonic() + timeout_s
    while time.monotonic() < deadline:
        try:
            count = len(rows(db))
        except sqlite3.OperationalError:  # the store is not created yet
            count = 0
        if count >= at_least:
            return count
        time.sleep(0.02)
    raise AssertionError(f"fewer than {at_least} runs stored after {timeout_s}s")


def _settled_count(server: FakeOpenAIServer, quiet_s: float = 0.5) -> int:
    count = server.request_count
    while True:
        time.sleep(quiet_s)
        if server.request_count == count:
            return count
        count = server.request_count


def test_a_killed_suite_loses_no_finished_run_and_resumes_without_duplicates(
    openai_server: FakeOpenAIServer,
    make_tasks: Callable[[int], Path],
    tmp_path: Path,
    cli: Cli,
    cli_started: Callable[..., Popen[str]],
) -> None:
    db, tasks = tmp_path / "runs.db", make_tasks(30)
    openai_server.default = Behaviour(delay_s=0.2)
    args = run_args(openai_server, db, tasks, "--concurrency", "3")
    process = cli_started(*args)
    seen = _wait_for_rows(db, 6)
    os.kill(process.pid, signal.SIGKILL)
    process.communicate(timeout=30)
    assert process.returncode == -signal.SIGKILL
    kept = rows(db)
    assert len(kept) >= seen
    assert all(status == "ok" for _, status, _, _ in kept)
    assert len({task for task, *_ in kept}) == len(kept) < 30
    before = _settled_count(openai_server)  # requests the killed process sent are all in
    done = cli(*args, "--json")
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["this_run"]["skipped"] == len(kept)
    asked = [q["messages"][-1]["content"] for q in openai_server.requests[before:]]
    finished = {f"Reply with word{int(task[4:])}." for task, *_ in kept}
    assert len(asked) == 30 - len(kept) and not finished & set(asked)
    final = rows(db)
    assert final[: len(kept)] == kept
    assert sorted(task for task, *_ in final) == [f"gen-{i:03d}" for i in range(30)]
    assert {(status, attempt) for _, status, attempt, _ in final} == {("ok", 1)}


def test_paste_from_stdin_scores_and_stores_a_paste_run(
    cli: Cli, small_file: Path, tmp_path: Path
) -> None:
    db = tmp_path / "runs.db"
    args = ["eval", "paste", "--task", "small-1", "--tasks", str(small_file)]
    done = cli(*args, "--db", f"sqlite:///{db}", stdin="The answer is alpha.\n")
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith("PASS small-1: score 1.000")
    assert "✓ required_phrase" in done.stdout
    [run] = list_runs(open_store(f"sqlite:///{db}"))
    assert (run.paste, run.provider, run.model, run.output) == (
        True, "paste", "pasted", "The answer is alpha."
    )
    assert (run.latency_ms, run.latency_first_byte_ms, run.cost_usd, run.passed) == (
        0.0, 0.0, 0.0, True
    )


def test_paste_from_a_file_prints_each_failed_check(
    cli: Cli, small_file: Path, tmp_path: Path
) -> None:
    answer = tmp_path / "answer.txt"
    answer.write_text("one\ntwo\nthree\nfour\n", encoding="utf-8")
    db = f"sqlite:///{tmp_path / 'runs.db'}"
    args = ["eval", "paste", "--task", "small-5", "--tasks", str(small_file), "--db", db]
    done = cli(*args, "--output-file", str(answer), "--model", "alice")
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith("FAIL small-5: score 0.000")
    assert "✗ line_count: expected exactly 3 lines, got 4" in done.stdout
    assert "✗ required_phrase" in done.stdout
    as_json = json.loads(cli(*args, "--output-file", str(answer), "--json").stdout)
    assert (as_json["passed"], as_json["attempt"], as_json["paste"]) == (False, 1, True)
    assert [c["name"] for c in as_json["details"]["checks"]] == ["line_count", "required_phrase"]
    assert [r.model for r in list_runs(open_store(db))] == ["alice", "pasted"]


def test_a_multi_turn_paste_is_scored_as_the_final_answer(
    cli: Cli, small_file: Path, tmp_path: Path
) -> None:
    args = ["eval", "paste", "--task", "small-turns", "--tasks", str(small_file), "--json"]
    done = cli(*args, "--db", f"sqlite:///{tmp_path / 'runs.db'}", stdin="two")
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["passed"] is True


BAD = {
    "unknown task": (["eval", "paste", "--task", "smal-1"], "did you mean 'small-1'"),
    "unknown domain": (["eval", "run", "--domain", "maths"], "did you mean 'math'"),
    "bad url": (["eval", "run", "--base-url", "ftp://x"], "expected an http(s) URL"),
    "no url": (["eval", "run", "--base-url", ""], "--base-url is missing"),
    "no prefix": (["eval", "run", "--model", "gpt-4o"], "expected PROVIDER:NAME"),
    "bad provider": (["eval", "run", "--model", "acme:x"], "unknown provider 'acme'"),
    "bad mode": (["eval", "run", "--mode", "chatty"], "standard, zero_context"),
    "bad db": (["eval", "run", "--db", "nosuchdb://x"], "not a usable database URL"),
    "no answer file": (
        ["eval", "paste", "--task", "small-1", "--output-file", "/nonexistent/a.txt"],
        "cannot read it",
    ),
}


@pytest.mark.parametrize("case", list(BAD))
def test_bad_input_is_one_line_exit_2_and_loses_nothing(
    case: str, cli: Cli, small_file: Path, tmp_path: Path
) -> None:
    db = tmp_path / "runs.db"
    engine = open_store(f"sqlite:///{db}")
    insert_run(engine, Run("t", "math", "m", "p", "h", "standard", "v", "seed", "ok", "4"))
    args, message = BAD[case]
    defaults = {
        "--model": "openai-compat:m",
        "--base-url": "http://127.0.0.1:9/v1",
        "--domain": "instruction",
        "--db": f"sqlite:///{db}",
    }
    if args[1] == "paste":
        defaults = {"--db": defaults["--db"]}
    extra = [part for flag, value in defaults.items() if flag not in args for part in (flag, value)]
    done = cli(*args, *extra, "--tasks", str(small_file), stdin="")
    assert done.returncode == 2, (done.stdout, done.stderr)
    assert message in done.stderr
    assert len(done.stderr.strip().splitlines()) == 1 and done.stdout == ""
    assert rows(db) == [("t", "ok", 1, 0)]
