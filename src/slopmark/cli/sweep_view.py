"""The live view of a sweep on stderr: units queued, running, done and failed, per node."""

from __future__ import annotations

import sys
from collections.abc import Iterator
from contextlib import contextmanager

from rich.console import Console, Group
from rich.live import Live
from rich.table import Table
from rich.text import Text

from slopmark.sweep.drive import Tally


def _clock(seconds: float | None) -> str:
    if seconds is None:
        return "–"
    minutes, rest = divmod(int(seconds), 60)
    hours, minutes = divmod(minutes, 60)
    return f"{hours}:{minutes:02d}:{rest:02d}"


def render(tally: Tally, label: str) -> Group:
    """The heading line and one row per node."""
    import time

    failed = len(tally.failed)
    done = len(tally.finished) - failed
    elapsed = time.monotonic() - tally.started_at
    heading = Text(
        f"{label} on {tally.executor}: {tally.queued} queued · {len(tally.running)} running · "
        f"{done} done · {failed} failed   elapsed {_clock(elapsed)}   ETA {_clock(tally.eta_s())}"
    )
    table = Table("node", "running", "done", "failed", box=None)
    for name, count in sorted(dict(tally.nodes).items()):
        table.add_row(name, str(count.running), str(count.done), str(count.failed))
    return Group(heading, table)


class LiveView:
    """Redraws the tally a few times a second while the sweep runs."""

    def __init__(self, label: str) -> None:
        self.label = label
        self.tally: Tally | None = None

    def update(self, tally: Tally) -> None:
        self.tally = tally

    def renderable(self) -> Group | Text:
        return Text(self.label) if self.tally is None else render(self.tally, self.label)


@contextmanager
def sweep_view(label: str) -> Iterator[LiveView | None]:
    """A live view when stderr is a terminal (None otherwise: nothing is drawn)."""
    if not sys.stderr.isatty():
        yield None
        return
    view = LiveView(label)
    console = Console(stderr=True)
    with Live(console=console, get_renderable=view.renderable, refresh_per_second=4,
              transient=True):  # fmt: skip
        yield view
