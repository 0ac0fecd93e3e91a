"""Parametrized by ids that look like Rich markup."""

from __future__ import annotations

import subprocess

import pytest


def run(argv: list[str], *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([*argv, *args], capture_output=True, text=True, timeout=60)


@pytest.mark.parametrize("word", ["abc-1", "abc-2"], ids=["abc-1", "abc-2"])
def test_x(entrypoint_argv: list[str], word: str) -> None:
    assert run(entrypoint_argv, word).stdout == "5\n"
