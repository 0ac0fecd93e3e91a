from __future__ import annotations

import subprocess
from pathlib import Path


def run(argv: list[str], cwd: Path, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(argv + list(args), cwd=cwd, capture_output=True, text=True, timeout=20)


def test_several_files_with_total(entrypoint_argv: list[str], tmp_path: Path) -> None:
    (tmp_path / "a.txt").write_text("one two\n")
    (tmp_path / "b.txt").write_text("three\n")
    done = run(entrypoint_argv, tmp_path, "a.txt", "b.txt")
    assert done.stdout == "2 a.txt\n1 b.txt\n3 total\n"


def test_several_files_lines(entrypoint_argv: list[str], tmp_path: Path) -> None:
    (tmp_path / "a.txt").write_text("1\n2\n")
    (tmp_path / "b.txt").write_text("3\n")
    done = run(entrypoint_argv, tmp_path, "--lines", "b.txt", "a.txt")
    assert done.stdout == "1 b.txt\n2 a.txt\n3 total\n"
