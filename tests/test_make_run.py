"""`make run` is for users (issue 35): runtime dependencies only, a line per set-up step, and
nothing to set up the second time. Checked with make's own dry run (`make -n`) on a fresh
clone, so the suite does not build the core again; benchmarks/make_run.py times the real
thing (README, Quick start)."""

from __future__ import annotations

import os
import re
import subprocess
import time
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
pytestmark = pytest.mark.slow


@pytest.fixture(scope="module")
def clone(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A clone of this repository's HEAD: no .venv, no build output."""
    checkout = tmp_path_factory.mktemp("clone") / "slopmark"
    subprocess.run(["git", "clone", "--quiet", str(ROOT), str(checkout)], check=True)
    return checkout


def dry_run(checkout: Path) -> list[str]:
    """The commands `make run` would run in ``checkout``, in order."""
    done = subprocess.run(
        ["make", "--no-print-directory", "-n", "run"],
        cwd=checkout,
        capture_output=True,
        text=True,
        check=True,
    )
    return done.stdout.splitlines()


def said(commands: list[str]) -> list[str]:
    """What the set-up prints: the `slopmark: …` step lines of the recipe."""
    return [
        m.group(1) for line in commands if (m := re.search(r"'slopmark: %s\\n' \"(.*)\"", line))
    ]


def test_a_fresh_clone_says_each_step_and_installs_no_dev_tools(clone: Path) -> None:
    commands = dry_run(clone)
    steps = said(commands)
    assert [step.split(" ")[0] for step in steps] == [
        "creating",
        "installing",
        "building",
        "starting",
    ]
    assert "the native core" in steps[2] and "minutes" in steps[2]
    assert steps[3].startswith("starting the web app on http://127.0.0.1:8000")
    installs = [line for line in commands if "pip install" in line]
    assert installs and not any("dev]" in line for line in installs), installs
    assert any("--no-deps -e ." in line for line in installs)


def test_the_runtime_requirements_are_the_projects_dependencies(clone: Path) -> None:
    """The runtime step installs pyproject's [project] dependencies, which hold no dev tool."""
    commands = dry_run(clone)
    reader = next(
        m.group(1) for line in commands if (m := re.search(r"-c '(.*tomllib.*)' >", line))
    )
    listing = subprocess.run(
        ["python3", "-c", reader],
        cwd=clone,
        capture_output=True,
        text=True,
        check=True,
    ).stdout.split()
    assert any(name.startswith("fastapi") for name in listing)
    assert not any(name.startswith(("pytest", "mypy", "ruff", "playwright")) for name in listing)


def test_a_second_run_sets_nothing_up(clone: Path) -> None:
    """With the set-up done (its stamps newer than what they depend on), `make run` only
    starts the server: no venv, no pip, no build."""
    venv = clone / ".venv"
    (venv / "bin").mkdir(parents=True)
    (venv / "bin" / "python").write_text("")
    later = time.time() + 5
    for stamp in (venv / "bin" / "python", venv / ".runtime"):
        stamp.touch()
        os.utime(stamp, (later, later))
    commands = dry_run(clone)
    assert said(commands) == ["starting the web app on http://127.0.0.1:8000 (Ctrl-C stops it)"]
    assert not any("pip" in line or "venv" in line.split(" ")[0] for line in commands)
