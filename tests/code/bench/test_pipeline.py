"""The whole benchmark through the real CLI, in the real bubblewrap sandbox.

validate → run (replay agent) → store → report, a resume after a kill, and
a broken reference that validate must catch.
"""

from __future__ import annotations

import json
import os
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from bench.scbenv import hidden_312_environment, needs_bwrap, needs_scb_python
from clirun import run_cli
from slopmark.store import open_store
from slopmark.store.runs import list_runs

DATA = Path(__file__).parent / "data"
SANDBOX = "bwrap"

pytestmark = [needs_bwrap, needs_scb_python, pytest.mark.slow]  # starts bench run, uv


def results_of(run_dir: Path) -> list[dict[str, object]]:
    paths = sorted(run_dir.glob("wordcount/checkpoint_*/result.json"))
    return [json.loads(path.read_text()) for path in paths]


def test_validate_passes_on_the_reference_solutions() -> None:
    done = run_cli("code", "bench", "validate", "--problems", str(DATA), "--sandbox", SANDBOX)
    assert done.returncode == 0, done.stdout + done.stderr
    line = "] ok    wordcount/checkpoint_3  9 tests: 9 passed — core 2/2, regression 7/7"
    assert line in done.stdout
    assert done.stdout.splitlines()[-1] == "3/3 reference checkpoints ok, 0 failed, 0 errored"


def test_validate_catches_a_broken_reference(tmp_path: Path) -> None:
    shutil.copytree(DATA / "wordcount", tmp_path / "wordcount")
    broken = tmp_path / "wordcount" / "solutions" / "checkpoint_2" / "main.py"
    broken.write_text(broken.read_text().replace("splitlines()", "split('\\n')"))
    done = run_cli("code", "bench", "validate", "--problems", str(tmp_path), "--sandbox", SANDBOX)
    assert done.returncode == 1
    verdict = "FAIL  wordcount/checkpoint_2  7 tests: 6 passed, 1 failed — core 0/1 (1 failed)"
    failing = "failed  core          .evaluation_tests/test_checkpoint_2.py::test_counts_lines"
    assert verdict in done.stdout and failing in done.stdout
    assert "ok    wordcount/checkpoint_1" in done.stdout


def test_run_with_replay_agent_end_to_end(tmp_path: Path) -> None:
    run_dir, db = tmp_path / "run", f"sqlite:///{tmp_path / 'store.db'}"
    done = run_cli(
        "code", "bench", "run", "--problems", str(DATA), "--agent", "replay",
        "--sandbox", SANDBOX, "--out", str(run_dir), "--db", db,
    )  # fmt: skip
    assert done.returncode == 0, done.stdout + done.stderr
    results = results_of(run_dir)
    assert [r["status"] for r in results] == ["scored"] * 3
    assert [len(r["tests"]) for r in results] == [4, 7, 9]  # type: ignore[arg-type]
    groups = {t["group"] for t in results[2]["tests"]}  # type: ignore[attr-defined]
    assert groups == {"core", "regression"}  # an earlier checkpoint's @error test is regression
    stored = list_runs(open_store(db), domain="code_iterative")
    assert sorted(r.task_id for r in stored) == [f"wordcount.v1/checkpoint_{n}" for n in (1, 2, 3)]
    assert all(r.passed and r.model == "replay" and r.template_id == "wordcount" for r in stored)
    assert all(r.details["quality"]["sloc"] > 0 for r in stored)
    board = run_cli("board", "show", "--domain", "code_iterative", "--db", db)
    assert board.returncode == 0, board.stderr
    assert "code_iterative" in board.stdout and "bench-1/just-solve" in board.stdout
    report = json.loads(run_cli("code", "bench", "report", str(run_dir), "--json").stdout)
    assert report["summary"]["overall"]["strict"] == 1.0
    assert report["summary"]["partial"] == 1.0
    assert [c["phase"] for c in report["checkpoints"]] == ["Start", "Early", "Final"]
    second = report["checkpoints"][1]["quality"]
    assert second["lines_added"] > 0 and second["lines_removed"] > 0
    assert second["previous_code_lines"] > 0 and report["checkpoints"][1]["relative_churn"] > 0
    assert report["checkpoints"][0]["relative_churn"] is None
    assert report["summary"]["phases"]["Start"]["groups"]["core"]["total"] > 0
    # the coding-agent benchmark measures with the paper's frozen rules by default
    assert report["rule_set"] == report["run"]["rule_set"] == second["rule_set"] == "paper"


def test_report_writes_charts(tmp_path: Path) -> None:
    run_dir = tmp_path / "run"
    done = run_cli(
        "code", "bench", "run", "--problems", str(DATA), "--agent", "replay",
        "--sandbox", SANDBOX, "--out", str(run_dir), "--db", f"sqlite:///{tmp_path / 's.db'}",
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    plotted = run_cli("code", "bench", "report", str(run_dir), "--plot")
    assert plotted.returncode == 0, plotted.stderr
    svg = (run_dir / "plots" / "solve_rate_by_phase.svg").read_text()
    assert "<svg" in svg and "strict" in svg
    assert "run · agent replay · model unknown · prompt just-solve" in svg  # the title
    assert "n=1" in svg and "100%" in svg  # n per phase, every bar's value
    png = (run_dir / "plots" / "quality_by_phase.png").read_bytes()
    assert png.startswith(b"\x89PNG")
    as_json = run_cli("code", "bench", "report", str(run_dir), "--json", "--plot")
    assert as_json.returncode == 0, as_json.stderr
    assert json.loads(as_json.stdout)  # the JSON alone on stdout: "wrote" lines go to stderr
    assert "wrote " in as_json.stderr and "wrote " not in as_json.stdout


AGENT = """\
import re, shutil, sys, time
from pathlib import Path
prompt, workspace, solutions, gate = sys.argv[1:5]
number = re.search(r"checkpoint (\\d)", Path(prompt).read_text()).group(1)
if number == "2" and not Path(gate).exists():
    time.sleep(120)
for item in Path(workspace).iterdir():
    shutil.rmtree(item) if item.is_dir() else item.unlink()
shutil.copytree(Path(solutions) / f"checkpoint_{number}", workspace, dirs_exist_ok=True)
"""


def test_killed_run_resumes_without_scoring_twice(tmp_path: Path) -> None:
    script, gate = tmp_path / "agent.py", tmp_path / "gate"
    script.write_text(AGENT)
    solutions = tmp_path / "solutions"  # the problems' folder is hidden from agents
    shutil.copytree(DATA / "wordcount" / "solutions", solutions)
    agent = f"{sys.executable} {script} {{prompt_file}} {{workspace}} {solutions} {gate}"
    run_dir, db = tmp_path / "run", f"sqlite:///{tmp_path / 'store.db'}"
    argv = [
        sys.executable, "-m", "slopmark", "code", "bench", "run", "--problems", str(DATA),
        "--agent", agent, "--sandbox", SANDBOX, "--out", str(run_dir), "--db", db,
    ]  # fmt: skip
    first = subprocess.Popen(
        argv, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, start_new_session=True
    )
    waiting = run_dir / "wordcount" / "checkpoint_2" / "agent" / "prompt.md"
    deadline = time.monotonic() + 120
    while not waiting.exists() and time.monotonic() < deadline and first.poll() is None:
        time.sleep(0.2)
    assert waiting.exists(), first.stderr.read().decode() if first.stderr else ""
    os.killpg(first.pid, signal.SIGKILL)
    first.communicate()
    first_result = (run_dir / "wordcount" / "checkpoint_1" / "result.json").read_text()
    assert not (run_dir / "wordcount" / "checkpoint_2" / "result.json").exists()
    gate.write_text("go")
    second = subprocess.run(argv, capture_output=True, text=True, timeout=300)
    assert second.returncode == 0, second.stdout + second.stderr
    assert (run_dir / "wordcount" / "checkpoint_1" / "result.json").read_text() == first_result
    results = results_of(run_dir)
    assert [r["status"] for r in results] == ["scored"] * 3
    stored = list_runs(open_store(db), domain="code_iterative")
    assert sorted(r.task_id for r in stored) == [f"wordcount.v1/checkpoint_{n}" for n in (1, 2, 3)]
    assert all(r.passed for r in stored)


def test_resume_with_other_options_is_refused(tmp_path: Path) -> None:
    run_dir, db = tmp_path / "run", f"sqlite:///{tmp_path / 'store.db'}"
    common = ["code", "bench", "run", "--problems", str(DATA), "--sandbox", SANDBOX, "--db", db]
    assert run_cli(*common, "--agent", "replay", "--out", str(run_dir)).returncode == 0
    again = run_cli(*common, "--agent", "replay", "--prompt", "anti-slop", "--out", str(run_dir))
    assert again.returncode == 2
    assert "started with prompt='just-solve'" in again.stderr


def test_an_environment_error_records_no_verdict_and_is_retried_on_resume(tmp_path: Path) -> None:
    run_dir, db = tmp_path / "run", f"sqlite:///{tmp_path / 'store.db'}"
    args = ("code", "bench", "run", "--problems", str(DATA), "--agent", "replay",
            "--sandbox", SANDBOX, "--out", str(run_dir), "--db", db)  # fmt: skip
    hidden = run_cli(*args, env=hidden_312_environment(tmp_path))
    assert hidden.returncode == 0, hidden.stdout + hidden.stderr
    results = results_of(run_dir)
    assert [r["status"] for r in results] == ["env_error"] * 3
    assert all(r["agent"] is None and "needs Python 3.12" in str(r["error"]) for r in results)
    assert not (run_dir / "wordcount" / "workspace").exists()  # the agent never ran
    report = json.loads(run_cli("code", "bench", "report", str(run_dir), "--json").stdout)
    assert report["summary"]["overall"]["checkpoints"] == 0
    assert report["summary"]["overall"]["errored"] == 3
    assert report["summary"]["overall"]["strict"] is None
    stored = list_runs(open_store(db), domain="code_iterative")
    assert [r.status for r in stored] == ["error"] * 3
    resumed = run_cli(*args)
    assert resumed.returncode == 0, resumed.stdout + resumed.stderr
    assert [r["status"] for r in results_of(run_dir)] == ["scored"] * 3
