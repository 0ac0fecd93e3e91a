"""The one model-call cache: answers as JSON by key in SQLite, shared by threads and processes.

`CallCache` is the store: a key (the hex SHA-256 of a call's canonical JSON,
`call_key`) maps to the answer as JSON. `ResponseCache` keeps the eval
providers' `ChatResponse`s in one, keyed by (harness version, model, provider
base URL, the full request: messages, temperature, max_tokens); a hit returns
the response with ``cached=True`` and the latencies and cost of the call that
filled it (the run that paid for it). `slopmark.llm.client.ModelClient` keeps
the paper models' answers (chat, image input, prompt log-probabilities) in one.

Concurrency choice: the file is in WAL mode (readers never block the writer)
with a busy timeout, so several processes can share it. Within a process one
connection serves every thread, guarded by a lock, and `ResponseCache`'s async
methods run each (tiny) statement in a worker thread with `asyncio.to_thread`:
a statement can wait up to ``busy_timeout_ms`` for another process's write
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
from typing import Any

from slopmark.closing import Closes
from slopmark.llm.base import ChatRequest, ChatResponse

_SCHEMA = "CREATE TABLE IF NOT EXISTS calls (key TEXT PRIMARY KEY, value TEXT, created_at REAL)"


def call_key(**call: Any) -> str:
    """The hex SHA-256 of the canonical JSON of one call's named parts."""
    text = json.dumps(call, sort_keys=True, ensure_ascii=False, separators=(",", ":"))
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def cache_key(harness_version: str, base_url: str, request: ChatRequest) -> str:
    """The key naming one (harness, provider, request) combination of `ResponseCache`."""
    return call_key(
        harness_version=harness_version,
        base_url=base_url.rstrip("/"),
        model=request.model,
        messages=[[m.role, m.content] for m in request.messages],
        temperature=request.temperature,
        max_tokens=request.max_tokens,
    )


class CallCache:
    """JSON answers by key in the SQLite file at ``path`` (WAL; safe across threads)."""

    def __init__(self, path: str | Path, busy_timeout_ms: int = 10_000) -> None:
        self.path = Path(path)
        self.path.parent.mkdir(parents=True, exist_ok=True)
        self._lock = threading.Lock()
        self._db = sqlite3.connect(
            self.path, timeout=busy_timeout_ms / 1000, check_same_thread=False
        )
        self._db.execute(f"PRAGMA busy_timeout = {int(busy_timeout_ms)}")
        self._db.execute("PRAGMA journal_mode = WAL")
        self._db.execute("PRAGMA synchronous = NORMAL")
        with self._db:
            self._db.execute(_SCHEMA)

    def get(self, key: str) -> Any | None:
        """The answer stored under ``key``, or None."""
        with self._lock:
            row = self._db.execute("SELECT value FROM calls WHERE key = ?", (key,)).fetchone()
        return None if row is None else json.loads(row[0])

    def put(self, key: str, value: Any) -> None:
        with self._lock, self._db:
            self._db.execute(
                "INSERT OR REPLACE INTO calls (key, value, created_at) VALUES (?, ?, ?)",
                (key, json.dumps(value), time.time()),
            )

    def __len__(self) -> int:
        with self._lock:
            return int(self._db.execute("SELECT COUNT(*) FROM calls").fetchone()[0])

    def close(self) -> None:
        with self._lock:
            self._db.close()


class ResponseCache(Closes):
    """Cached `ChatResponse`s in the SQLite file at ``path``, for one harness version."""

    def __init__(self, path: str | Path, harness_version: str, busy_timeout_ms: int = 10_000):
        self.path = Path(path)
        self.harness_version = harness_version
        self._calls = CallCache(self.path, busy_timeout_ms)

    def get(self, base_url: str, request: ChatRequest) -> ChatResponse | None:
        """The cached response (``cached=True``), or None."""
        found = self._calls.get(cache_key(self.harness_version, base_url, request))
        return None if found is None else _decode(found)

    def put(self, base_url: str, request: ChatRequest, response: ChatResponse) -> None:
        stored = dataclasses.asdict(dataclasses.replace(response, cached=False))
        self._calls.put(cache_key(self.harness_version, base_url, request), stored)

    async def lookup(self, base_url: str, request: ChatRequest) -> ChatResponse | None:
        return await asyncio.to_thread(self.get, base_url, request)

    async def store(self, base_url: str, request: ChatRequest, response: ChatResponse) -> None:
        await asyncio.to_thread(self.put, base_url, request, response)

    def __len__(self) -> int:
        return len(self._calls)

    def close(self) -> None:
        self._calls.close()


def _decode(fields: dict[str, Any]) -> ChatResponse:
    known = {f.name for f in dataclasses.fields(ChatResponse)}
    return ChatResponse(**{k: v for k, v in fields.items() if k in known} | {"cached": True})
