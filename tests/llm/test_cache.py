"""The SQLite response cache: keys, round trips, WAL, concurrent tasks and processes."""

from __future__ import annotations

import asyncio
import dataclasses
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

from slopmark.evals.verifiers import Message
from slopmark.llm.base import ChatRequest, ChatResponse
from slopmark.llm.cache import ResponseCache, cache_key

URL = "http://127.0.0.1:8080/v1"
REQUEST = ChatRequest("m", (Message("system", "Be exact."), Message("user", "2+2?")))
RESPONSE = ChatResponse(
    text="4",
    finish_reason="stop",
    input_tokens=12,
    output_tokens=1,
    cost_usd=None,
    first_byte_ms=12.5,
    total_ms=20.25,
    upstream="Groq",
)


@pytest.mark.parametrize(
    ("harness", "url", "request_"),
    [
        ("h2", URL, REQUEST),
        ("h1", "http://127.0.0.1:9090/v1", REQUEST),
        ("h1", URL, dataclasses.replace(REQUEST, model="m2")),
        ("h1", URL, dataclasses.replace(REQUEST, temperature=0.5)),
        ("h1", URL, dataclasses.replace(REQUEST, max_tokens=601)),
        ("h1", URL, dataclasses.replace(REQUEST, messages=REQUEST.messages[1:])),
        ("h1", URL, dataclasses.replace(REQUEST, messages=(Message("user", "2+2?"),) * 2)),
        ("h1", URL, dataclasses.replace(REQUEST, messages=(Message("user", "2+2? "),))),
    ],
)
def test_every_part_of_the_key_matters(harness: str, url: str, request_: ChatRequest) -> None:
    assert cache_key(harness, url, request_) != cache_key("h1", URL, REQUEST)


def test_a_trailing_slash_on_the_url_is_the_same_provider() -> None:
    assert cache_key("h1", URL + "/", REQUEST) == cache_key("h1", URL, REQUEST)


def test_a_round_trip_keeps_every_field_and_marks_it_cached(tmp_path: Path) -> None:
    with ResponseCache(tmp_path / "c.db", "h1") as cache:
        assert cache.get(URL, REQUEST) is None
        cache.put(URL, REQUEST, RESPONSE)
        assert cache.get(URL, REQUEST) == dataclasses.replace(RESPONSE, cached=True)
        assert len(cache) == 1


def test_unknown_numbers_stay_none(tmp_path: Path) -> None:
    unknown = dataclasses.replace(RESPONSE, input_tokens=None, output_tokens=None, upstream=None)
    with ResponseCache(tmp_path / "c.db", "h1") as cache:
        cache.put(URL, REQUEST, unknown)
        hit = cache.get(URL, REQUEST)
    assert hit is not None
    assert (hit.input_tokens, hit.output_tokens, hit.cost_usd, hit.upstream) == (None,) * 4


def test_another_harness_version_does_not_see_the_entry(tmp_path: Path) -> None:
    with ResponseCache(tmp_path / "c.db", "h1") as old:
        old.put(URL, REQUEST, RESPONSE)
    with ResponseCache(tmp_path / "c.db", "h2") as new:
        assert new.get(URL, REQUEST) is None


def test_the_file_is_in_wal_mode(tmp_path: Path) -> None:
    ResponseCache(tmp_path / "c.db", "h1").close()
    with sqlite3.connect(tmp_path / "c.db") as db:
        assert db.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    db.close()


def test_many_concurrent_tasks_share_one_cache(tmp_path: Path) -> None:
    requests = [dataclasses.replace(REQUEST, max_tokens=n) for n in range(1, 101)]

    async def go(cache: ResponseCache) -> list[ChatResponse | None]:
        await asyncio.gather(*(cache.store(URL, r, RESPONSE) for r in requests))
        return await asyncio.gather(*(cache.lookup(URL, r) for r in requests))

    with ResponseCache(tmp_path / "c.db", "h1") as cache:
        hits = asyncio.run(go(cache))
        assert len(cache) == 100
    assert all(hit is not None and hit.cached for hit in hits)


WRITER = """
import dataclasses, sys
from slopmark.evals.verifiers import Message
from slopmark.llm.base import ChatRequest, ChatResponse
from slopmark.llm.cache import ResponseCache

path, tag = sys.argv[1:3]
response = ChatResponse("x", "stop", 1, 1, None, 1.0, 2.0)
with ResponseCache(path, "h1") as cache:
    for n in range(150):
        request = ChatRequest(f"model-{tag}", (Message("user", str(n)),))
        cache.put("http://127.0.0.1/v1", request, response)
        assert cache.get("http://127.0.0.1/v1", request) is not None
"""


@pytest.mark.slow
def test_several_processes_write_one_file(tmp_path: Path) -> None:
    path = str(tmp_path / "shared.db")
    writers = [
        subprocess.Popen([sys.executable, "-c", WRITER, path, str(tag)], stderr=subprocess.PIPE)
        for tag in range(4)
    ]
    errors = [writer.communicate(timeout=120)[1] for writer in writers]
    assert [writer.returncode for writer in writers] == [0] * 4, errors
    with ResponseCache(path, "h1") as cache:
        assert len(cache) == 4 * 150
