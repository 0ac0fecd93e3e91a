"""The in-memory store: entries with optional expiry, a logical clock, transactions."""

from __future__ import annotations

from dataclasses import dataclass

from errors import TransactionError, UsageError
from values import Value


@dataclass(frozen=True)
class Entry:
    """A stored value and the clock time at which it expires (None: never)."""

    value: Value
    expires_at: int | None = None


class Store:
    """Entries, the logical clock, and a stack of saved entry dicts for transactions.

    Entries are immutable, so a shallow copy of the dict is a full snapshot.
    Expired entries stay in ``entries`` but are invisible through every accessor.
    """

    def __init__(self, entries: dict[str, Entry], clock: int = 0) -> None:
        self.entries = entries
        self.clock = clock
        self._snapshots: list[dict[str, Entry]] = []

    def get(self, key: str) -> Entry | None:
        """The live entry at ``key``, or None if it is missing or expired."""
        entry = self.entries.get(key)
        return entry if entry is not None and self._is_live(entry) else None

    def put(self, key: str, entry: Entry) -> None:
        """Store ``entry`` at ``key``."""
        self.entries[key] = entry

    def remove(self, key: str) -> None:
        """Remove ``key`` (live or expired) if present."""
        self.entries.pop(key, None)

    def live_keys(self) -> list[str]:
        """Every key that has not expired, sorted."""
        return sorted(key for key, entry in self.entries.items() if self._is_live(entry))

    def live_entries(self) -> dict[str, Entry]:
        """The entries that have not expired."""
        return {key: entry for key, entry in self.entries.items() if self._is_live(entry)}

    def state(self) -> tuple[int, dict[str, Entry]]:
        """A copy of everything that is saved, to detect changes."""
        return self.clock, self.live_entries()

    def advance_to(self, time: int) -> None:
        """Move the clock forward to ``time``; moving it back is a usage error."""
        if time < self.clock:
            raise UsageError(f"--now {time} is before the store clock {self.clock}")
        self.clock = time

    def advance_by(self, seconds: int) -> None:
        """Move the clock forward; not allowed while a transaction is open."""
        if self._snapshots:
            raise TransactionError("tick is not allowed inside a transaction")
        self.clock += seconds

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

    def _is_live(self, entry: Entry) -> bool:
        return entry.expires_at is None or entry.expires_at > self.clock

    def _require_open(self, keyword: str) -> None:
        if not self._snapshots:
            raise TransactionError(f"{keyword} without an open transaction")
