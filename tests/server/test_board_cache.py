"""The kept boards (`slopmark.server.boardcache`) on real SQLite files: the same numbers as
a fresh computation, at most ``size`` filters, and a run written by another connection or
process seen on the next read (through a real uvicorn server and the real CLI too)."""

from __future__ import annotations

import json
import sqlite3
import subprocess
import sys
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from fastapi import FastAPI
from fastapi.encoders import jsonable_encoder
from sqlalchemy import Engine

from server.conftest import TOKEN, seed, seeded_run
from slopmark.board.leaderboard import board_json
from slopmark.board.query import RunFilter
from slopmark.evals.pool import load_pool
from slopmark.server import create_app, reads
from slopmark.server.boardcache import BoardCache
from slopmark.store import insert_run, open_store
from slopmark.store.changes import NoProbe, change_probe

MATH = RunFilter(domain="math")


@pytest.fixture
def store_url(tmp_path: Path) -> str:
    """A fresh store of the seeded runs (each test writes to its own)."""
    url = f"sqlite:///{tmp_path / 'runs.db'}"
    engine = open_store(url)
    seed(engine)
    engine.dispose()
    return url


@pytest.fixture
def engine(store_url: str) -> Iterator[Engine]:
    found = open_store(store_url)
    yield found
    found.dispose()


def models(boards: Any) -> set[str]:
    return {row.model for board in boards for row in (*board.rows, *board.hidden)}


@pytest.mark.parametrize(
    ("where", "tasks"),
    [(MATH, "common"), (MATH, "all"), (RunFilter(domain="json"), "common"),
     (RunFilter(), "common"), (RunFilter(domain="math", source="original"), "common")],
)  # fmt: skip
def test_kept_boards_equal_the_uncached_computation(
    engine: Engine, where: RunFilter, tasks: str
) -> None:
    cache = BoardCache(engine)
    first = cache.boards(where, tasks)
    assert first == tuple(reads.boards(engine, where, tasks))
    assert cache.boards(where, tasks) is first  # the second read is the kept one
    cache.close()


def test_the_cache_keeps_at_most_size_filters_least_recently_used_first(engine: Engine) -> None:
    cache = BoardCache(engine, size=2)
    math, json, every = MATH, RunFilter(domain="json"), RunFilter()
    kept_math, kept_json = cache.boards(math), cache.boards(json)
    assert cache.boards(math) is kept_math  # math is now the most recently used
    cache.boards(every)
    assert len(cache) == 2
    assert cache.boards(math) is kept_math
    again = cache.boards(json)  # json went first: computed anew, equal
    assert again is not kept_json and again == kept_json
    for domain in ("math", "json", "code", "instruction", "calibration"):
        for tasks in ("common", "all"):
            cache.boards(RunFilter(domain=domain), tasks)
            assert len(cache) <= 2
    cache.close()


def test_a_run_written_by_another_connection_is_seen_on_the_next_read(
    engine: Engine, store_url: str
) -> None:
    cache = BoardCache(engine)
    before = cache.boards(MATH)
    other = open_store(store_url)
    insert_run(other, seeded_run("newcomer", "math", 1, True, 0.001))
    other.dispose()
    after = cache.boards(MATH)
    assert "newcomer" not in models(before) and "newcomer" in models(after)
    assert after == tuple(reads.boards(engine, MATH))
    cache.close()


def _alpha(boards: Any) -> Any:
    return next(row for board in boards for row in board.rows if row.model == "alpha")


@pytest.mark.parametrize(
    "change",
    ["UPDATE runs SET passed = 0, score = 0 WHERE model = 'alpha'",
     "DELETE FROM runs WHERE model = 'alpha' AND task_id = 'm01'"],
)  # fmt: skip
def test_an_update_or_delete_by_another_connection_is_seen(
    engine: Engine, store_url: str, change: str
) -> None:
    cache = BoardCache(engine)
    before = _alpha(cache.boards(MATH))
    path = store_url.removeprefix("sqlite:///")
    with sqlite3.connect(path) as other:  # the max id stays the same
        other.execute(change)
    other.close()
    after = _alpha(cache.boards(MATH))
    assert after != before
    assert cache.boards(MATH) == tuple(reads.boards(engine, MATH))
    cache.close()


def test_an_in_memory_store_keeps_nothing() -> None:
    engine = open_store("sqlite://")
    assert isinstance(change_probe(engine), NoProbe)
    cache = BoardCache(engine)
    cache.boards(MATH)
    assert len(cache) == 0
    engine.dispose()


# --- through a real server ------------------------------------------------------------


def board_models(url: str, domain: str) -> set[str]:
    found = httpx.get(f"{url}/api/leaderboard", params={"domain": domain}, timeout=60).json()
    return {row["model"] for board in found["boards"] for row in board["rows"] + board["hidden"]}


def math_task() -> str:
    return next(task.id for task in load_pool() if task.domain == "math")


def test_the_api_and_the_pages_show_the_kept_numbers_and_a_run_the_api_stored(
    store_url: str, engine: Engine, serve_app: Callable[[FastAPI], str]
) -> None:
    url = serve_app(create_app(store_url, TOKEN))
    fresh = json.loads(
        json.dumps(jsonable_encoder([board_json(b) for b in reads.boards(engine, MATH)]))
    )
    for _ in range(2):  # computed, then kept: the same numbers as the uncached computation
        got = httpx.get(f"{url}/api/leaderboard", params={"domain": "math"}, timeout=60).json()
        assert got["boards"] == fresh
        for page in ("/?domain=math", "/chart?domain=math"):
            assert httpx.get(url + page, timeout=60).status_code == 200
    assert "api-newcomer" not in httpx.get(f"{url}/?domain=math", timeout=60).text
    body = {"task_id": math_task(), "output": "Answer: 1", "model": "api-newcomer"}
    headers = {"Authorization": f"Bearer {TOKEN}"}
    stored = httpx.post(f"{url}/api/eval/run", json=body, headers=headers, timeout=60)
    assert stored.status_code == 201
    assert "api-newcomer" in board_models(url, "math")
    assert "api-newcomer" in httpx.get(f"{url}/?domain=math", timeout=60).text


@pytest.mark.slow
def test_a_run_the_cli_stored_shows_up_on_the_next_page_load(
    store_url: str, serve_app: Callable[[FastAPI], str]
) -> None:
    url = serve_app(create_app(store_url, TOKEN))
    assert "cli-newcomer" not in httpx.get(f"{url}/?domain=math", timeout=60).text
    assert "cli-newcomer" not in board_models(url, "math")  # both are kept now
    slopmark = Path(sys.executable).parent / "slopmark"
    command = [str(slopmark), "eval", "paste", "--task", math_task(), "--model", "cli-newcomer",
               "--db", store_url]  # fmt: skip
    done = subprocess.run(command, input="Answer: 1\n", capture_output=True, text=True)
    assert done.returncode in (0, 1), done.stderr  # 1: the pasted answer failed its check
    assert "cli-newcomer" in httpx.get(f"{url}/?domain=math", timeout=60).text
    assert "cli-newcomer" in board_models(url, "math")
