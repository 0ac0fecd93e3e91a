"""A pytest plugin the harness loads into hidden test sessions (``-p slopmark_bench_report``).

It writes one JSON record per test to the file named by
``$SLOPMARK_BENCH_REPORT``: node id, file, markers, keywords, outcome,
duration, the failure's own message and the tail of its full text (traceback
and captured output, read by the harness to tell a network failure). The
outcome is the one pytest-json-report gives (which SlopCodeBench reads): the
status pytest's ``pytest_report_teststatus`` hook reports for each phase, the
last one that is not a pass winning (``xfailed``, ``xpassed``, ``error`` for a
failed setup or teardown). Files that fail to collect are listed apart, with
the number of tests collected and pytest's exit status.
It imports nothing but pytest and the standard library, so it runs in the
test environment, not slopmark's.
"""

from __future__ import annotations

import json
import os
from typing import Any

import pytest

#: How much of a failure's full text is kept.
DETAIL_CHARS = 4000

_items: dict[str, dict[str, list[str]]] = {}
_records: dict[str, dict[str, Any]] = {}
_collect_errors: list[dict[str, Any]] = []
_config: list[pytest.Config] = []


def pytest_configure(config: pytest.Config) -> None:
    _config.append(config)


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    for item in items:
        _items[item.nodeid] = {
            "markers": sorted({mark.name for mark in item.iter_markers()}),
            "keywords": [str(keyword) for keyword in item.keywords],
        }


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


def _detail(report: pytest.TestReport) -> str:
    parts = [report.longreprtext, report.capstdout, report.capstderr]
    return "\n".join(part for part in parts if part)[-DETAIL_CHARS:]


def _record(nodeid: str, location: str) -> dict[str, Any]:
    seen = _items.get(nodeid, {})
    return _records.setdefault(nodeid, {
        "nodeid": nodeid, "file": location, "markers": seen.get("markers", []),
        "keywords": seen.get("keywords", []), "outcome": "passed", "duration_s": 0.0,
        "message": None, "detail": None,
    })  # fmt: skip


@pytest.hookimpl(trylast=True)
def pytest_runtest_logreport(report: pytest.TestReport) -> None:
    record = _record(report.nodeid, report.location[0])
    record["duration_s"] += report.duration
    status = report.outcome
    for config in _config[-1:]:
        status = config.hook.pytest_report_teststatus(report=report, config=config)[0]
    if status not in ("passed", ""):
        record["outcome"] = status
        if not report.passed:
            record["message"] = _message(report)
            record["detail"] = _detail(report)


def pytest_collectreport(report: pytest.CollectReport) -> None:
    if report.failed:
        _collect_errors.append({"nodeid": report.nodeid, "message": _message(report),
                                "detail": str(report.longrepr or "")[-DETAIL_CHARS:]})  # fmt: skip


def pytest_sessionfinish(session: pytest.Session, exitstatus: int) -> None:
    target = os.environ.get("SLOPMARK_BENCH_REPORT")
    if not target:
        return
    payload = {
        "exitstatus": int(exitstatus),
        "collected": int(session.testscollected),
        "collect_errors": _collect_errors,
        "tests": list(_records.values()),
    }
    with open(target, "w", encoding="utf-8") as handle:
        json.dump(payload, handle)
