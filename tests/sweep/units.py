"""Module-level unit functions for the executor tests (workers import them by name)."""

from __future__ import annotations

import os
from pathlib import Path

from slopmark.errors import BadInput
from slopmark.executor import outbox


def square(value: int) -> int:
    outbox().send(("seen", value))
    return value * value


def refuse(value: int) -> int:
    raise BadInput(f"value {value} is refused")


def crash(value: int) -> int:
    return [value][value]  # IndexError: a bug in a unit


def die_once(marker: str) -> str:
    """Kill this worker process the first time (a marker file remembers), then succeed."""
    path = Path(marker)
    if not path.exists():
        path.write_text("died")
        os._exit(1)
    return "second life"


def die_always(value: int) -> int:
    os._exit(value)
