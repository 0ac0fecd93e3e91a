"""The options every hidden test session gets from the harness, and whether this
session is the harness's rerun (started on node ids rather than on the folder)."""

from __future__ import annotations

import shlex

import pytest


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption("--entrypoint", action="store", required=True)
    parser.addoption("--checkpoint", action="store", required=True)


@pytest.fixture(scope="session")
def entrypoint_argv(request: pytest.FixtureRequest) -> list[str]:
    return shlex.split(request.config.getoption("--entrypoint"))


@pytest.fixture(scope="session")
def rerun(request: pytest.FixtureRequest) -> bool:
    return any("::" in str(arg) for arg in request.config.args)
