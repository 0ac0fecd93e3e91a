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


class WrongType(KvError):
    """The value stored at a key has a type the command cannot work on."""

    exit_code = 4


class TransactionError(KvError):
    """BEGIN/COMMIT/ROLLBACK used out of order, or a script left a transaction open."""

    exit_code = 5


class ScriptLineError(KvError):
    """An error raised by one line of a batch script, tagged with its line number."""

    def __init__(self, line_number: int, cause: KvError) -> None:
        super().__init__(f"line {line_number}: {cause}")
        self.exit_code = cause.exit_code


class StoreLocked(KvError):
    """Another process held the store's lock for longer than the lock timeout."""

    exit_code = 6
