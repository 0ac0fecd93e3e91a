"""Options and fixtures shared by the ledger checkpoint tests."""

from __future__ import annotations

import shlex
import subprocess
from collections.abc import Callable
from pathlib import Path

import pytest

Runner = Callable[..., subprocess.CompletedProcess[str]]
Writer = Callable[[str, str], Path]


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption("--entrypoint", required=True, help="command that runs the submission")
    parser.addoption("--checkpoint", required=True, help="checkpoint being tested")


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
def ledger(entrypoint_argv: list[str], tmp_path: Path) -> Runner:
    """Run the submission with the given arguments inside ``tmp_path``."""

    def run(*args: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run(
            [*entrypoint_argv, *args],
            cwd=tmp_path,
            capture_output=True,
            text=True,
            timeout=20,
        )

    return run


@pytest.fixture
def write(tmp_path: Path) -> Writer:
    """Write a file into ``tmp_path`` and return its path."""

    def put(name: str, text: str) -> Path:
        path = tmp_path / name
        path.write_text(text, encoding="utf-8")
        return path

    return put


def assert_error(result: subprocess.CompletedProcess[str], *fragments: str) -> None:
    """Exit 2, nothing on stdout, a one-line 'error: ' message holding every fragment."""
    assert result.returncode == 2, result
    assert result.stdout == ""
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1, result.stderr
    assert lines[0].startswith("error: ")
    for fragment in fragments:
        assert fragment in lines[0]


def output_of(result: subprocess.CompletedProcess[str]) -> str:
    """Exit 0 with nothing on stderr; returns stdout."""
    assert result.returncode == 0, result
    assert result.stderr == ""
    return result.stdout
