"""A pytest plugin the harness loads into hidden test sessions (``-p slopmark_bench_report``).

It streams one JSON line per event to the report the harness opened: the
descriptor ``$SLOPMARK_BENCH_REPORT_FD`` (a file the sandbox cannot name),
else the file ``$SLOPMARK_BENCH_REPORT``. Events, each flushed as it happens:

- ``collected``: every test pytest will run (node id, file, markers, keywords),
  written before any test runs, so the harness knows what a session cut short
  owed;
- ``collect_error``: a file that failed to collect;
- ``test``: one finished test: its keywords, outcome, duration, the failure's
  own message and the tail of its full text (traceback and captured output),
  the type of each exception of its chain (to tell a test's own timeout,
  `timeouts`) and, when the chain holds a resolver error or an unreachable
  network, that exception (to tell a test that needed the network, `network`)
  — both read from the exception objects, never from text the submission
  could print. The
  keywords are those of the test's first report (its setup phase), as
  pytest-json-report records them for SlopCodeBench: a marker a fixture adds
  (``request.node.add_marker``) counts; the collected ones stand in for a
  report that has none. The outcome is the one pytest-json-report gives
  (which SlopCodeBench reads): the status pytest's
  ``pytest_report_teststatus`` hook reports for each phase, the last one that
  is not a pass winning (``xfailed``, ``xpassed``, ``error`` for a failed
  setup or teardown);
- ``end``: pytest's exit status and the number of tests collected.

The measured submission must not reach the session, so on import the plugin
(which ``-p`` loads before any conftest) makes the process undumpable (no
process of the same user can read its memory or descriptors through
``/proc``), keeps the report descriptor from being inherited, removes the
harness's variables from the environment tests pass on, and puts a finder in
front of the import system that never imports a module from the submission's
folder (``$SLOPMARK_BENCH_WORKSPACE``, the hidden tests' own folder aside):
a workspace ``json.py`` or ``pytest.py`` shadows nothing, whatever ``sys.path``
holds. Names it kept out are listed in the ``end`` event.
It imports nothing but pytest and the standard library, so it runs in the
test environment, not slopmark's.
"""

from __future__ import annotations

import errno
import importlib.machinery
import json
import os
import socket
import sys
from collections.abc import Generator, Sequence
from pathlib import Path
from types import ModuleType
from typing import IO, Any

import pytest

#: How much of a failure's full text is kept.
DETAIL_CHARS = 4000
#: What an ``OSError`` says when no route leads out (the sandbox's network is off).
_NO_ROUTE = frozenset({errno.ENETUNREACH, errno.EHOSTUNREACH})
#: The resolver's error, taken when the plugin loads (before any conftest or submission
#: code could rebind ``socket.gaierror``).
_RESOLVER_ERROR = socket.gaierror
#: prctl(2)'s PR_SET_DUMPABLE.
_PR_SET_DUMPABLE = 4

_items: dict[str, dict[str, Any]] = {}
_records: dict[str, dict[str, Any]] = {}
_written: set[str] = set()
_config: list[pytest.Config] = []
_sink: list[IO[str]] = []
_kept_out: set[str] = set()


class SubmissionFinder:
    """Finds modules everywhere on the path but in the submission's folder."""

    def __init__(self, workspace: Path, tests: Path | None) -> None:
        self.workspace, self.tests = workspace, tests
        self._verdicts: dict[str, bool] = {}

    def _submission(self, entry: str) -> bool:
        verdict = self._verdicts.get(entry)
        if verdict is None:
            where = Path(entry or ".").resolve()
            inside = where.is_relative_to(self.workspace)
            verdict = inside and not (self.tests is not None and where.is_relative_to(self.tests))
            self._verdicts[entry] = verdict
        return verdict

    def find_spec(
        self, name: str, path: Sequence[str] | None = None, target: ModuleType | None = None
    ) -> importlib.machinery.ModuleSpec | None:
        search = list(sys.path if path is None else path)
        outside = [entry for entry in search if not self._submission(entry)]
        if len(outside) == len(search):
            return None
        spec = importlib.machinery.PathFinder.find_spec(name, outside, target)
        if spec is None and importlib.machinery.PathFinder.find_spec(name, search) is not None:
            _kept_out.add(name)
            raise ModuleNotFoundError(
                f"No module named {name!r} outside the submission's folder", name=name
            )
        if spec is not None and importlib.machinery.PathFinder.find_spec(name, search) != spec:
            _kept_out.add(name)
        return spec


def _undumpable() -> None:
    try:
        import ctypes

        ctypes.CDLL(None).prctl(_PR_SET_DUMPABLE, 0, 0, 0, 0)
    except (OSError, AttributeError):  # not Linux
        pass


def _open_sink() -> None:
    descriptor = os.environ.pop("SLOPMARK_BENCH_REPORT_FD", None)
    target = os.environ.pop("SLOPMARK_BENCH_REPORT", None)
    if descriptor:
        fd = int(descriptor)
        os.set_inheritable(fd, False)
        _sink.append(os.fdopen(fd, "w", encoding="utf-8"))
    elif target:
        _sink.append(open(target, "w", encoding="utf-8"))  # noqa: SIM115 (open all session)


def _guard_imports() -> None:
    workspace = os.environ.pop("SLOPMARK_BENCH_WORKSPACE", None)
    tests = os.environ.pop("SLOPMARK_BENCH_TESTS", None)
    if workspace:
        tests_dir = Path(tests).resolve() if tests else None
        sys.meta_path.insert(0, SubmissionFinder(Path(workspace).resolve(), tests_dir))


def _start() -> None:
    _undumpable()
    _open_sink()
    _guard_imports()


def _emit(event: str, **fields: Any) -> None:
    for sink in _sink:
        sink.write(json.dumps({"event": event, **fields}) + "\n")
        sink.flush()


def pytest_configure(config: pytest.Config) -> None:
    _config.append(config)


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    for item in items:
        _items[item.nodeid] = {
            "nodeid": item.nodeid,
            "file": item.location[0],
            "markers": sorted({mark.name for mark in item.iter_markers()}),
            "keywords": [str(keyword) for keyword in item.keywords],
        }


def pytest_collection_finish(session: pytest.Session) -> None:
    tests = [_items.get(item.nodeid, {"nodeid": item.nodeid}) for item in session.items]
    _emit("collected", count=len(tests), tests=tests)


def _message(report: pytest.TestReport | pytest.CollectReport) -> str | None:
    """The failure's own message (``AssertionError: ...``), else the report's last line."""
    if report.passed:
        return None
    crash = getattr(report.longrepr, "reprcrash", None)
    if crash is not None and getattr(crash, "message", None):
        return str(crash.message)[:500]
    text = str(report.longrepr or "").strip().splitlines()
    last = text[-1] if text else ""
    return (last[2:].strip() if last.startswith("E ") else last)[:500] or None


def _type_name(error: BaseException) -> str:
    kind = type(error)
    module = kind.__module__
    return kind.__qualname__ if module == "builtins" else f"{module}.{kind.__qualname__}"


def _chain(error: BaseException) -> list[str]:
    """The type of each exception of ``error``'s chain (``subprocess.TimeoutExpired``), the
    first cause first, as Python prints the chain."""
    names: list[str] = []
    seen: set[int] = set()
    current: BaseException | None = error
    while current is not None and id(current) not in seen:
        seen.add(id(current))
        names.append(_type_name(current))
        context = None if current.__suppress_context__ else current.__context__
        current = current.__cause__ or context
    return names[::-1]


def _causes(error: BaseException) -> list[BaseException]:
    """``error``, its causes and contexts, and the exceptions wrappers keep as their
    ``reason`` (urllib's ``URLError``, urllib3's ``MaxRetryError``)."""
    found: list[BaseException] = []
    waiting: list[BaseException] = [error]
    while waiting and len(found) < 64:
        current = waiting.pop()
        if any(current is seen for seen in found):
            continue
        found.append(current)
        linked = [current.__cause__, current.__context__, getattr(current, "reason", None)]
        waiting.extend(item for item in linked if isinstance(item, BaseException))
    return found


def _offline(error: BaseException) -> str | None:
    """The resolver error or unreachable network in ``error``'s chain, as Python prints it."""
    for cause in _causes(error):
        no_route = isinstance(cause, OSError) and cause.errno in _NO_ROUTE
        if isinstance(cause, _RESOLVER_ERROR) or no_route:
            return f"{_type_name(cause)}: {cause}"[:300]
    return None


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(call: pytest.CallInfo[None]) -> Generator[None, Any, None]:
    """Keep the exception types of a failing phase on its report, and the network error it
    met: read from the exception itself, not from text the submission could have printed."""
    outcome = yield
    if call.excinfo is not None:
        report = outcome.get_result()
        report.slopmark_exceptions = _chain(call.excinfo.value)
        report.slopmark_offline = _offline(call.excinfo.value)


def _detail(report: pytest.TestReport) -> str:
    parts = [report.longreprtext, report.capstdout, report.capstderr]
    return "\n".join(part for part in parts if part)[-DETAIL_CHARS:]


def _record(report: pytest.TestReport) -> dict[str, Any]:
    """The test's record, made at its first report (whose keywords it keeps)."""
    seen = _items.get(report.nodeid, {})
    keywords = [str(keyword) for keyword in report.keywords] or seen.get("keywords", [])
    return _records.setdefault(report.nodeid, {
        "nodeid": report.nodeid, "file": report.location[0],
        "markers": seen.get("markers", []), "keywords": keywords, "outcome": "passed",
        "duration_s": 0.0, "message": None, "detail": None, "exceptions": [], "offline": None,
    })  # fmt: skip


@pytest.hookimpl(trylast=True)
def pytest_runtest_logreport(report: pytest.TestReport) -> None:
    record = _record(report)
    record["duration_s"] += report.duration
    status = report.outcome
    for config in _config[-1:]:
        status = config.hook.pytest_report_teststatus(report=report, config=config)[0]
    if status not in ("passed", ""):
        record["outcome"] = status
        if not report.passed:
            record["message"] = _message(report)
            record["detail"] = _detail(report)
            record["exceptions"] = getattr(report, "slopmark_exceptions", [])
            record["offline"] = getattr(report, "slopmark_offline", None)


def _write_test(nodeid: str) -> None:
    if nodeid in _records and nodeid not in _written:
        _written.add(nodeid)
        _emit("test", **_records[nodeid])


def pytest_runtest_logfinish(nodeid: str) -> None:
    _write_test(nodeid)


def pytest_collectreport(report: pytest.CollectReport) -> None:
    if report.failed:
        _emit("collect_error", nodeid=report.nodeid, message=_message(report),
              detail=str(report.longrepr or "")[-DETAIL_CHARS:])  # fmt: skip


def pytest_sessionfinish(session: pytest.Session, exitstatus: int) -> None:
    for nodeid in list(_records):
        _write_test(nodeid)
    _emit("end", exitstatus=int(exitstatus), collected=int(session.testscollected),
          kept_out=sorted(_kept_out))  # fmt: skip
    for sink in _sink:
        sink.close()
    _sink.clear()


_start()
