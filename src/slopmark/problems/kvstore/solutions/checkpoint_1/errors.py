"""The error hierarchy of kvstore; each error carries the exit code it maps to."""

from __future__ import annotations


class KvError(Exception):
    """A failure reported to the user as one ``error:`` line and an exit code."""

    exit_code = 1


class KeyNotFound(KvError):
    """The key is not in the store."""

    exit_code = 1

    def __init__(self, key: str) -> None:
        super().__init__(f"key not found: {key}")


class UsageError(KvError):
    """The command line (or a script line) is malformed."""

    exit_code = 2


class StoreFileError(KvError):
    """The store file is corrupt, unreadable or unwritable."""

    exit_code = 3
