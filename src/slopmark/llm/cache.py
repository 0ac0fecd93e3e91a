"""A response cache in SQLite, shared by concurrent tasks and by several processes.

Key: SHA-256 of the canonical JSON of (harness version, model, provider base
URL, the full request: messages, temperature, max_tokens). Value: the
`ChatResponse` as JSON; a hit returns it with ``cached=True`` and the
latencies and cost of the call that filled it (the run that paid for it).

Concurrency choice: the file is in WAL mode (readers never block the writer)
with a busy timeout, so several processes can share it. Within a process one
connection serves every task, guarded by a lock, and the async methods run
each (tiny) statement in a worker thread with `asyncio.to_thread`: a
statement can wait up to ``busy_timeout_ms`` for another process's write
lock, and that wait must not stall the event loop.
"""

from __future__ import annotations

import asyncio
import dataclasses
import hashlib
import json
import sqlite3
import threading
import time
from pathlib import Path
from types import TracebackType
from typing import Any

from slopmark.llm.base import ChatRequest, ChatResponse

_SCHEMA = """
CREATE TABLE IF NOT EXISTS chat_responses (
    key TEXT PRIMARY KEY,
    model TEXT NOT NULL,
    response TEXT NOT NULL,
    created_at REAL NOT NULL
)
"""


def cache_key(harness_version: str, base_url: str, request: ChatRequest) -> str:
    """The hex SHA-256 naming one (harness, provider, request) combination."""
    canonical = {
        "harness_version": harness_version,
        "base_url": base_url.rstrip("/"),
        "model": request.model,
        "messages": [[m.role, m.content] for m in request.messages],
        "temperature": request.temperature,
        "max_tokens": request.max_tokens,
    }
    text = json.dumps(canonical, sort_keys=True, ensure_ascii=False, separators=(",", ":"))
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


class ResponseCache:
    """Cached `ChatResponse`s in the SQLite file at ``path``, for one harness version."""

    def __init__(self, path: str | Path, harness_version: str, busy_timeout_ms: int = 10_000):
        self.path = Path(path)
        self.harness_version = harness_version
        self._lock = threading.Lock()
        self._db = sqlite3.connect(
            self.path, timeout=busy_timeout_ms / 1000, check_same_thread=False
        )
        self._db.execute(f"PRAGMA busy_timeout = {int(busy_timeout_ms)}")
        self._db.execute("PRAGMA journal_mode = WAL")
        self._db.execute("PRAGMA synchronous = NORMAL")
        with self._db:
            self._db.execute(_SCHEMA)

    def get(self, base_url: str, request: ChatRequest) -> ChatResponse | None:
        """The cached response (``cached=True``), or None."""
        key = cache_key(self.harness_version, base_url, request)
        with self._lock:
            row = self._db.execute(
                "SELECT response FROM chat_responses WHERE key = ?", (key,)
            ).fetchone()
        return None if row is None else _decode(row[0])

    def put(self, base_url: str, request: ChatRequest, response: ChatResponse) -> None:
        key = cache_key(self.harness_version, base_url, request)
        stored = json.dumps(dataclasses.asdict(dataclasses.replace(response, cached=False)))
        with self._lock, self._db:
            self._db.execute(
                "INSERT OR REPLACE INTO chat_responses (key, model, response, created_at)"
                " VALUES (?, ?, ?, ?)",
                (key, request.model, stored, time.time()),
            )

    async def lookup(self, base_url: str, request: ChatRequest) -> ChatResponse | None:
        return await asyncio.to_thread(self.get, base_url, request)

    async def store(self, base_url: str, request: ChatRequest, response: ChatResponse) -> None:
        await asyncio.to_thread(self.put, base_url, request, response)

    def __len__(self) -> int:
        with self._lock:
            return int(self._db.execute("SELECT COUNT(*) FROM chat_responses").fetchone()[0])

    def close(self) -> None:
        with self._lock:
            self._db.close()

    def __enter__(self) -> ResponseCache:
        return self

    def __exit__(
        self,
        kind: type[BaseException] | None,
        error: BaseException | None,
        trace: TracebackType | None,
    ) -> None:
        self.close()


def _decode(text: str) -> ChatResponse:
    fields: dict[str, Any] = json.loads(text)
    known = {f.name for f in dataclasses.fields(ChatResponse)}
    return ChatResponse(**{k: v for k, v in fields.items() if k in known} | {"cached": True})
