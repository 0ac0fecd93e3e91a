"""A server without a token answers only requests whose Host names it (DNS rebinding):
a real uvicorn server on 127.0.0.1, reached with forged and genuine Host headers."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any
from urllib.parse import urlsplit

import httpx
import pytest
from fastapi import FastAPI

from server.conftest import LiveServer
from slopmark.server import create_app
from slopmark.server.hosts import split_host


def _port(server: LiveServer) -> int:
    return urlsplit(server.url).port or 80


def _get(server: LiveServer, path: str, host: str) -> httpx.Response:
    return httpx.get(server.url + path, headers={"Host": host}, timeout=30)


@pytest.mark.parametrize("name", ["attacker.example.invalid", "127.0.0.1.example.invalid"])
def test_a_server_without_a_token_refuses_a_foreign_host(open_live: LiveServer, name: str) -> None:
    host = f"{name}:{_port(open_live)}"
    page = _get(open_live, "/", host)
    assert page.status_code == 421
    assert page.text == (
        f"Host {host!r} is not addressed to this server: without a token it answers only "
        f"127.0.0.1:{_port(open_live)}, localhost:{_port(open_live)} and [::1]:{_port(open_live)}; "
        "open one of those, or start it with --token\n"
    )
    assert _get(open_live, "/api/tasks", host).status_code == 421
    task_id = httpx.get(open_live.url + "/api/tasks?domain=math", timeout=30).json()[0]["id"]
    body = {"task_id": task_id, "output": "1", "model": "rebound"}
    write = httpx.post(
        open_live.url + "/api/eval/run", json=body, headers={"Host": host}, timeout=30
    )
    assert write.status_code == 421 and "not addressed to this server" in write.json()["detail"]
    assert httpx.get(open_live.url + "/api/runs?model=rebound", timeout=30).json() == []


def test_a_server_without_a_token_answers_its_own_names(open_live: LiveServer) -> None:
    port = _port(open_live)
    for host in (f"127.0.0.1:{port}", f"localhost:{port}", f"LOCALHOST:{port}", f"[::1]:{port}"):
        page = _get(open_live, "/", host)
        assert page.status_code == 200, (host, page.text)
        assert "<html" in page.text.lower()
    assert _get(open_live, "/", "localhost").status_code == 421  # port 80 is not this server
    assert _get(open_live, "/", f"localhost:{port + 1}").status_code == 421


def test_a_server_started_with_a_host_name_answers_it(
    tmp_path_factory: Any, serve_app: Callable[[FastAPI], str]
) -> None:
    db = f"sqlite:///{tmp_path_factory.mktemp('named') / 'runs.db'}"
    server = LiveServer(serve_app(create_app(db, None, names=("Box.example.invalid",))), None, db)
    assert _get(server, "/api/tasks", f"box.example.invalid:{_port(server)}").status_code == 200
    assert _get(server, "/api/tasks", f"other.example.invalid:{_port(server)}").status_code == 421


def test_a_server_with_a_token_answers_any_host(live: LiveServer) -> None:
    assert _get(live, "/api/tasks", "proxy.example.invalid").status_code == 200


def test_host_headers_are_split_into_name_and_port() -> None:
    assert split_host("[::1]:8000") == ("::1", 8000)
    assert split_host("LocalHost") == ("localhost", None)
    for bad in ("", "[::1", "::1", "a:b", "a@b:80", "a:123456"):
        assert split_host(bad) is None
