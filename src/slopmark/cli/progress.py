"""Progress on stderr for work that takes more than a moment.

At a terminal it is a bar redrawn in place. Elsewhere (CI logs, a pipe) a
command that asks for ``lines=True`` prints a plain line each time another
tenth of the work is done, so a long run shows it is alive without flooding
the log; other commands stay silent there.
"""

from __future__ import annotations

import sys
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager

Advance = Callable[[int, int], None]
#: Lines printed off a terminal: one per this many of the work.
STEPS = 10


@contextmanager
def progress_bar(label: str, lines: bool = False) -> Iterator[Advance]:
    """Yield ``advance(done, total)``: a bar at a terminal, else (``lines``) a line per tenth."""
    if not sys.stderr.isatty():
        yield _line_printer(label) if lines else _ignore
        return
    from rich.console import Console
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

    with Progress(
        TextColumn(label),
        BarColumn(),
        MofNCompleteColumn(),
        TimeElapsedColumn(),
        console=Console(stderr=True),
        transient=True,
    ) as bar:
        task = bar.add_task(label, total=None)

        def advance(done: int, total: int) -> None:
            bar.update(task, completed=done, total=total)

        yield advance


def _ignore(done: int, total: int) -> None:
    """No progress shown."""


def _line_printer(label: str) -> Advance:
    started = time.monotonic()
    shown = -1

    def advance(done: int, total: int) -> None:
        nonlocal shown
        step = done * STEPS // total if total else STEPS
        if step > shown:
            shown = step
            elapsed = time.monotonic() - started
            print(f"{label}: {done}/{total} done ({elapsed:.0f} s)", file=sys.stderr, flush=True)

    return advance
