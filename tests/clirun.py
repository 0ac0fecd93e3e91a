"""Run the real slopmark CLI in a subprocess, as a user would."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any


def run_cli(
    *args: str, cwd: Path | None = None, env: dict[str, str] | None = None, timeout: float = 300
) -> subprocess.CompletedProcess[str]:
    """Run ``python -m slopmark ARGS`` (in ``env`` if given) and capture its output."""
    return subprocess.run(
        [sys.executable, "-m", "slopmark", *args],
        capture_output=True,
        text=True,
        cwd=cwd,
        env=env,
        timeout=timeout,
    )


def cli_json(*args: str, cwd: Path | None = None) -> Any:
    done = run_cli(*args, "--json", cwd=cwd)
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)
