"""Shared fixtures: small trees on disk."""

from __future__ import annotations

import os
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

#: What pytest-xdist's workers find in their environment without the user having set it.
WORKER_TERMINAL = ("COLUMNS", "LINES")


@pytest.fixture(autouse=True, scope="session")
def _private_result_cache(tmp_path_factory: pytest.TempPathFactory) -> None:
    """The code commands' content cache of this test session (never the user's own);
    subprocesses inherit it."""
    os.environ["SLOPMARK_CACHE"] = str(tmp_path_factory.mktemp("slopmark-cache"))


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


def pytest_configure(config: pytest.Config) -> None:
    # A worker of pytest-xdist starts with COLUMNS=80 and LINES=24 set; the CLI the tests
    # run takes $COLUMNS for a terminal's width. Give the worker the controller's values.
    given = getattr(config, "workerinput", {}).get("terminal", {})
    for name in WORKER_TERMINAL if hasattr(config, "workerinput") else ():
        if given.get(name) is None:
            os.environ.pop(name, None)
        else:
            os.environ[name] = given[name]


@pytest.hookimpl(optionalhook=True)
def pytest_configure_node(node: Any) -> None:
    """(pytest-xdist, on the controller) hand each worker this process's terminal size."""
    node.workerinput["terminal"] = {name: os.environ.get(name) for name in WORKER_TERMINAL}
