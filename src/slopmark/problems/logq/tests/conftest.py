"""Shared fixtures of the logq tests: how to run the submission and write inputs."""

from __future__ import annotations

import shlex
import subprocess
from collections.abc import Callable
from pathlib import Path

import pytest

RunLogq = Callable[..., subprocess.CompletedProcess[str]]
WriteLog = Callable[[str, str], str]


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption(
        "--entrypoint", action="store", required=True,
        help="full command that runs the submission, e.g. 'python /abs/workspace/main.py'",
    )
    parser.addoption(
        "--checkpoint", action="store", required=True,
        help="name of the checkpoint under test, e.g. checkpoint_2",
    )


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line("markers", "error: error handling (bad input, exit codes)")
    config.addinivalue_line("markers", "functionality: secondary features")


@pytest.fixture(scope="session")
def entrypoint_argv(request: pytest.FixtureRequest) -> list[str]:
    return shlex.split(str(request.config.getoption("--entrypoint")))


@pytest.fixture(scope="session")
def checkpoint_name(request: pytest.FixtureRequest) -> str:
    return str(request.config.getoption("--checkpoint"))


@pytest.fixture
def logq(entrypoint_argv: list[str], tmp_path: Path) -> RunLogq:
    """Run the submission in ``tmp_path`` with the given arguments and optional stdin."""

    def run(*args: str, stdin: str | None = None) -> subprocess.CompletedProcess[str]:
        return subprocess.run(
            [*entrypoint_argv, *args], cwd=tmp_path, input=stdin if stdin is not None else "",
            capture_output=True, text=True, timeout=20,
        )

    return run


@pytest.fixture
def write_log(tmp_path: Path) -> WriteLog:
    """Write ``text`` to ``tmp_path / name`` (bytes as given) and return ``name``."""

    def write(name: str, text: str) -> str:
        (tmp_path / name).write_bytes(text.encode("utf-8"))
        return name

    return write

