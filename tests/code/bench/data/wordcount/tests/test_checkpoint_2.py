from __future__ import annotations

import subprocess
from pathlib import Path

import pytest


def run(argv: list[str], cwd: Path, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(argv + list(args), cwd=cwd, capture_output=True, text=True, timeout=20)


def test_counts_lines(entrypoint_argv: list[str], tmp_path: Path) -> None:
    (tmp_path / "a.txt").write_text("one two\nthree\n")
    assert run(entrypoint_argv, tmp_path, "--lines", "a.txt").stdout == "2\n"


@pytest.mark.functionality
def test_last_line_without_newline(entrypoint_argv: list[str], tmp_path: Path) -> None:
    (tmp_path / "a.txt").write_text("x\ny")
    assert run(entrypoint_argv, tmp_path, "--lines", "a.txt").stdout == "2\n"


@pytest.mark.error
def test_lines_of_missing_file(entrypoint_argv: list[str], tmp_path: Path) -> None:
    assert run(entrypoint_argv, tmp_path, "--lines", "gone.txt").returncode == 1
