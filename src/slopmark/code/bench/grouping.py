"""How one hidden test's record becomes a group and an outcome: SlopCodeBench's rules (pure).

Each rule mirrors SCB's evaluator (``SprocketLab/slop-code-bench``); the
function and file it follows are named beside it, and ``docs/bench-evaluation.md``
tabulates them. Where SCB's documentation (``docs/problems/pytest/markers.md``,
"Marker Priority": ``error`` always wins) and its code disagree, the code is
followed, because the code produced the published numbers.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from typing import Any

#: The markers every session registers (SCB: ``PytestRunner.BUILTIN_MARKERS``).
BUILTIN_MARKERS = {
    "error": "error-handling / edge-case tests",
    "functionality": "non-core / nice-to-have tests",
    "regression": "regression tests from prior checkpoints",
}

#: SCB ``PytestRunner._infer_checkpoint_from_file``: ``test_<checkpoint>.py`` anywhere in the path.
_CHECKPOINT_FILE = re.compile(r"test_([^/]+)\.py")

#: SCB ``PytestRunner._convert_pytest_report_test_to_result``: pytest-json-report's
#: outcome → the status SCB stores; anything else is "error".
_STATUS = {
    "passed": "passed",
    "failed": "failed",
    "skipped": "skipped",
    "error": "error",
    "xfailed": "skipped",
    "xpassed": "passed",
}


def checkpoint_of_file(file: str, current: str) -> str:
    """The checkpoint a test file belongs to: the ``X`` of the first ``test_X.py`` in its path.

    Mirrors ``PytestRunner._infer_checkpoint_from_file``: a path without that
    pattern counts as the current checkpoint's.
    """
    match = _CHECKPOINT_FILE.search(file)
    return match.group(1) if match else current


def markers_of(keywords: Iterable[str], custom: Mapping[str, str]) -> list[str]:
    """The known markers among a test's keywords (built-in and the problem's custom ones).

    Mirrors ``PytestRunner._convert_pytest_report_test_to_result``, which reads
    pytest-json-report's ``keywords`` (every keyword of the item: its markers,
    but also its name, its parents' names and a parametrize id) and keeps the
    ones that name a known marker, in their order.
    """
    known = set(BUILTIN_MARKERS) | set(custom)
    return [keyword for keyword in keywords if keyword in known]


def group_of(checkpoint: str, markers: list[str], current: str, custom: Mapping[str, str]) -> str:
    """The group of a test of ``checkpoint`` with ``markers``, run at checkpoint ``current``.

    Mirrors ``PytestRunner._determine_group_type``, in its order:
    1. a test from another checkpoint's file is regression, whatever its markers;
    2. ``error`` → error; 3. ``regression`` → regression;
    4. the first custom marker (config ``markers:``) → its group;
    5. ``functionality`` → functionality; else core.
    """
    if checkpoint != current:
        return "regression"
    if "error" in markers:
        return "error"
    if "regression" in markers:
        return "regression"
    for marker in markers:
        if marker in custom:
            return custom[marker].lower()
    return "functionality" if "functionality" in markers else "core"


def status_of(outcome: str) -> str:
    """SCB's stored status of a pytest outcome: xfailed counts as skipped, xpassed as passed."""
    return _STATUS.get(outcome, "error")


def record_group(record: Mapping[str, Any], current: str, custom: Mapping[str, str]) -> str:
    """The group of one record of the report plugin.

    The file is the node id's part before ``::`` (as SCB reads it), not where
    the test function was defined.
    """
    file = str(record.get("nodeid", "")).split("::", 1)[0] or str(record.get("file", ""))
    keywords = record.get("keywords", record.get("markers", []))
    markers = markers_of([str(k) for k in keywords], custom)
    return group_of(checkpoint_of_file(file, current), markers, current, custom)
