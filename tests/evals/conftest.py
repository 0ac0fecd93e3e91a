"""Fixtures of the runner and CLI tests: a real fake server, task files, store files."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest
from sqlalchemy import Engine

from fakes.openai_server import openai_server  # noqa: F401  (the fixture)
from slopmark.evals.pool import load_pool
from slopmark.evals.task import Task
from slopmark.store import open_store

DATA = Path(__file__).parent / "data"
SMALL = DATA / "instruction_small.yaml"


def slopmark(
    *args: str, stdin: str | None = None, cwd: Path | None = None, timeout: float = 120
) -> subprocess.CompletedProcess[str]:
    """The real CLI in a subprocess; no store or key leaks in from the environment."""
    env = {k: v for k, v in os.environ.items() if not k.startswith(("SLOPMARK_", "OPENAI_"))}
    return subprocess.run(
        [sys.executable, "-m", "slopmark", *args],
        input=stdin,
        capture_output=True,
        text=True,
        cwd=cwd,
        env=env,
        timeout=timeout,
    )


def slopmark_popen(*args: str) -> subprocess.Popen[str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("SLOPMARK_", "OPENAI_"))}
    return subprocess.Popen(
        [sys.executable, "-m", "slopmark", *args],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env=env,
    )


@pytest.fixture
def db_url(tmp_path: Path) -> str:
    """A store URL on a fresh SQLite file."""
    return f"sqlite:///{tmp_path / 'runs.db'}"


@pytest.fixture
def engine(db_url: str) -> Engine:
    return open_store(db_url)


@pytest.fixture
def small_tasks() -> list[Task]:
    return load_pool("instruction", [SMALL])


@pytest.fixture
def small_file() -> Path:
    """The small instruction suite (six approved tasks, one multi-turn, one unapproved)."""
    return SMALL


@pytest.fixture
def cli() -> Callable[..., subprocess.CompletedProcess[str]]:
    """``cli(*args, stdin=None)``: the real CLI in a subprocess, waited for."""
    return slopmark


@pytest.fixture
def cli_started() -> Callable[..., subprocess.Popen[str]]:
    """``cli_started(*args)``: the real CLI started in a subprocess, not waited for."""
    return slopmark_popen


@pytest.fixture
def make_tasks(tmp_path: Path) -> Callable[[int], Path]:
    """Write ``n`` one-turn instruction tasks (every echo passes) as JSONL; return the file."""

    def make(n: int) -> Path:
        path = tmp_path / f"tasks_{n}.jsonl"
        lines = []
        for index in range(n):
            rule = {"rule": "required_phrase", "text": f"word{index}"}
            record = {
                "id": f"gen-{index:03d}",
                "domain": "instruction",
                "prompt": f"Reply with word{index}.",
                "verifier": {"type": "instruction", "rules": [rule]},
                "source": "original",
            }
            lines.append(json.dumps(record))
        path.write_text("\n".join(lines) + "\n", encoding="utf-8")
        return path

    return make
