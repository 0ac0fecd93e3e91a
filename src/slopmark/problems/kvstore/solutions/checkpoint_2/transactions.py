"""The in-memory store with nested transactions."""

from __future__ import annotations

from errors import TransactionError
from values import Value


class Store:
    """Entries plus a stack of saved copies, one per open transaction.

    Values are immutable, so a shallow copy of the entry dict is a full snapshot.
    """

    def __init__(self, entries: dict[str, Value]) -> None:
        self.entries = entries
        self._snapshots: list[dict[str, Value]] = []

    @property
    def depth(self) -> int:
        """How many transactions are open."""
        return len(self._snapshots)

    def begin(self) -> None:
        """Open a (nested) transaction."""
        self._snapshots.append(dict(self.entries))

    def commit(self) -> None:
        """Close the innermost transaction, keeping its changes."""
        self._require_open("COMMIT")
        self._snapshots.pop()

    def rollback(self) -> None:
        """Close the innermost transaction, undoing its changes."""
        self._require_open("ROLLBACK")
        self.entries = self._snapshots.pop()

    def rollback_all(self) -> None:
        """Undo every open transaction."""
        if self._snapshots:
            self.entries = self._snapshots[0]
            self._snapshots.clear()

    def _require_open(self, keyword: str) -> None:
        if not self._snapshots:
            raise TransactionError(f"{keyword} without an open transaction")
