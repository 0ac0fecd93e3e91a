"""Drive a sweep on an executor: hand events to the command, count what happened.

`run_sweep` consumes an executor's events, passes each unit's messages and its
end to the command's callbacks, and keeps a `Tally` per node. Ctrl-C stops it
cleanly: the units still running are cancelled, finished ones stay stored
(units write their own results), and the tally says the sweep was cancelled.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol

from slopmark.executor import Executor, Finished, Message, Started, Unit


class SweepView(Protocol):
    """Where progress goes (a live table on a terminal; nothing in a pipe)."""

    def update(self, tally: Tally) -> None:
        """The tally changed (a unit started or ended)."""
        ...


@dataclass
class NodeCount:
    running: int = 0
    done: int = 0
    failed: int = 0


@dataclass
class Tally:
    """What a sweep did, per unit and per node."""

    executor: str
    units: int
    skipped: int = 0
    finished: dict[str, Finished] = field(default_factory=dict)
    nodes: dict[str, NodeCount] = field(default_factory=dict)
    running: dict[str, str] = field(default_factory=dict)
    retried: int = 0
    cancelled: bool = False
    started_at: float = field(default_factory=time.monotonic)
    seconds: float = 0.0

    @property
    def failed(self) -> list[Finished]:
        return [f for f in self.finished.values() if not f.ok]

    @property
    def queued(self) -> int:
        return self.units - len(self.finished) - len(self.running)

    def start(self, event: Started) -> None:
        if event.key in self.finished:
            return  # its end was seen first
        if event.attempt > 1:
            self.retried += 1
        before = self.running.get(event.key)
        if before is not None:
            self.nodes[before].running -= 1
        self.running[event.key] = event.node
        self.nodes.setdefault(event.node, NodeCount()).running += 1

    def end(self, event: Finished) -> None:
        node = self.running.pop(event.key, None)
        if node is not None:
            self.nodes[node].running -= 1
        self.finished[event.key] = event
        count = self.nodes.setdefault(event.node or node or "-", NodeCount())
        if event.ok:
            count.done += 1
        else:
            count.failed += 1

    def eta_s(self) -> float | None:
        """Seconds left at the pace so far; None before the first unit ends."""
        if not self.finished:
            return None
        pace = (time.monotonic() - self.started_at) / len(self.finished)
        return pace * (self.units - len(self.finished))

    def to_json(self) -> dict[str, Any]:
        """The summary a ``--json`` run prints (it holds timings and node names)."""
        return {
            "executor": self.executor,
            "units": self.units,
            "skipped": self.skipped,
            "done": sum(1 for f in self.finished.values() if f.ok),
            "failed": len(self.failed),
            "cancelled": self.cancelled,
            "not_finished": self.units - len(self.finished),
            "retried": self.retried,
            "seconds": round(self.seconds, 3),
            "nodes": {
                name: {"done": count.done, "failed": count.failed}
                for name, count in sorted(self.nodes.items())
            },
            "failures": [{"unit": f.key, "node": f.node, "error": f.error} for f in self.failed],
        }


def run_sweep(
    executor: Executor,
    units: Sequence[Unit],
    *,
    on_message: Callable[[Message], None] | None = None,
    on_finished: Callable[[Finished], None] | None = None,
    view: SweepView | None = None,
    skipped: int = 0,
) -> Tally:
    """Run ``units`` on ``executor`` until all finished or Ctrl-C; the tally either way."""
    tally = Tally(executor.name, len(units), skipped)
    if view is not None:
        view.update(tally)
    events = executor.run(units)
    try:
        for event in events:
            _handle(event, tally, on_message, on_finished, view)
    except KeyboardInterrupt:
        tally.cancelled = True
    finally:
        events.close()
        executor.close()
        tally.seconds = time.monotonic() - tally.started_at
    return tally


def _handle(
    event: Started | Message | Finished,
    tally: Tally,
    on_message: Callable[[Message], None] | None,
    on_finished: Callable[[Finished], None] | None,
    view: SweepView | None,
) -> None:
    if isinstance(event, Message):
        if on_message is not None:
            on_message(event)
        return
    if isinstance(event, Started):
        tally.start(event)
    else:
        tally.end(event)
        if on_finished is not None:
            on_finished(event)
    if view is not None:
        view.update(tally)
