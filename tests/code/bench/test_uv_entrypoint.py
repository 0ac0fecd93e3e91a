"""SCB's entry-point convention (``--entrypoint-style uv``): the submission runs by ``uv run``
in a ``uv init`` project that holds its requirements, built beside the snapshot.

The requirement is a wheel this module writes into a local folder (``--wheelhouse``,
which turns the package index off), so installing it reaches no network; the tests
then run with the network off. (The hidden tests' own environment, pytest and its
plugins, is the harness's, built once per test session as for every bench test.)
"""

from __future__ import annotations

import base64
import hashlib
import json
import os
import zipfile
from pathlib import Path
from typing import Any

import pytest

from bench.scbenv import needs_bwrap, needs_scb_python
from clirun import run_cli
from slopmark.code.bench.toolchains import find_toolchains

needs_uv = pytest.mark.skipif(
    "uv" not in find_toolchains(os.environ, ("uv",)).tools, reason="needs uv"
)
pytestmark = [needs_bwrap, needs_scb_python, needs_uv, pytest.mark.slow]  # starts the CLI

CONFTEST = '''
import shlex

import pytest


def pytest_addoption(parser):
    parser.addoption("--entrypoint", action="store", required=True)
    parser.addoption("--checkpoint", action="store", required=True)


@pytest.fixture(scope="session")
def entrypoint_argv(request):
    return shlex.split(request.config.getoption("--entrypoint"))
'''

TESTS = '''
import subprocess
from pathlib import Path


def run(entrypoint_argv):
    return subprocess.run([*entrypoint_argv, "hi"], capture_output=True, text=True, timeout=60)


def test_the_dependency_is_installed(entrypoint_argv):
    done = run(entrypoint_argv)
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines()[2] == "tinydep 0.3 says hi"


def test_uv_runs_the_submission_in_its_project(entrypoint_argv):
    uv = next(i for i, part in enumerate(entrypoint_argv) if Path(part).name == "uv")
    assert entrypoint_argv[uv + 1:uv + 3] == ["run", "--project"]
    assert "--offline" in entrypoint_argv and entrypoint_argv[-1].endswith("/workspace/main.py")
    environment, python = run(entrypoint_argv).stdout.splitlines()[:2]
    assert Path(environment).name == ".venv"
    assert Path(environment).parent.name.startswith("uv-project-3.12-")
    assert python == "3.12"
'''

MAIN = '''
import os
import sys

print(os.environ.get("VIRTUAL_ENV", ""))
print(f"{sys.version_info[0]}.{sys.version_info[1]}")

import tinydep

print(tinydep.greet(sys.argv[1]))
'''

GREET = "def greet(who):\n    return f'tinydep 0.3 says {who}'\n"


def write_wheel(folder: Path, name: str, version: str, module: str) -> Path:
    """A pure-Python wheel of one module, written by hand (no build tool, no index)."""
    files = {
        f"{name}.py": module,
        f"{name}-{version}.dist-info/METADATA": f"Metadata-Version: 2.1\nName: {name}\n"
        f"Version: {version}\n",
        f"{name}-{version}.dist-info/WHEEL": "Wheel-Version: 1.0\nGenerator: slopmark-tests\n"
        "Root-Is-Purelib: true\nTag: py3-none-any\n",
    }
    record = [f"{path},sha256={_digest(text)},{len(text.encode())}" for path, text in files.items()]
    files[f"{name}-{version}.dist-info/RECORD"] = "\n".join([*record, f"{name}-{version}"
                                                             ".dist-info/RECORD,,"]) + "\n"
    folder.mkdir(parents=True, exist_ok=True)
    wheel = folder / f"{name}-{version}-py3-none-any.whl"
    with zipfile.ZipFile(wheel, "w") as archive:
        for path, text in files.items():
            archive.writestr(path, text)
    return wheel


def _digest(text: str) -> str:
    raw = hashlib.sha256(text.encode()).digest()
    return base64.urlsafe_b64encode(raw).rstrip(b"=").decode()


def write_problem(root: Path, requirements: str) -> Path:
    """A one-checkpoint problem whose reference imports ``tinydep``."""
    folder = root / "uvdeps"
    (folder / "tests").mkdir(parents=True)
    (folder / "solutions" / "checkpoint_1").mkdir(parents=True)
    (folder / "config.yaml").write_text(
        "name: uvdeps\nversion: 1\ndescription: Greet through a dependency.\nentry_file: main\n"
        "timeout: 30\nevaluation: {toolchains: []}\n"
        "checkpoints:\n  checkpoint_1: {order: 1, version: 1, state: Core Tests}\n"
    )
    (folder / "checkpoint_1.md").write_text("Greet the first argument with tinydep.\n")
    (folder / "tests" / "conftest.py").write_text(CONFTEST)
    (folder / "tests" / "test_checkpoint_1.py").write_text(TESTS)
    (folder / "solutions" / "checkpoint_1" / "main.py").write_text(MAIN)
    (folder / "solutions" / "checkpoint_1" / "requirements.txt").write_text(requirements)
    return root


def validate(problems: Path, keep: Path, *options: str) -> dict[str, Any]:
    """The one checkpoint's verdict from ``validate --json``."""
    done = run_cli("code", "bench", "validate", "--problems", str(problems), "--sandbox", "bwrap",
                   "--keep", str(keep), "--json", *options)  # fmt: skip
    assert done.returncode in (0, 1), done.stderr
    (entry,) = json.loads(done.stdout)["checkpoints"]
    assert isinstance(entry, dict)
    return entry


def outcomes(entry: dict[str, Any]) -> dict[str, str]:
    return {test["key"].rsplit("::", 1)[1]: test["outcome"] for test in entry["tests"]}


@pytest.fixture(scope="module")
def uv_run(tmp_path_factory: pytest.TempPathFactory) -> tuple[dict[str, Any], Path, Path]:
    """A problem needing the wheelhouse's ``tinydep`` validated under the uv convention:
    its verdict, the kept run folder and the wheelhouse."""
    root = tmp_path_factory.mktemp("uv")
    house = root / "wheels"
    write_wheel(house, "tinydep", "0.3", GREET)
    problems = write_problem(root / "problems", "tinydep==0.3  # the local wheel\n")
    keep = root / "run"
    entry = validate(problems, keep, "--entrypoint-style", "uv", "--wheelhouse", str(house))
    return entry, keep, house


def test_a_requirement_from_a_wheelhouse_is_run_by_uv(
    uv_run: tuple[dict[str, Any], Path, Path],
) -> None:
    entry, _, _ = uv_run
    assert entry["verdict"] == "ok", entry
    assert outcomes(entry) == {
        "test_the_dependency_is_installed": "passed",
        "test_uv_runs_the_submission_in_its_project": "passed",
    }


def test_the_project_is_made_beside_the_snapshot(uv_run: tuple[dict[str, Any], Path, Path]) -> None:
    _, keep, _ = uv_run
    snapshot = keep / "uvdeps" / "checkpoint_1" / "workspace"
    assert sorted(path.name for path in snapshot.iterdir()) == ["main.py", "requirements.txt"]
    (project,) = [path for path in (keep / "envs").glob("uv-project-3.12-*") if path.is_dir()]
    assert 'dependencies = [\n    "tinydep==0.3",\n]' in (project / "pyproject.toml").read_text()
    assert sorted(path.name for path in project.iterdir()) == [
        ".complete", ".venv", "pyproject.toml", "requirements.txt", "uv.lock"
    ]  # uv's cache is gone


def test_the_run_records_the_style_and_the_wheelhouse(
    uv_run: tuple[dict[str, Any], Path, Path],
) -> None:
    _, keep, house = uv_run
    recorded = json.loads((keep / "run.json").read_text())["evaluation"]
    assert (recorded["entrypoint"], recorded["wheelhouse"]) == ("uv", str(house))


@pytest.mark.parametrize(
    ("requirements", "options", "expected"),
    [
        # the default style installs from the wheelhouse too, and runs the venv's python
        ("tinydep==0.3\n", ("--wheelhouse",), {"installed": "passed", "uv": "failed"}),
        # no requirements: `uv sync` makes the project's environment all the same
        ("", ("--entrypoint-style", "uv"), {"installed": "failed", "uv": "passed"}),
    ],
    ids=["venv-wheelhouse", "uv-no-requirements"],
)
def test_either_style_runs_what_it_was_given(
    tmp_path: Path, requirements: str, options: tuple[str, ...], expected: dict[str, str]
) -> None:
    house = tmp_path / "wheels"
    write_wheel(house, "tinydep", "0.3", GREET)
    problems = write_problem(tmp_path / "problems", requirements)
    args = [*options, str(house)] if options[0] == "--wheelhouse" else list(options)
    found = outcomes(validate(problems, tmp_path / "run", *args))
    assert found == {
        "test_the_dependency_is_installed": expected["installed"],
        "test_uv_runs_the_submission_in_its_project": expected["uv"],
    }


def test_a_requirement_uv_cannot_find_is_the_submissions_error(tmp_path: Path) -> None:
    house = tmp_path / "wheels"
    house.mkdir()
    problems = write_problem(tmp_path / "problems", "tinydep==0.3\n")
    entry = validate(
        problems, tmp_path / "run", "--entrypoint-style", "uv", "--wheelhouse", str(house)
    )
    assert (entry["status"], entry["tests"]) == ("test_error", [])
    # uv 0.13's words: "Failed to add dependencies: No solution found when resolving
    # dependencies: Because tinydep was not found in the provided package locations and ..."
    reason = entry["error"].removeprefix("`uv add` could not install requirements.txt: ")
    assert reason != entry["error"] and "\n" not in reason
    assert "tinydep" in reason and "hint" not in reason and "--frozen" not in reason

