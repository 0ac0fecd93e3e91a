"""Shared fixtures (small trees on disk) and the rules of the fast loop.

`make test` runs every test; `make test-fast` leaves out those marked ``slow``: a test
that starts a program (the CLI in a subprocess, a sandbox, a browser, a Ray node,
pdflatex...), that needs PostgreSQL, or that takes more than a few seconds. Mark one
with ``@pytest.mark.slow``, or a whole module with ``pytestmark = pytest.mark.slow``.
`StartedPrograms` below holds that rule: an unmarked test that starts a program (but
those in `QUICK_PROGRAMS`), itself or through a fixture, fails, naming what it started,
so a new test cannot slow the fast loop unseen; and the end of a run lists the unmarked
tests that took longer than `LONG_S`.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Callable, Generator
from pathlib import Path
from typing import Any

import pytest

#: Programs an unmarked test may start: git answers in milliseconds, the math
#: verifier's sympy worker starts once per process and is kept, and the standard
#: library's ``platform.processor()`` asks ``uname -p`` once per process (whichever
#: test comes first in a worker would otherwise be blamed).
QUICK_PROGRAMS = frozenset({"git", "python -m slopmark.evals.symbolic", "uname"})
#: Seconds past which an unmarked test is listed at the end of the run.
LONG_S = 5.0
#: The audit events of starting a program (not of forking this process).
PROGRAM_EVENTS = frozenset({"subprocess.Popen", "os.posix_spawn", "os.exec", "os.system"})
#: What pytest-xdist's workers find in their environment without the user having set it.
WORKER_TERMINAL = ("COLUMNS", "LINES")


@pytest.fixture(autouse=True, scope="session")
def _private_result_cache(tmp_path_factory: pytest.TempPathFactory) -> None:
    """The code commands' content cache of this test session (never the user's own);
    subprocesses inherit it."""
    os.environ["SLOPMARK_CACHE"] = str(tmp_path_factory.mktemp("slopmark-cache"))


@pytest.fixture(autouse=True, scope="session")
def _private_user_data(tmp_path_factory: pytest.TempPathFactory) -> None:
    """The user data folder of this test session, where the default store lives (never
    the user's own); subprocesses inherit it."""
    os.environ["XDG_DATA_HOME"] = str(tmp_path_factory.mktemp("user-data"))


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


# --- the fast loop --------------------------------------------------------------------


class StartedPrograms:
    """The programs started while a test runs, seen through an audit hook (`sys.audit`
    reports every `subprocess.Popen`, `os.posix_spawn`, `os.exec*` and `os.system`), and
    those each fixture started when it was set up (a module's server, a red-team run):
    they count for every test that uses the fixture, whichever test set it up."""

    def __init__(self) -> None:
        self.started: list[str] = []
        self.running = False
        self.by_fixture: dict[object, set[str]] = {}
        sys.addaudithook(self._audit)

    def _audit(self, event: str, args: tuple[Any, ...]) -> None:
        if self.running and event in PROGRAM_EVENTS:
            name = program_name(event, args)
            if name not in QUICK_PROGRAMS:
                self.started.append(name)

    def of(self, item: pytest.Item) -> set[str]:
        """What ``item`` started, itself or through its fixtures."""
        found = set(self.started)
        for definitions in item._fixtureinfo.name2fixturedefs.values():
            for definition in definitions:
                found |= self.by_fixture.get(definition, set())
        return found


def program_name(event: str, args: tuple[Any, ...]) -> str:
    """The base name of the program an audited event starts (``python -m MODULE`` for a
    Python module run as a program)."""
    if event == "os.system":
        argv = os.fsdecode(args[0]).split()
    elif event == "subprocess.Popen":
        argv = [os.fsdecode(a) for a in args[1]] if isinstance(args[1], list | tuple) else [""]
        argv[0] = os.fsdecode(args[0] or argv[0])
    else:
        argv = [os.fsdecode(args[0]), *map(str, list(args[1])[1:3])]
    name = os.path.basename(argv[0])
    if name.startswith("python") and argv[1:2] == ["-m"] and len(argv) > 2:
        return f"python -m {argv[2]}"
    return name


def pytest_configure(config: pytest.Config) -> None:
    config.stash[_STARTED] = StartedPrograms()
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


@pytest.hookimpl(wrapper=True)
def pytest_runtest_protocol(
    item: pytest.Item, nextitem: pytest.Item | None
) -> Generator[None, object, object]:
    started = item.config.stash[_STARTED]
    started.started, started.running = [], True
    try:
        return (yield)
    finally:
        started.running = False


@pytest.hookimpl(wrapper=True)
def pytest_fixture_setup(
    fixturedef: pytest.FixtureDef[Any], request: pytest.FixtureRequest
) -> Generator[None, object, object]:
    started = request.config.stash[_STARTED]
    before = len(started.started)
    try:
        return (yield)
    finally:
        if found := set(started.started[before:]):
            started.by_fixture[fixturedef] = found


@pytest.hookimpl(wrapper=True)
def pytest_runtest_makereport(
    item: pytest.Item, call: pytest.CallInfo[None]
) -> Generator[None, pytest.TestReport, pytest.TestReport]:
    """An unmarked test that started a program (or uses a fixture that did) fails."""
    report = yield
    if report.when != "call" or not report.passed or item.get_closest_marker("slow"):
        return report
    if started := item.config.stash[_STARTED].of(item):
        report.outcome = "failed"
        report.longrepr = (
            f"{item.nodeid} started {sorted(started)} (itself or through a fixture) and is "
            "not marked slow: mark it @pytest.mark.slow (or its module: pytestmark = "
            "pytest.mark.slow) so that `make test-fast` leaves it out (tests/conftest.py)"
        )
    return report


def pytest_runtest_logreport(report: pytest.TestReport) -> None:
    if report.when == "call" and report.duration > LONG_S and "slow" not in report.keywords:
        _long_tests.append((report.nodeid, report.duration))


def pytest_terminal_summary(terminalreporter: Any) -> None:
    if _long_tests:
        terminalreporter.section(f"not marked slow, yet longer than {LONG_S:g} s")
        for nodeid, seconds in sorted(_long_tests, key=lambda found: -found[1]):
            terminalreporter.write_line(f"{seconds:6.1f} s  {nodeid}")


_STARTED = pytest.StashKey[StartedPrograms]()
#: (test, seconds) of the unmarked tests longer than LONG_S, for the summary
_long_tests: list[tuple[str, float]] = []
