"""The shipped original problems: well formed, solved by their references, failed by naive code."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from bench.scbenv import needs_bwrap, needs_scb_python
from clirun import run_cli
from slopmark.code.bench.envs import hidden_test_environment, workspace_environment
from slopmark.code.bench.problem import Checkpoint, Problem, load_problems
from slopmark.code.bench.profiles import EvalEnvironment, EvalOptions, host_of, resolve
from slopmark.code.bench.testrun import run_tests
from slopmark.sandbox import choose_sandbox
from slopmark.store import open_store
from slopmark.store.runs import list_runs

pytestmark = pytest.mark.slow  # starts bwrap, python

ROOT = Path(__file__).parents[3]
PROBLEMS = ROOT / "src" / "slopmark" / "problems"
NAIVE = Path(__file__).parent / "naive"
SHIPPED = load_problems(PROBLEMS)


def test_at_least_four_original_problems_of_four_checkpoints() -> None:
    assert len(SHIPPED) >= 4
    for problem in SHIPPED:
        assert len(problem.checkpoints) >= 4, problem.name
        assert problem.source == "original", problem.name
        for checkpoint in problem.checkpoints:
            assert problem.solution_dir(checkpoint) is not None, (problem.name, checkpoint.name)
            assert (problem.tests_dir / f"test_{checkpoint.name}.py").is_file()
            assert len(checkpoint.spec) > 500, (problem.name, checkpoint.name)


@needs_bwrap
@needs_scb_python
@pytest.mark.timeout(1900)
def test_every_reference_checkpoint_is_strictly_solved() -> None:
    done = run_cli(
        "code", "bench", "validate", "--problems", str(PROBLEMS), "--sandbox", "bwrap",
        "--jobs", "2", timeout=1800,  # 19 checkpoints, hundreds of tests: minutes on a busy machine
    )  # fmt: skip
    assert done.returncode == 0, done.stdout + done.stderr
    solved = [line for line in done.stdout.splitlines() if "] ok    " in line]
    count = sum(len(p.checkpoints) for p in SHIPPED)
    assert len(solved) == count == 19
    total = f"{count}/{count} reference checkpoints ok, 0 failed, 0 errored"
    assert done.stdout.splitlines()[-1] == total


def naive_workspace(problem: Problem, checkpoint: Checkpoint) -> Path:
    """The naive solution of ``checkpoint``: its own folder, else the latest earlier one
    (a naive agent that did not touch its code for a checkpoint)."""
    earlier = [c for c in problem.checkpoints if c.order <= checkpoint.order]
    folders = [NAIVE / problem.name / c.name for c in earlier]
    return [folder for folder in folders if folder.is_dir()][-1]


@needs_bwrap
@needs_scb_python
@pytest.mark.parametrize("problem", SHIPPED, ids=[p.name for p in SHIPPED])
def test_naive_solution_fails_somewhere_with_every_test_group(
    problem: Problem, tmp_path: Path
) -> None:
    """Checkpoint by checkpoint until naive code fails: it must, and every group must exist."""
    sandbox = choose_sandbox("bwrap")
    environment = resolve(problem, EvalOptions(), host_of(os.environ))
    assert isinstance(environment, EvalEnvironment), environment
    test_env = hidden_test_environment(problem.test_dependencies, environment.interpreter)
    failures, groups = 0, set[str]()
    for checkpoint in problem.checkpoints:
        workspace = naive_workspace(problem, checkpoint)
        python = environment.interpreter
        ws_env, error = workspace_environment(workspace, tmp_path / "envs", sandbox, python)
        assert error is None
        run = run_tests(
            problem, checkpoint, workspace, tmp_path / checkpoint.name,
            sandbox=sandbox, environment=environment, test_env=test_env, ws_env=ws_env,
        )  # fmt: skip
        assert run.error is None, run.error
        groups |= {t.group for t in run.tests}
        failures += sum(not t.passed for t in run.tests)
        assert any(t.passed for t in run.tests if t.group == "core"), "naive, not broken"
        if failures and checkpoint.order > 1:
            break
    assert failures > 0
    assert groups == {"core", "functionality", "error", "regression"}


@needs_bwrap
@needs_scb_python
@pytest.mark.timeout(1300)
def test_a_shipped_problem_runs_end_to_end_with_the_replay_agent(tmp_path: Path) -> None:
    """run → store → report on a shipped problem, in bubblewrap."""
    smallest = min(SHIPPED, key=lambda p: len(p.checkpoints))
    run_dir, db = tmp_path / "run", f"sqlite:///{tmp_path / 'store.db'}"
    done = run_cli(
        "code", "bench", "run", "--problems", str(PROBLEMS), "--problem", smallest.name,
        "--agent", "replay", "--sandbox", "bwrap", "--out", str(run_dir), "--db", db,
        timeout=1200,
    )  # fmt: skip
    assert done.returncode == 0, done.stdout + done.stderr
    report = run_cli("code", "bench", "report", str(run_dir), "--json")
    summary = json.loads(report.stdout)["summary"]
    assert summary["overall"]["checkpoints"] == len(smallest.checkpoints)
    assert summary["overall"]["strict"] == 1.0
    assert summary["overall"]["measured"] == len(smallest.checkpoints)
    stored = list_runs(open_store(db), domain="code_iterative")
    assert len(stored) == len(smallest.checkpoints)
    assert all(run.passed and run.source == "original" for run in stored)
