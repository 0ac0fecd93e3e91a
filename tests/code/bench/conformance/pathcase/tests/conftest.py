"""The options every hidden test session gets from the harness."""

from __future__ import annotations

import shlex
from pathlib import Path

import pytest


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption("--entrypoint", action="store", required=True)
    parser.addoption("--checkpoint", action="store", required=True)


@pytest.fixture(scope="session")
def entrypoint_argv(request: pytest.FixtureRequest) -> list[str]:
    return shlex.split(request.config.getoption("--entrypoint"))


CASES = Path(__file__).parent / "cases"


def checkpoint_of(case: Path) -> str:
    """The checkpoint a case belongs to: the first part of its path named checkpoint_*."""
    return next(part for part in case.resolve().parts if part.startswith("checkpoint_"))


def cases(checkpoint: str) -> list[Path]:
    return sorted((CASES / checkpoint).iterdir())
