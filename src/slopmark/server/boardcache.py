"""The computed boards of the last few filters, kept until the store changes.

A leaderboard of one domain reads and counts ~125,000 runs on a store of a million
(about 0.7 s). The server keeps each filter's boards (`slopmark.server.reads.boards`)
with the store's fingerprint read before they were computed
(`slopmark.store.changes`), and answers from them while the fingerprint is the same:
a run stored by the API, the CLI or any other process changes it, and the next
request computes the boards anew (that one is as slow as before). At most ``size``
filters are kept, the least recently used going first. Other views computed from the
store alone (the /bench tables' sums, `kept`) are kept the same way.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Callable, Hashable
from dataclasses import dataclass
from typing import Any, TypeVar

from sqlalchemy import Engine

from slopmark.board.leaderboard import Board
from slopmark.board.query import RunFilter
from slopmark.server import reads
from slopmark.store.changes import change_probe

#: filters kept, a few dozen: each holds only aggregates (every domain × source or
#: any × task set is 8 × 4 × 2 = 64 views; the ones people open are far fewer)
CACHE_SIZE = 48

Key = Hashable
T = TypeVar("T")


@dataclass(frozen=True)
class _Kept:
    fingerprint: Hashable
    value: Any


class BoardCache:
    """`reads.boards` of the last ``size`` filters, each kept while the store is unchanged."""

    def __init__(self, engine: Engine, size: int = CACHE_SIZE) -> None:
        self.engine, self.size = engine, size
        self._probe = change_probe(engine)
        self._kept: OrderedDict[Key, _Kept] = OrderedDict()
        self._lock = threading.Lock()

    def boards(self, where: RunFilter, tasks: str = "common") -> tuple[Board, ...]:
        """The boards of the runs ``where`` selects, computed when the store changed since."""
        key = ("boards", where, reads.check_tasks(tasks))
        return self.kept(key, lambda: tuple(reads.boards(self.engine, where, tasks)))

    def kept(self, key: Key, compute: Callable[[], T]) -> T:
        """``compute()``'s value for ``key``, computed again only when the store changed
        since (the fingerprint is read first: a commit meanwhile costs one more computation,
        never a stale value). ``compute`` must read nothing but the store."""
        fingerprint = self._probe.fingerprint()
        with self._lock:
            kept = self._kept.get(key)
            if kept is not None and fingerprint is not None and kept.fingerprint == fingerprint:
                self._kept.move_to_end(key)
                return kept.value  # type: ignore[no-any-return]
        computed = compute()
        if fingerprint is not None:
            self._keep(key, _Kept(fingerprint, computed))
        return computed

    def _keep(self, key: Key, kept: _Kept) -> None:
        with self._lock:
            self._kept[key] = kept
            self._kept.move_to_end(key)
            while len(self._kept) > self.size:
                self._kept.popitem(last=False)

    def __len__(self) -> int:
        return len(self._kept)

    def close(self) -> None:
        self._probe.close()
