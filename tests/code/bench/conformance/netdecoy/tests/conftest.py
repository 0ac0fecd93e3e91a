"""The options every hidden test session gets from the harness."""

from __future__ import annotations

import shlex

import pytest


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption("--entrypoint", action="store", required=True)
    parser.addoption("--checkpoint", action="store", required=True)


@pytest.fixture(scope="session")
def entrypoint_argv(request: pytest.FixtureRequest) -> list[str]:
    return shlex.split(request.config.getoption("--entrypoint"))
