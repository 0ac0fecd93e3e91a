"""A pytest plugin the harness loads into hidden test sessions (``-p slopmark_bench_report``).

It writes one JSON record per test to the file named by
``$SLOPMARK_BENCH_REPORT``: node id, file, markers, outcome, duration and the
failure's last line. Collection errors are recorded as tests that errored.
It imports nothing but pytest and the standard library, so it runs in the
test environment, not slopmark's.
"""

from __future__ import annotations

import json
import os
from typing import Any

import pytest

_markers: dict[str, list[str]] = {}
_records: dict[str, dict[str, Any]] = {}


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    for item in items:
        _markers[item.nodeid] = sorted({mark.name for mark in item.iter_markers()})


def _message(report: pytest.TestReport | pytest.CollectReport) -> str | None:
    """The failure's own message (``AssertionError: ...``), else the report's last line."""
    if report.passed:
        return None
    crash = getattr(report.longrepr, "reprcrash", None)
    if crash is not None and getattr(crash, "message", None):
        return str(crash.message)[:500]
    text = str(report.longrepr or "").strip().splitlines()
    return text[-1][:500] if text else None


def pytest_runtest_logreport(report: pytest.TestReport) -> None:
    record = _records.setdefault(
        report.nodeid,
        {
            "nodeid": report.nodeid,
            "file": report.location[0],
            "markers": _markers.get(report.nodeid, []),
            "outcome": "passed",
            "duration_s": 0.0,
            "message": None,
        },
    )
    record["duration_s"] += report.duration
    if report.when == "call" and report.outcome != "passed":
        record["outcome"] = report.outcome
        record["message"] = _message(report)
    elif report.when != "call" and report.failed:
        record["outcome"] = "error"
        record["message"] = _message(report)
    elif report.skipped and record["outcome"] == "passed":
        record["outcome"] = "skipped"


def pytest_collectreport(report: pytest.CollectReport) -> None:
    if report.failed:
        _records[report.nodeid] = {
            "nodeid": report.nodeid,
            "file": report.nodeid.split("::", 1)[0],
            "markers": [],
            "outcome": "error",
            "duration_s": 0.0,
            "message": _message(report),
        }


def pytest_sessionfinish(session: pytest.Session, exitstatus: int) -> None:
    target = os.environ.get("SLOPMARK_BENCH_REPORT")
    if not target:
        return
    payload = {"exitstatus": int(exitstatus), "tests": list(_records.values())}
    with open(target, "w", encoding="utf-8") as handle:
        json.dump(payload, handle)
