"""Tests with timeouts of their own: one trips in the first session only (as on a
loaded machine), one in every session, one never."""

from __future__ import annotations

import subprocess

import pytest


def test_prints_ok(entrypoint_argv: list[str]) -> None:
    done = subprocess.run(entrypoint_argv, capture_output=True, text=True, timeout=60)
    assert done.stdout == "ok\n"


def test_answers_in_time(entrypoint_argv: list[str], rerun: bool) -> None:
    """0.5 s in the first session (the 2 s answer trips it), 60 s when rerun alone."""
    argv = [*entrypoint_argv, "slow"]
    done = subprocess.run(argv, capture_output=True, text=True, timeout=60 if rerun else 0.5)
    assert done.stdout == "ok\n"


def test_answers_fast(entrypoint_argv: list[str]) -> None:
    """Trips in every session; the test turns the timeout into its own failure."""
    try:
        subprocess.run([*entrypoint_argv, "slow"], capture_output=True, timeout=0.5)
    except subprocess.TimeoutExpired:
        pytest.fail("no answer within 0.5 s")
