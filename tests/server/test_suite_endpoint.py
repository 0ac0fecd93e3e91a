"""A suite started through the API and its model endpoint: a redirect is never followed (the
server's key, configured for the redirecting endpoint, never reaches the URL it names), and
an unreachable endpoint shows in the suite's status at once, while it is being retried."""

from __future__ import annotations

import re
import socket
import time
from collections.abc import Callable
from typing import Any

import httpx
from fastapi import FastAPI

from fakes import openai_server as fake
from fakes.openai_server import FakeOpenAIServer
from fakes.redirect_server import RedirectServer
from server.conftest import TOKEN, LiveServer
from slopmark.server import create_app
from slopmark.server.outbound import Outbound

openai_server = fake.openai_server
AUTH = {"Authorization": f"Bearer {TOKEN}"}


def _finished(url: str, suite_id: str) -> dict[str, Any]:
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        status: dict[str, Any] = httpx.get(f"{url}/api/eval/suite/{suite_id}", timeout=30).json()
        if status["state"] != "running":
            return status
        time.sleep(0.1)
    raise AssertionError(f"suite {suite_id} still running after 60 s")


def test_a_suite_does_not_follow_a_redirect_of_its_endpoint(
    tmp_path_factory: Any, serve_app: Callable[[FastAPI], str], openai_server: FakeOpenAIServer
) -> None:
    db = f"sqlite:///{tmp_path_factory.mktemp('redirect') / 'runs.db'}"
    with RedirectServer(openai_server.base_url) as redirect:
        outbound = Outbound.configured((), "server-secret", redirect.base_url)
        url = serve_app(create_app(db, TOKEN, outbound))
        body = {"model": "hop", "base_url": redirect.base_url, "domain": "math", "limit": 1}
        started = httpx.post(f"{url}/api/eval/suite", json=body, headers=AUTH, timeout=30)
        assert started.status_code == 202, started.text
        status = _finished(url, started.json()["id"])
    assert (status["state"], status["stored"]) == ("done", 1)
    runs = httpx.get(f"{url}/api/runs", params={"model": "hop"}, timeout=30).json()
    assert [run["status"] for run in runs] == ["error"]
    assert runs[0]["error"] == (
        f"model endpoint {redirect.base_url} answered 307 → {openai_server.base_url}"
        "/chat/completions: redirects are not followed; use the final URL as the base URL "
        f"({openai_server.base_url}) (not retried)"
    )
    assert redirect.seen == ["/v1/chat/completions"]
    assert openai_server.request_count == 0 and openai_server.authorizations == []


def test_a_suite_says_at_once_that_its_endpoint_is_being_retried(token_live: LiveServer) -> None:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        closed = f"http://127.0.0.1:{probe.getsockname()[1]}/v1"
    body = {"model": "nobody", "base_url": closed, "domain": "math", "limit": 1}
    started = httpx.post(f"{token_live.url}/api/eval/suite", json=body, headers=AUTH, timeout=30)
    assert started.status_code == 202, started.text
    status_url = f"{token_live.url}/api/eval/suite/{started.json()['id']}"
    deadline = time.monotonic() + 5  # the suite itself retries for several seconds more
    status: dict[str, Any] = {}
    while time.monotonic() < deadline and not status.get("last_retry"):
        status = httpx.get(status_url, timeout=30).json()
        time.sleep(0.05)
    assert status["state"] == "running"
    assert re.fullmatch(
        rf"cannot reach {re.escape(closed)}: .+; attempt \d of 5 failed, retrying in [\d.]+ s",
        status["last_retry"],
    )
