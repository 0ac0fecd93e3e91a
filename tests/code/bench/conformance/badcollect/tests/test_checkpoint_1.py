"""Imports a module the test environment lacks."""

from __future__ import annotations

import subprocess

import not_a_test_dependency  # noqa: F401


def test_prints_ok(entrypoint_argv: list[str]) -> None:
    assert subprocess.run(entrypoint_argv, capture_output=True, text=True).stdout == "ok\n"
