"""`slopmark/_core.pyi` states exactly what the built native core holds (mypy's stubtest)."""

from __future__ import annotations

import subprocess
import sys

import pytest

pytestmark = pytest.mark.slow  # starts python -m mypy.stubtest


def test_the_core_stub_matches_the_built_module() -> None:
    done = subprocess.run(
        [sys.executable, "-m", "mypy.stubtest", "slopmark._core"],
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert done.returncode == 0, done.stdout + done.stderr
