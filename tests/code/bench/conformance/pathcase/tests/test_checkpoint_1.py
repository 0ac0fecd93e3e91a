"""Cases found by path: the checkpoint is read from the case folder's path."""

from __future__ import annotations

import subprocess

import pytest

from conftest import cases, checkpoint_of


@pytest.mark.parametrize("case", cases("checkpoint_1"), ids=lambda case: case.name)
def test_case(entrypoint_argv: list[str], case) -> None:
    assert checkpoint_of(case) == "checkpoint_1"
    args = (case / "cmd").read_text().split()
    done = subprocess.run([*entrypoint_argv, *args], capture_output=True, text=True, timeout=60)
    assert done.stdout == (case / "expected").read_text()
