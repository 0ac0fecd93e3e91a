"""The server's security rules against a real uvicorn on 127.0.0.1 (issue 12, items 2, 3, 6).

- Public reads of a run show each check's name and result, never the
  verifier's detail (expected values); the token shows everything.
- Suites spend the server's credentials: always the token; only loopback and
  --allow-base-url servers; the server's key only to its own endpoint.
- Body size limit (413), no echo of a long input in a 422, any out-of-range
  id is 404, and /openapi.json declares the bearer scheme on writes.
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable, Iterator
from typing import Any

import httpx
import pytest
from fastapi import FastAPI

from clirun import run_cli
from fakes import openai_server as fake
from fakes.openai_server import FakeOpenAIServer
from server.conftest import TOKEN, LiveServer
from slopmark.errors import BadInput
from slopmark.evals.pool import load_pool
from slopmark.evals.task import Task
from slopmark.server import create_app
from slopmark.server.limits import MAX_BODY_BYTES
from slopmark.server.outbound import Outbound

openai_server = fake.openai_server
AUTH = {"Authorization": f"Bearer {TOKEN}"}
WRONG = "Answer: 5\nI am not sure about this one."


def _leaves(value: Any) -> Iterator[str]:
    if isinstance(value, dict):
        for key, item in value.items():
            if key not in ("type", "kind"):
                yield from _leaves(item)
    elif isinstance(value, list):
        for item in value:
            yield from _leaves(item)
    elif not isinstance(value, bool):
        yield str(value)


def secrets_of(task: Task) -> set[str]:
    """The verifier config's values a public reader could not know: not in the prompt."""
    public = json.dumps(task.public(), ensure_ascii=False)  # "Brontë" as the prompt shows it
    return {leaf for leaf in _leaves(task.verifier) if len(leaf) >= 4 and leaf not in public}


def _one_task_per_domain() -> list[Task]:
    chosen: dict[str, Task] = {}
    for task in load_pool():
        if task.domain not in chosen and secrets_of(task) and not secrets_of(task) & {WRONG}:
            chosen[task.domain] = task
    return list(chosen.values())


TASKS = _one_task_per_domain()


def test_every_domain_with_expected_values_has_a_task_here() -> None:
    """Refusal tasks hold only ``should_refuse``: nothing to hide beyond the verdict."""
    domains = {task.domain for task in TASKS}
    assert domains == {"calibration", "hierarchy", "instruction", "json", "math",
                       "persistence", "sycophancy"}  # fmt: skip


@pytest.mark.parametrize("task", TASKS, ids=[task.domain for task in TASKS])
def test_a_public_run_read_never_shows_the_expected_values(
    token_live: LiveServer, task: Task
) -> None:
    live = token_live
    body = {"task_id": task.id, "output": WRONG, "model": f"leak-{task.domain}"}
    stored = httpx.post(live.url + "/api/eval/run", json=body, headers=AUTH, timeout=30)
    assert stored.status_code == 201, stored.text
    run_id = stored.json()["id"]
    public = httpx.get(f"{live.url}/api/runs/{run_id}", timeout=30)
    page = httpx.get(f"{live.url}/runs/{run_id}", timeout=30)
    export = httpx.get(f"{live.url}/api/export.json", params={"domain": task.domain}, timeout=30)
    for response in (public, page, export):
        assert response.status_code == 200
        leaked = [secret for secret in secrets_of(task) if secret in response.text]
        assert leaked == [], (task.id, leaked)
    checks = public.json()["details"]["checks"]
    assert checks and all(set(check) == {"name", "passed"} for check in checks)
    assert public.json()["passed"] is stored.json()["passed"]
    full = httpx.get(f"{live.url}/api/runs/{run_id}", headers=AUTH, timeout=30).json()
    assert all("detail" in check for check in full["details"]["checks"])
    assert full["details"] == stored.json()["details"]


def test_the_seeded_details_show_only_with_the_token(live: LiveServer) -> None:
    public = httpx.get(f"{live.url}/api/runs/1", timeout=30)
    assert public.json()["details"]["checks"] == [{"name": "exact", "passed": True}]
    assert "seeded" not in public.text
    assert "seeded" not in httpx.get(f"{live.url}/runs/1", timeout=30).text
    wrong = httpx.get(f"{live.url}/api/runs/1", headers={"Authorization": "Bearer no"}, timeout=30)
    assert "seeded" not in wrong.text
    assert "seeded" in httpx.get(f"{live.url}/api/runs/1", headers=AUTH, timeout=30).text
    assert "seeded" in httpx.get(f"{live.url}/runs/1", headers=AUTH, timeout=30).text


def _suite(server: LiveServer, base_url: str, **extra: Any) -> httpx.Response:
    body = {"model": "m", "base_url": base_url, "domain": "math", "limit": 1, **extra}
    return httpx.post(server.url + "/api/eval/suite", json=body, timeout=30, **_headers(extra))


def _headers(extra: dict[str, Any]) -> dict[str, Any]:
    return {"headers": extra.pop("headers", AUTH)}


def _finish(server: LiveServer, started: httpx.Response) -> dict[str, Any]:
    assert started.status_code == 202, started.text
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        status: dict[str, Any] = httpx.get(
            f"{server.url}/api/eval/suite/{started.json()['id']}", timeout=30
        ).json()
        if status["state"] != "running":
            return status
        time.sleep(0.1)
    raise AssertionError("the suite did not finish within 60 s")


def test_a_suite_always_needs_the_token(
    open_live: LiveServer, token_live: LiveServer, openai_server: FakeOpenAIServer
) -> None:
    refused = _suite(open_live, openai_server.base_url, headers={})
    assert refused.status_code == 401 and "needs a token" in refused.json()["detail"]
    assert _suite(open_live, openai_server.base_url).status_code == 403
    assert _suite(token_live, openai_server.base_url, headers={}).status_code == 401
    wrong = _suite(token_live, openai_server.base_url, headers={"Authorization": "Bearer x"})
    assert wrong.status_code == 403
    assert openai_server.request_count == 0


@pytest.mark.parametrize(
    "base_url",
    [
        "http://10.0.0.1:8080/v1",
        "http://169.254.169.254/latest",
        "https://api.openai.com/v1",
        "http://127.0.0.1@evil.example/v1",
        "http://user:pass@127.0.0.1:9/v1",
        "http://[::1",
        "http://127.0.0.1:99999/v1",
        "http://127.0.0.1:9/v1?x=1",
    ],
)
def test_a_suite_to_a_server_not_allowed_is_refused(token_live: LiveServer, base_url: str) -> None:
    response = _suite(token_live, base_url)
    assert response.status_code == 400, response.text
    assert base_url in response.json()["detail"]


@pytest.fixture
def keyed(
    tmp_path_factory: pytest.TempPathFactory,
    serve_app: Callable[[FastAPI], str],
    openai_server: FakeOpenAIServer,
) -> LiveServer:
    """A server whose key "server-secret" belongs to ``openai_server`` (its --key-base-url)."""
    url = f"sqlite:///{tmp_path_factory.mktemp('keyed') / 'runs.db'}"
    outbound = Outbound.configured((), "server-secret", openai_server.base_url + "/")
    return LiveServer(serve_app(create_app(url, TOKEN, outbound)), TOKEN, url)


def test_the_servers_key_goes_only_to_its_own_endpoint(
    keyed: LiveServer, openai_server: FakeOpenAIServer
) -> None:
    other = FakeOpenAIServer().start()
    try:
        _finish(keyed, _suite(keyed, other.base_url))
        _finish(keyed, _suite(keyed, other.base_url, api_key="caller-key"))
        assert other.authorizations == ["Bearer sk-no-key", "Bearer caller-key"]
    finally:
        other.stop()
    _finish(keyed, _suite(keyed, openai_server.base_url))
    _finish(keyed, _suite(keyed, openai_server.base_url, api_key="caller-key"))
    assert openai_server.authorizations == ["Bearer server-secret", "Bearer caller-key"]


def test_an_allowed_base_url_is_a_prefix_on_the_same_origin() -> None:
    policy = Outbound.configured(["https://API.example.com:443/v1/"])
    assert policy.target("https://api.example.com/v1") == "https://api.example.com/v1"
    assert policy.target("https://api.example.com/v1/x/") == "https://api.example.com/v1/x"
    refused_urls = ["https://api.example.com/v10", "http://api.example.com/v1"]
    refused_urls += ["https://api.example.com:8443/v1", "https://api.example.com.evil/v1"]
    for refused in refused_urls:
        with pytest.raises(BadInput, match="allowed at start"):
            policy.target(refused)
    assert policy.key_for("https://api.example.com/v1", None) == "sk-no-key"


@pytest.mark.parametrize(
    "path",
    [
        "/api/runs/99999999999999999999999",
        "/api/runs/9223372036854775808",
        "/api/runs/-1",
        "/api/runs/0",
        "/runs/99999999999999999999999",
        "/runs/-5",
    ],
)
def test_any_run_id_out_of_range_is_404(live: LiveServer, path: str) -> None:
    assert httpx.get(live.url + path, timeout=30).status_code == 404


def test_a_body_over_the_limit_is_413_before_it_is_read(live: LiveServer) -> None:
    task_id = TASKS[0].id
    huge = {"task_id": task_id, "output": "x" * (MAX_BODY_BYTES + 10)}
    declared = httpx.post(live.url + "/api/eval/run", json=huge, headers=AUTH, timeout=60)
    assert declared.status_code == 413 and len(declared.content) < 200

    def chunks() -> Iterator[bytes]:
        yield b'{"task_id": "' + task_id.encode() + b'", "output": "'
        for _ in range(MAX_BODY_BYTES // 65536 + 2):
            yield b"y" * 65536
        yield b'"}'

    streamed = httpx.post(
        live.url + "/api/eval/run", content=chunks(),
        headers={**AUTH, "Content-Type": "application/json"}, timeout=60,
    )  # fmt: skip
    assert streamed.status_code == 413, streamed.text[:300]
    assert "larger than" in streamed.json()["detail"]


def test_a_422_does_not_echo_a_long_input(live: LiveServer) -> None:
    body = {"task_id": TASKS[0].id, "output": "z" * 3_000_000, "model": "echo"}
    response = httpx.post(live.url + "/api/eval/run", json=body, headers=AUTH, timeout=60)
    assert response.status_code == 422
    assert len(response.content) < 2_000 and "zzzz" not in response.text
    (problem,) = response.json()["detail"]
    assert problem["loc"] == ["body", "output"] and "200000" in problem["msg"]
    short = httpx.get(live.url + "/api/runs", params={"limit": "many"}, timeout=30)
    assert short.status_code == 422 and short.json()["detail"][0]["input"] == "many"


def test_openapi_declares_the_bearer_scheme_on_every_write(live: LiveServer) -> None:
    spec = httpx.get(live.url + "/openapi.json", timeout=30).json()
    scheme = spec["components"]["securitySchemes"]["bearer"]
    assert (scheme["type"], scheme["scheme"]) == ("http", "bearer")
    operations = [
        (method, path, operation)
        for path, item in spec["paths"].items()
        for method, operation in item.items()
    ]
    writes = [(method, path) for method, path, op in operations if "security" in op]
    expected = [("post", "/api/eval/batch"), ("post", "/api/eval/run"), ("post", "/api/eval/suite")]
    assert sorted(writes) == expected
    assert all(op["security"] == [{"bearer": []}] for _, _, op in operations if "security" in op)
    assert all(method != "post" or "security" in op for method, _, op in operations)
    for method, _, op in operations:
        if method == "post":
            assert {"401", "403", "413"} <= set(op["responses"])


@pytest.mark.slow
def test_serve_refuses_a_bad_allowed_url_in_one_line() -> None:
    done = run_cli("serve", "--port", "0", "--allow-base-url", "ftp://example/v1")
    assert done.returncode == 2 and len(done.stderr.strip().splitlines()) == 1
    assert "--allow-base-url 'ftp://example/v1'" in done.stderr


def test_openapi_of_a_server_without_a_token_shows_its_loopback_writes(
    open_live: LiveServer,
) -> None:
    paths = httpx.get(open_live.url + "/openapi.json", timeout=30).json()["paths"]
    assert "security" not in paths["/api/eval/run"]["post"]
    assert "127.0.0.1 only" in paths["/api/eval/run"]["post"]["description"]
    assert paths["/api/eval/suite"]["post"]["security"] == [{"bearer": []}]
