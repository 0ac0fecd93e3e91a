from __future__ import annotations

import subprocess
from pathlib import Path

import pytest


def run(argv: list[str], cwd: Path, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(argv + list(args), cwd=cwd, capture_output=True, text=True, timeout=20)


def test_counts_words(entrypoint_argv: list[str], tmp_path: Path) -> None:
    (tmp_path / "a.txt").write_text("one two\nthree\n")
    done = run(entrypoint_argv, tmp_path, "a.txt")
    assert (done.returncode, done.stdout) == (0, "3\n")


def test_empty_file(entrypoint_argv: list[str], tmp_path: Path) -> None:
    (tmp_path / "e.txt").write_text("")
    assert run(entrypoint_argv, tmp_path, "e.txt").stdout == "0\n"


@pytest.mark.functionality
def test_tabs_and_runs_of_spaces(entrypoint_argv: list[str], tmp_path: Path) -> None:
    (tmp_path / "t.txt").write_text("a\t\tb   c\n\n d")
    assert run(entrypoint_argv, tmp_path, "t.txt").stdout == "4\n"


@pytest.mark.error
def test_missing_file(entrypoint_argv: list[str], tmp_path: Path) -> None:
    done = run(entrypoint_argv, tmp_path, "nope.txt")
    assert done.returncode == 1
    assert "error: nope.txt not found" in done.stderr
