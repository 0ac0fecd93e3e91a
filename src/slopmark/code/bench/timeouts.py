"""Which failures are a test's own timeout (the mark of a load-sensitive test, `rerun`).

Counted: a failed or errored test whose exception chain holds a
``subprocess.TimeoutExpired``, raised by the test's own call
(``subprocess.run(..., timeout=10)``) or caught and turned into another
failure. The report plugin takes the chain's types from the exception objects,
not from the printed traceback or the captured output, which the submission
could write. Not counted: pytest-timeout's per-test limit (``Failed: Timeout
>Ns``, the problem's ``timeout``) and the session's limit, which the evaluator
sets from outside and a hung submission reaches on every run.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from slopmark.code.bench.grouping import status_of

#: The exception a test's own timeout raises (``subprocess.run``, ``Popen.wait``/``communicate``).
TIMEOUT_TYPES = frozenset({"subprocess.TimeoutExpired"})


def _exception_type(message: str | None) -> str:
    """The exception type a failure's message starts with (``subprocess.TimeoutExpired: ...``)."""
    return (message or "").split(":", 1)[0].strip()


def timed_out(record: Mapping[str, Any]) -> bool:
    """Whether a test record of the report failed on the test's own timeout.

    The record's ``exceptions`` (the chain's types) decide; a record without them
    (a report from before they were written) is judged by its message.
    """
    if status_of(str(record.get("outcome"))) in ("passed", "skipped"):
        return False
    names = record.get("exceptions") or [_exception_type(record.get("message"))]
    return any(str(name) in TIMEOUT_TYPES for name in names)
