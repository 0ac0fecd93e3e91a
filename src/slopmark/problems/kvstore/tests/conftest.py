"""Shared options and fixtures for the kvstore checkpoint tests."""

from __future__ import annotations

import shlex

import pytest


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption(
        "--entrypoint",
        required=True,
        help="full command that runs the submission, e.g. 'python /abs/main.py'",
    )
    parser.addoption("--checkpoint", required=True, help="checkpoint name, e.g. checkpoint_2")


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line("markers", "error: error-handling test (bad input, exit codes)")
    config.addinivalue_line("markers", "functionality: secondary-feature test")


@pytest.fixture(scope="session")
def entrypoint_argv(request: pytest.FixtureRequest) -> list[str]:
    """The submission's command, split into argv words."""
    return shlex.split(str(request.config.getoption("--entrypoint")))


@pytest.fixture(scope="session")
def checkpoint_name(request: pytest.FixtureRequest) -> str:
    """The checkpoint being tested, e.g. ``checkpoint_2``."""
    return str(request.config.getoption("--checkpoint"))
