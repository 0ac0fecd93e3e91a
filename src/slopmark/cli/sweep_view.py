"""The live view of a sweep on stderr: units queued, running, done and failed, per node;
off a terminal, one line per finished unit when the command says how to word it."""

from __future__ import annotations

import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager

from rich.console import Console, Group
from rich.live import Live
from rich.table import Table
from rich.text import Text

from slopmark.executor import Finished
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


class LineView:
    """Off a terminal: ``[k/N] <line>`` on stderr as each unit finishes, k and N counting
    the units stored by earlier runs too (a log reads like the study's progress)."""

    def __init__(self, line: Callable[[Finished], str]) -> None:
        self.line = line
        self.shown: set[str] = set()

    def update(self, tally: Tally) -> None:
        total = tally.skipped + tally.units
        for key, finished in tally.finished.items():
            if key not in self.shown:
                self.shown.add(key)
                done = tally.skipped + len(self.shown)
                print(f"[{done}/{total}] {self.line(finished)}", file=sys.stderr, flush=True)


@contextmanager
def sweep_view(
    label: str, line: Callable[[Finished], str] | None = None
) -> Iterator[LiveView | LineView | None]:
    """A live view when stderr is a terminal; otherwise a `LineView` when ``line`` words a
    finished unit, else None (nothing is drawn)."""
    if not sys.stderr.isatty():
        yield None if line is None else LineView(line)
        return
    view = LiveView(label)
    console = Console(stderr=True)
    with Live(console=console, get_renderable=view.renderable, refresh_per_second=4,
              transient=True):  # fmt: skip
        yield view
