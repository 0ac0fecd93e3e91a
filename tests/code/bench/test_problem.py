"""Reading the SlopCodeBench problem layout, and its errors."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from slopmark.code.bench.problem import load_problem, load_problems
from slopmark.errors import BadInput

CONFIG = """\
name: tiny
version: 3
description: A tiny problem.
entry_file: main
timeout: 12
test_dependencies: [pyyaml]
markers:
  slow: {description: slow ones, group: FUNCTIONALITY}
checkpoints:
  checkpoint_2: {order: 2, version: 1, state: Core Tests, include_prior_tests: true}
  checkpoint_1: {order: 1, version: 1, state: Core Tests}
"""


def make_problem(root: Path, config: str = CONFIG) -> Path:
    folder = root / "tiny"
    (folder / "tests").mkdir(parents=True)
    (folder / "config.yaml").write_text(config)
    for n in (1, 2):
        (folder / f"checkpoint_{n}.md").write_text(f"# Checkpoint {n}\n")
        (folder / "tests" / f"test_checkpoint_{n}.py").write_text("def test_x():\n    pass\n")
    (folder / "solutions" / "checkpoint_1").mkdir(parents=True)
    return folder


def test_reads_every_field(tmp_path: Path) -> None:
    problem = load_problem(make_problem(tmp_path))
    assert problem.name == "tiny"
    assert problem.version == 3
    assert problem.entry_script == "main.py"
    assert problem.timeout_s == 12.0
    assert problem.test_dependencies == ("pyyaml",)
    assert problem.markers == {"slow": "FUNCTIONALITY"}
    assert [c.name for c in problem.checkpoints] == ["checkpoint_1", "checkpoint_2"]
    assert problem.checkpoints[1].spec == "# Checkpoint 2\n"


def test_test_files_include_earlier_checkpoints(tmp_path: Path) -> None:
    problem = load_problem(make_problem(tmp_path))
    second = problem.checkpoint("checkpoint_2")
    assert [p.name for p in problem.test_files(second)] == [
        "test_checkpoint_2.py",
        "test_checkpoint_1.py",
    ]
    assert [p.name for p in problem.test_files(problem.checkpoints[0])] == ["test_checkpoint_1.py"]


def test_solution_dirs(tmp_path: Path) -> None:
    problem = load_problem(make_problem(tmp_path))
    assert problem.solution_dir(problem.checkpoints[0]) == problem.root / "solutions/checkpoint_1"
    assert problem.solution_dir(problem.checkpoints[1]) is None
    (problem.root / "solution").mkdir()
    assert problem.solution_dir(problem.checkpoints[1]) == problem.root / "solution"


def test_older_layout_spec_in_checkpoint_folder(tmp_path: Path) -> None:
    folder = make_problem(tmp_path)
    (folder / "checkpoint_1.md").unlink()
    (folder / "checkpoint_1").mkdir()
    (folder / "checkpoint_1" / "spec.md").write_text("old layout\n")
    assert load_problem(folder).checkpoints[0].spec == "old layout\n"


def test_env_of_the_problem_and_of_each_checkpoint(tmp_path: Path) -> None:
    text = "entry_file: main\nenv: {A: one, B: 2}\ncheckpoints: {checkpoint_1: {env: {B: two}}}\n"
    problem = load_problem(make_problem(tmp_path, text))
    assert (problem.env, problem.checkpoints[0].env) == ({"A": "one", "B": "2"}, {"B": "two"})


@pytest.mark.parametrize(
    ("config", "message"),
    [
        ("name: x\ncheckpoints: {checkpoint_1: {}}\n", "missing required field 'entry_file'"),
        ("entry_file: main\ncheckpoints: {}\n", "'checkpoints' is empty"),
        ("entry_file: main\ncheckpoints: {first: {}}\n", "must be named checkpoint_N"),
        ("entry_file: main\ncheckpoints: {checkpoint_9: {}}\n", "has no spec"),
        ("entry_file: [\n", "not valid YAML"),
        ("- a\n- b\n", "must be a mapping"),
        (
            "entry_file: main\nmarkers: {m: {group: NOPE}}\ncheckpoints: {checkpoint_1: {}}\n",
            "unknown group 'NOPE'",
        ),
        ("entry_file: main\nenv: [A]\ncheckpoints: {checkpoint_1: {}}\n", "'env' must be"),
        (
            "entry_file: main\ncheckpoints: {checkpoint_1: {env: {A: [1]}}}\n",
            "'checkpoints.checkpoint_1.env.A' is [1]; give the variable a text value",
        ),
    ],
)
def test_bad_config_names_file_and_field(tmp_path: Path, config: str, message: str) -> None:
    folder = make_problem(tmp_path, config)
    with pytest.raises(BadInput) as caught:
        load_problem(folder)
    assert message in str(caught.value)
    assert str(folder / "config.yaml") in str(caught.value)


def test_load_problems_by_name(tmp_path: Path) -> None:
    make_problem(tmp_path)
    assert [p.name for p in load_problems(tmp_path)] == ["tiny"]
    with pytest.raises(BadInput, match="no problem named nope"):
        load_problems(tmp_path, ["nope"])
    with pytest.raises(BadInput, match="no problems here"):
        load_problems(tmp_path / "tiny" / "tests")
    with pytest.raises(BadInput, match="no such problems folder"):
        load_problems(tmp_path / "missing")


# -- confinement: nothing outside the problem folder reaches the agent or the tests ------------


def test_a_spec_linked_outside_the_problem_folder_is_refused(tmp_path: Path) -> None:
    folder = make_problem(tmp_path)
    secret = tmp_path / "secret.md"
    secret.write_text("the host's file")
    (folder / "checkpoint_1.md").unlink()
    (folder / "checkpoint_1.md").symlink_to(secret)
    with pytest.raises(BadInput, match=r"checkpoint_1\.md.* leaves the problem folder"):
        load_problem(folder)


@pytest.mark.parametrize("entry", ["../../x", "/etc/passwd", "a/../../b", "''"])
def test_an_entry_file_outside_the_workspace_is_refused(tmp_path: Path, entry: str) -> None:
    folder = make_problem(tmp_path, CONFIG.replace("entry_file: main", f"entry_file: {entry}"))
    with pytest.raises(BadInput, match="'entry_file' .* must be a file inside the workspace"):
        load_problem(folder)


@pytest.mark.parametrize("where", ["tests/data.txt", "solutions/checkpoint_1/main.py"])
def test_a_test_or_solution_linked_outside_is_refused(tmp_path: Path, where: str) -> None:
    folder = make_problem(tmp_path)
    (tmp_path / "host.txt").write_text("host")
    (folder / where).symlink_to(tmp_path / "host.txt")
    with pytest.raises(BadInput, match=f"'{where}' links outside the problem folder"):
        load_problem(folder)


@pytest.mark.slow
def test_one_invalid_problem_hides_no_other(tmp_path: Path) -> None:
    make_problem(tmp_path)
    broken = tmp_path / "broken"
    broken.mkdir()
    (broken / "config.yaml").write_text("name: broken\n")
    assert [p.name for p in load_problems(tmp_path, ["tiny"])] == ["tiny"]
    with pytest.raises(BadInput, match="missing required field 'entry_file'"):
        load_problems(tmp_path)
    done = subprocess.run(
        [sys.executable, "-m", "slopmark", "code", "bench", "list", "--problems", str(tmp_path)],
        capture_output=True, text=True, check=False,
    )  # fmt: skip
    assert done.returncode == 2
    assert "tiny" in done.stdout
    [line] = done.stderr.splitlines()
    assert "broken/config.yaml: missing required field 'entry_file'" in line
    assert "1 of 2 problem folders" in line
