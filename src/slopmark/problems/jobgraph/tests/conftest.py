"""Shared fixtures for the jobgraph tests: the submission's command line and a runner."""

from __future__ import annotations

import shlex
import subprocess
from collections.abc import Callable
from pathlib import Path

import pytest

Runner = Callable[..., subprocess.CompletedProcess[str]]


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption("--entrypoint", required=True, help="command that runs the submission")
    parser.addoption("--checkpoint", required=True, help="checkpoint name, e.g. checkpoint_2")


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line("markers", "error: error handling (bad input, exit codes)")
    config.addinivalue_line("markers", "functionality: secondary features")


@pytest.fixture(scope="session")
def entrypoint_argv(request: pytest.FixtureRequest) -> list[str]:
    return shlex.split(request.config.getoption("--entrypoint"))


@pytest.fixture(scope="session")
def checkpoint_name(request: pytest.FixtureRequest) -> str:
    return str(request.config.getoption("--checkpoint"))


@pytest.fixture
def run(entrypoint_argv: list[str], tmp_path: Path) -> Runner:
    """Run the submission in `tmp_path` with the given arguments."""

    def _run(*args: str, timeout: float = 20) -> subprocess.CompletedProcess[str]:
        return subprocess.run(
            [*entrypoint_argv, *args],
            cwd=tmp_path,
            capture_output=True,
            text=True,
            timeout=timeout,
        )

    return _run


@pytest.fixture
def write(tmp_path: Path) -> Callable[[str, str], str]:
    """Write a file into `tmp_path` and return its name."""

    def _write(name: str, text: str) -> str:
        (tmp_path / name).write_text(text, encoding="utf-8")
        return name

    return _write
