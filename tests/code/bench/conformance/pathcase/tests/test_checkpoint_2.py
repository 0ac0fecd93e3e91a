"""Checkpoint 2's cases, found the same way."""

from __future__ import annotations

import subprocess

import pytest

from conftest import cases, checkpoint_of


@pytest.mark.parametrize("case", cases("checkpoint_2"), ids=lambda case: case.name)
def test_case(entrypoint_argv: list[str], case) -> None:
    assert checkpoint_of(case) == "checkpoint_2"
    args = (case / "cmd").read_text().split()
    done = subprocess.run([*entrypoint_argv, *args], capture_output=True, text=True, timeout=60)
    assert done.stdout == (case / "expected").read_text()
