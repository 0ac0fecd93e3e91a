"""Checkpoint 1: a sum, and an error without numbers."""

from __future__ import annotations

import subprocess

import pytest


def run(argv: list[str], *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([*argv, *args], capture_output=True, text=True, timeout=60)


def test_sums(entrypoint_argv: list[str]) -> None:
    assert run(entrypoint_argv, "1", "2").stdout == "3\n"


@pytest.mark.error
def test_no_numbers_is_an_error(entrypoint_argv: list[str]) -> None:
    assert run(entrypoint_argv).returncode == 1
