"""A real uvicorn server on 127.0.0.1 (ephemeral port) over a real SQLite store of seeded runs.

The seeded math board (one harness, task set and mode):

- ``alpha``: 12 tasks, 11 passed, $0.002 a run (cheap and good: on the frontier)
- ``beta``:  12 tasks, 6 passed, $0.0004 a run (cheapest: on the frontier)
- ``gamma``: 12 tasks, 8 passed, $0.01 a run (dearer and worse than alpha)
- ``tiny``:  3 tasks (hidden: fewer than 5 runs)

and on json, ``delta`` with 7 runs (provisional). Tasks m01..m12 come from
four templates of three tasks each.
"""

from __future__ import annotations

import os
import socket
import threading
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest
import uvicorn
from fastapi import FastAPI
from playwright.sync_api import Browser
from sqlalchemy import Engine

from server.browsing import CHROMIUM, launched_chromium
from slopmark.server import create_app
from slopmark.store import Run, insert_run, open_store

TOKEN = "test-token-7f3a"
MATH_MODELS = {"alpha": (11, 0.002), "beta": (6, 0.0004), "gamma": (8, 0.01)}


@dataclass(frozen=True)
class LiveServer:
    url: str
    token: str | None
    db_url: str


def seeded_run(model: str, domain: str, index: int, passed: bool, cost: float) -> Run:
    return Run(
        task_id=f"{domain[0]}{index:02d}",
        domain=domain,
        model=model,
        provider="openai-compat",
        harness_version="h1",
        mode="standard",
        task_set_version="ts1",
        source="seed",
        status="ok",
        output=f"answer {index} of {model}",
        passed=passed,
        score=1.0 if passed else 0.25,
        details={"checks": [{"name": "exact", "passed": passed, "detail": "seeded"}]},
        template_id=f"{domain}-t{(index - 1) // 3}",
        latency_ms=800.0 + index,
        cost_usd=cost,
    )


def seed(engine: Engine) -> None:
    for model, (passes, cost) in MATH_MODELS.items():
        for index in range(1, 13):
            insert_run(engine, seeded_run(model, "math", index, index <= passes, cost))
    for index in range(1, 4):
        insert_run(engine, seeded_run("tiny", "math", index, True, 0.001))
    for index in range(1, 8):
        insert_run(engine, seeded_run("delta", "json", index, index % 2 == 0, 0.003))


@pytest.fixture(scope="session")
def seeded_db(tmp_path_factory: pytest.TempPathFactory) -> str:
    url = f"sqlite:///{tmp_path_factory.mktemp('server') / 'runs.db'}"
    engine = open_store(url)
    seed(engine)
    engine.dispose()
    return url


def _free_socket(host: str = "127.0.0.1") -> socket.socket:
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    sock.bind((host, 0))
    return sock


@pytest.fixture(scope="session")
def serve_app() -> Iterator[Callable[[FastAPI], str]]:
    """A function starting ``app`` on an ephemeral port; every server stops at session end."""
    started: list[tuple[uvicorn.Server, threading.Thread, socket.socket]] = []

    def start(app: FastAPI) -> str:
        sock = _free_socket()
        server = uvicorn.Server(uvicorn.Config(app, log_level="warning"))
        thread = threading.Thread(target=server.run, kwargs={"sockets": [sock]}, daemon=True)
        thread.start()
        started.append((server, thread, sock))
        deadline = time.monotonic() + 20
        while not server.started:
            assert thread.is_alive() and time.monotonic() < deadline, "uvicorn did not start"
            time.sleep(0.02)
        return f"http://127.0.0.1:{sock.getsockname()[1]}"

    yield start
    for server, thread, sock in started:
        server.should_exit = True
        thread.join(timeout=10)
        sock.close()


@pytest.fixture(scope="session")
def live(seeded_db: str, serve_app: Callable[[FastAPI], str]) -> LiveServer:
    """The server with a write token, on the seeded store."""
    url = serve_app(create_app(seeded_db, TOKEN))
    return LiveServer(url, TOKEN, seeded_db)


@pytest.fixture(scope="session")
def open_live(
    tmp_path_factory: pytest.TempPathFactory, serve_app: Callable[[FastAPI], str]
) -> LiveServer:
    """A server started without a token, on its own empty store."""
    url = f"sqlite:///{tmp_path_factory.mktemp('open') / 'runs.db'}"
    return LiveServer(serve_app(create_app(url, None)), None, url)


@pytest.fixture(scope="session")
def token_live(
    tmp_path_factory: pytest.TempPathFactory, serve_app: Callable[[FastAPI], str]
) -> LiveServer:
    """A server with a token on its own empty store (for suites, which always need the
    token, and for writes that must not change the seeded boards)."""
    url = f"sqlite:///{tmp_path_factory.mktemp('token') / 'runs.db'}"
    return LiveServer(serve_app(create_app(url, TOKEN)), TOKEN, url)


@pytest.fixture(scope="module")
def browser() -> Iterator[Browser]:
    """Debian's chromium for a module of browser tests (skipped, saying why, without it)."""
    if not CHROMIUM.exists():
        pytest.skip(f"browser tests need Debian's chromium at {CHROMIUM}")
    with launched_chromium() as launched:
        yield launched


@pytest.fixture
def shots(tmp_path: Path) -> Path:
    """Where screenshots go: ``$SLOPMARK_SCREENSHOTS`` (docs/screenshots), else tmp_path."""
    folder = Path(os.environ.get("SLOPMARK_SCREENSHOTS") or tmp_path)
    folder.mkdir(parents=True, exist_ok=True)
    return folder
