"""Shared fixtures: the real CLI in a subprocess, and small trees on disk."""

from __future__ import annotations

import json
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest


def run_cli(*args: str, cwd: Path | None = None) -> subprocess.CompletedProcess[str]:
    """Run ``python -m slopmark ARGS`` and capture its output."""
    return subprocess.run(
        [sys.executable, "-m", "slopmark", *args],
        capture_output=True,
        text=True,
        cwd=cwd,
        timeout=300,
    )


def cli_json(*args: str, cwd: Path | None = None) -> Any:
    done = run_cli(*args, "--json", cwd=cwd)
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)


@pytest.fixture
def make_tree(tmp_path: Path) -> Callable[[dict[str, str | bytes]], Path]:
    """Write ``{relative path: text or bytes}`` under a fresh folder and return it."""

    def make(files: dict[str, str | bytes]) -> Path:
        root = tmp_path / "tree"
        for name, content in files.items():
            target = root / name
            target.parent.mkdir(parents=True, exist_ok=True)
            if isinstance(content, bytes):
                target.write_bytes(content)
            else:
                target.write_text(content, encoding="utf-8")
        root.mkdir(exist_ok=True)
        return root

    return make
