"""What every executor keeps about a sweep: units waiting, attempts made, units running.

Shared by the executors so that retries, attempt counts and failure texts
mean the same everywhere.
"""

from __future__ import annotations

import time
from collections import deque
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from slopmark.executor import MAX_ATTEMPTS, Finished, Task, Unit


@dataclass(frozen=True)
class Failed:
    """What a unit's own code raised, as one line (made in the worker)."""

    error: str


@dataclass
class Running:
    """One start of one unit."""

    unit: Unit
    attempt: int
    started: float = field(default_factory=time.monotonic)
    node: str = ""


class Roster:
    """Units waiting to start, and how often each was started."""

    def __init__(self, units: Sequence[Unit]) -> None:
        keys = [unit.key for unit in units]
        if len(set(keys)) != len(keys):
            twice = sorted({k for k in keys if keys.count(k) > 1})
            raise ValueError(f"units must have distinct keys; repeated: {', '.join(twice)}")
        self.waiting: deque[Unit] = deque(units)
        self.attempts: dict[str, int] = {}
        self.first_start: dict[str, float] = {}

    def next(self) -> tuple[Unit, Task, Running]:
        """The next unit to start, its freshly prepared task, and its running record."""
        unit = self.waiting.popleft()
        attempt = self.attempts.get(unit.key, 0) + 1
        self.attempts[unit.key] = attempt
        self.first_start.setdefault(unit.key, time.monotonic())
        return unit, unit.prepare(), Running(unit, attempt)

    def lost(self, running: Running, why: str) -> Finished | None:
        """The worker or node of ``running`` died: start it again (None), or give up."""
        if running.attempt < MAX_ATTEMPTS:
            self.waiting.appendleft(running.unit)
            return None
        return self.finished(running, Failed(f"{why} ({running.attempt} attempts)"))

    def finished(self, running: Running, value: Any) -> Finished:
        key = running.unit.key
        seconds = time.monotonic() - self.first_start.get(key, running.started)
        failed = isinstance(value, Failed)
        return Finished(
            key,
            not failed,
            value=None if failed else value,
            error=value.error if failed else None,
            node=running.node,
            attempts=running.attempt,
            seconds=seconds,
        )
