"""The reference only parses on Python 3.12+."""

from __future__ import annotations

import subprocess


def run(argv: list[str], *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([*argv, *args], capture_output=True, text=True, timeout=60)


def test_joins_with_dashes(entrypoint_argv: list[str]) -> None:
    assert run(entrypoint_argv, "a", "b").stdout == "a-b\n"
