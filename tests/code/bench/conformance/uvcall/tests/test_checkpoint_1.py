"""Tests that call uv, as some SCB tests do."""

from __future__ import annotations

import subprocess


def run(argv: list[str], *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([*argv, *args], capture_output=True, text=True, timeout=60)


def test_uv_is_on_path() -> None:
    assert run(["uv", "--version"]).stdout.startswith("uv ")


def test_uv_runs_the_evaluation_python(entrypoint_argv: list[str]) -> None:
    done = run(
        ["uv", "run", "--no-project", "python", "-c", "import sys; print(sys.version_info[:2])"]
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout == "(3, 12)\n"
    assert run(entrypoint_argv).stdout == "3.12\n"
