"""Special files for the reader tests: FIFOs, character devices, sockets, and a watchdog.

A reader that opens a FIFO waits for a writer; one that reads a character device such as
``/dev/zero`` never ends. `finishes` runs a reader in a thread and, when it has not
returned within the time given, opens each FIFO for writing (so a reader blocked on one
returns) before it fails the test: a reader that hangs fails instead of hanging the run.
"""

from __future__ import annotations

import contextlib
import os
import socket
import stat
import threading
from collections.abc import Callable
from pathlib import Path
from typing import TypeVar

import pytest

T = TypeVar("T")


def fifo(path: Path) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    os.mkfifo(path)
    return path


def char_device(path: Path, like: str = "/dev/null") -> Path:
    """A character device node with the numbers of ``like`` (skips without the right)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    try:
        os.mknod(path, stat.S_IFCHR | 0o600, os.stat(like).st_rdev)
    except (PermissionError, OSError) as error:
        pytest.skip(f"cannot make a character device node here: {error}")
    return path


def socket_file(path: Path) -> Path:
    """A Unix socket's file (bound, then closed: the file stays)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    with socket.socket(socket.AF_UNIX) as listener:
        listener.bind(str(path))
    return path


def finishes(read: Callable[[], T], fifos: list[Path], seconds: float = 20) -> T:
    """What ``read()`` returns or raises; the test fails if it takes over ``seconds``."""
    values: list[T] = []
    errors: list[BaseException] = []

    def run() -> None:
        try:
            values.append(read())
        except BaseException as error:  # handed to the test thread below
            errors.append(error)

    worker = threading.Thread(target=run, daemon=True)
    worker.start()
    worker.join(seconds)
    if worker.is_alive():
        for path in fifos:
            _release(path)
        worker.join(seconds)
        pytest.fail(f"the reader did not finish within {seconds} s (blocked on a FIFO?)")
    if errors:
        raise errors[0]
    return values[0]


def _release(path: Path) -> None:
    """Open a FIFO for writing and close it: a reader blocked on it sees the end."""
    with contextlib.suppress(OSError):  # no reader waits on it (any more)
        os.close(os.open(path, os.O_WRONLY | os.O_NONBLOCK))
