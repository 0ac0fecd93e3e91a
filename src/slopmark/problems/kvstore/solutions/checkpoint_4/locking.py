"""The store's lock: an exclusive flock(2) on ``PATH.lock``, with a timeout."""

from __future__ import annotations

import fcntl
import os
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from errors import StoreFileError, StoreLocked

POLL_INTERVAL = 0.01


def lock_path_for(db: Path) -> Path:
    """The lock file guarding the store at ``db``."""
    return db.with_name(db.name + ".lock")


@contextmanager
def store_lock(db: Path, timeout: float) -> Iterator[None]:
    """Hold the exclusive lock on ``db`` for the duration of the block.

    The lock file is created if missing and never deleted; closing the
    descriptor (or the process dying) releases the lock.
    """
    lock_path = lock_path_for(db)
    try:
        descriptor = os.open(lock_path, os.O_RDWR | os.O_CREAT, 0o644)
    except OSError as exc:
        raise StoreFileError(f"cannot open lock file {lock_path}: {exc}") from exc
    try:
        _acquire(descriptor, db, timeout)
        yield
    finally:
        os.close(descriptor)


def _acquire(descriptor: int, db: Path, timeout: float) -> None:
    deadline = time.monotonic() + timeout
    while True:
        try:
            fcntl.flock(descriptor, fcntl.LOCK_EX | fcntl.LOCK_NB)
            return
        except BlockingIOError:
            if time.monotonic() >= deadline:
                raise StoreLocked(f"store {db} is locked") from None
            time.sleep(POLL_INTERVAL)
