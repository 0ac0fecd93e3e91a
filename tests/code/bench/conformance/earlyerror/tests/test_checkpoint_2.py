"""Checkpoint 2: no numbers sum to 0."""

from __future__ import annotations

import subprocess


def run(argv: list[str], *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([*argv, *args], capture_output=True, text=True, timeout=60)


def test_no_numbers_sum_to_zero(entrypoint_argv: list[str]) -> None:
    assert run(entrypoint_argv).stdout == "0\n"
