"""The problem's and the checkpoint's env reach the tests and the program they run."""

from __future__ import annotations

import os
import subprocess


def test_the_tests_see_the_variables() -> None:
    assert os.environ["LEVEL_SHARED"] == "from the checkpoint"
    assert os.environ["LEVEL_NUMBER"] == "7"


def test_the_program_sees_them(entrypoint_argv: list[str]) -> None:
    done = subprocess.run(entrypoint_argv, capture_output=True, text=True)
    assert done.stdout == "from the problem\nfrom the checkpoint\n7\n"
