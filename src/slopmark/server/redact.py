"""What a public read shows of a run: the verdict, never the answer key.

A verifier's checks carry a ``detail`` saying why a check passed or failed,
and that detail often holds the expected value (``7 ≠ 5``, ``'5' vs
9*pi``). Public reads (``GET /api/runs/{id}``, the run page) keep what a
verdict needs to be understood without the key: ``passed``, ``score``, and
each check's kind (its ``name``) and result; every ``detail`` is dropped.
Verifiers name checks by kind (``value 1``, ``has item 2``, ``sum``), never
by an expected value, so the names are safe to show. A reader with the
server's token sees the run whole.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

__all__ = ["public_details"]


def _public_check(check: Any) -> dict[str, Any]:
    if not isinstance(check, Mapping):
        return {"name": "check", "passed": None}
    return {"name": str(check.get("name", "check")), "passed": check.get("passed")}


def public_details(details: Mapping[str, Any]) -> dict[str, Any]:
    """``details`` with each check cut to its name and result."""
    shown = dict(details)
    checks = details.get("checks")
    if isinstance(checks, list):
        shown["checks"] = [_public_check(check) for check in checks]
    elif "checks" in shown:
        del shown["checks"]
    return shown
