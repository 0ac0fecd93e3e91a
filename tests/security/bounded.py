"""The real CLI in a subprocess under a memory cap and a time limit.

An input that makes slopmark grow without bound (a YAML alias bomb) must not
take the machine down while the test proves it is refused: the child gets an
address-space limit, so before a fix it dies of MemoryError (or times out)
and the test fails instead of swapping.
"""

from __future__ import annotations

import resource
import subprocess
import sys
from pathlib import Path

MEMORY_CAP = 2 * 1024**3
TIME_LIMIT_S = 120


def _cap_memory() -> None:
    resource.setrlimit(resource.RLIMIT_AS, (MEMORY_CAP, MEMORY_CAP))


def run_capped(*args: str, cwd: Path | None = None) -> subprocess.CompletedProcess[str]:
    """``python -m slopmark ARGS`` with at most `MEMORY_CAP` bytes and `TIME_LIMIT_S` seconds."""
    return subprocess.run(
        [sys.executable, "-m", "slopmark", *args],
        capture_output=True,
        text=True,
        cwd=cwd,
        timeout=TIME_LIMIT_S,
        preexec_fn=_cap_memory,
    )


def one_line_error(done: subprocess.CompletedProcess[str]) -> str:
    """The single stderr line of a bad-input exit (asserts exit 2, one line, no traceback)."""
    assert done.returncode == 2, (done.returncode, done.stderr[-2000:])
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1, done.stderr[-2000:]
    assert "Traceback" not in done.stderr
    return lines[0]
