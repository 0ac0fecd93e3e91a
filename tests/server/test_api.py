"""The JSON API against a real uvicorn server on 127.0.0.1 over a seeded SQLite store."""

from __future__ import annotations

import csv
import io
import json
import os
import re
import socket
import subprocess
import sys
import time
import uuid
from typing import Any

import httpx
import pytest

from fakes import openai_server as fake
from server.conftest import TOKEN, LiveServer
from slopmark.board.export import CSV_COLUMNS

openai_server = fake.openai_server
PUBLIC_TASK_KEYS = {"id", "domain", "turns", "system", "source", "difficulty"}
PUBLIC_TASK_KEYS |= {"template_id", "variant", "tags"}


def get(server: LiveServer, path: str, **params: Any) -> httpx.Response:
    return httpx.get(server.url + path, params=params, timeout=30)


def paste(server: LiveServer, body: dict[str, Any], **options: Any) -> httpx.Response:
    return httpx.post(server.url + "/api/eval/run", json=body, timeout=30, **options)


def auth(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def first_task(server: LiveServer, domain: str = "instruction") -> dict[str, Any]:
    tasks: list[dict[str, Any]] = get(server, "/api/tasks", domain=domain).json()
    return tasks[0]


def test_tasks_are_public_and_hide_verifiers(live: LiveServer) -> None:
    response = get(live, "/api/tasks")
    assert response.status_code == 200
    tasks = response.json()
    assert len(tasks) > 100
    assert all(set(task) == PUBLIC_TASK_KEYS for task in tasks)
    assert "verifier" not in response.text
    math = get(live, "/api/tasks", domain="math").json()
    assert math and {task["domain"] for task in math} == {"math"}


def test_tasks_of_an_unknown_domain_are_bad_input(live: LiveServer) -> None:
    response = get(live, "/api/tasks", domain="mth")
    assert response.status_code == 400
    assert "did you mean 'math'" in response.json()["detail"]


def test_leaderboard_ranks_the_seeded_models(live: LiveServer) -> None:
    data = get(live, "/api/leaderboard", domain="math").json()
    (board,) = data["boards"]
    assert board["comparable"] and board["tasks_used"] == 12 and board["tasks_dropped"] == 0
    rows = board["rows"]
    assert [row["model"] for row in rows] == ["alpha", "gamma", "beta"]
    alpha = rows[0]
    assert (alpha["n"], alpha["templates"], alpha["passed"]) == (12, 4, 11)
    rate = alpha["pass_rate"]
    assert rate["low"] < rate["estimate"] < rate["high"] and rate["n"] == 12
    assert alpha["avg_cost_usd"] == pytest.approx(0.002)
    assert all(row["rank"] for row in rows) and not any(row["provisional"] for row in rows)
    assert [(h["model"], h["n"]) for h in board["hidden"]] == [("tiny", 3)]


def test_leaderboard_of_all_tasks_is_labelled_not_comparable(live: LiveServer) -> None:
    (board,) = get(live, "/api/leaderboard", domain="math", tasks="all").json()["boards"]
    assert board["comparable"] is False
    assert all(row["rank"] is None for row in board["rows"])
    assert get(live, "/api/leaderboard", domain="math", tasks="some").status_code == 400


def test_leaderboard_marks_few_runs_provisional(live: LiveServer) -> None:
    (board,) = get(live, "/api/leaderboard", domain="json").json()["boards"]
    (row,) = board["rows"]
    assert (row["model"], row["n"], row["provisional"], row["rank"]) == ("delta", 7, True, None)


def test_gate_passes_with_200_and_fails_with_422_and_the_reason(live: LiveServer) -> None:
    passing = get(live, "/api/gate", model="alpha", domain="math", min_pass_rate=0.8)
    assert passing.status_code == 200 and passing.json()["passed"] is True
    failing = get(live, "/api/gate", model="beta", domain="math", min_pass_rate=0.8)
    assert failing.status_code == 422
    assert "pass rate 0.500" in failing.json()["reason"]
    assert "< required 0.800" in failing.json()["reason"]


def test_gate_on_the_lower_bound_is_stricter(live: LiveServer) -> None:
    response = get(
        live, "/api/gate", model="alpha", domain="math", min_pass_rate=0.8, use_lower_bound="true"
    )
    assert response.status_code == 422
    assert "lower bound" in response.json()["reason"]


def test_gate_of_an_unknown_model_is_bad_input(live: LiveServer) -> None:
    response = get(live, "/api/gate", model="nobody", domain="math", min_pass_rate=0.5)
    assert response.status_code == 400
    assert "alpha" in response.json()["detail"]


def test_csv_export_streams_a_header_and_one_line_per_model(live: LiveServer) -> None:
    url = live.url + "/api/export.csv"
    with httpx.stream("GET", url, params={"domain": "math"}, timeout=30) as response:
        assert response.status_code == 200
        assert response.headers["content-type"].startswith("text/csv")
        assert "content-length" not in response.headers  # streamed in chunks
        text = "".join(response.iter_text())
    lines = text.splitlines()
    assert lines[0] == ",".join(CSV_COLUMNS)
    rows = list(csv.DictReader(io.StringIO(text)))
    assert [(r["model"], r["status"]) for r in rows] == [
        ("alpha", "ranked"), ("gamma", "ranked"), ("beta", "ranked"), ("tiny", "hidden"),
    ]  # fmt: skip


def test_json_export_streams_every_run_of_the_domain(live: LiveServer) -> None:
    response = get(live, "/api/export.json", domain="math")
    assert response.status_code == 200
    document = json.loads(response.text)
    assert document["format"] == "slopmark.runs/1"
    runs = document["runs"]
    assert len(runs) == 3 * 12 + 3 and {run["domain"] for run in runs} == {"math"}
    assert all("output" not in run for run in runs)


def test_runs_list_newest_first_and_one_run_in_full(live: LiveServer) -> None:
    listed = get(live, "/api/runs", model="alpha", limit=5).json()
    assert len(listed) == 5 and all(run["model"] == "alpha" for run in listed)
    ids = [run["id"] for run in listed]
    assert ids == sorted(ids, reverse=True)
    assert "output" not in listed[0]
    full = get(live, f"/api/runs/{ids[0]}").json()
    assert full["output"] == "answer 12 of alpha"
    assert full["details"]["checks"][0]["name"] == "exact"
    assert get(live, "/api/runs/999999").status_code == 404
    assert get(live, "/api/runs", limit=0).status_code == 422


def test_writes_need_the_token(live: LiveServer) -> None:
    body = {"task_id": first_task(live)["id"], "output": "Answer: 1", "model": "api-token"}
    missing = paste(live, body)
    assert missing.status_code == 401 and missing.headers["www-authenticate"] == "Bearer"
    assert paste(live, body, headers=auth("wrong")).status_code == 403
    assert get(live, "/api/runs", model="api-token").json() == []
    stored = paste(live, body, headers=auth(TOKEN))
    assert stored.status_code == 201


def test_a_pasted_answer_is_scored_and_stored_as_a_paste_run(live: LiveServer) -> None:
    task = first_task(live)
    label = f"paste-{uuid.uuid4().hex[:6]}"
    body = {"task_id": task["id"], "output": "Answer: 42", "model": label}
    run = paste(live, body, headers=auth(TOKEN)).json()
    assert (run["task_id"], run["model"], run["provider"]) == (task["id"], label, "paste")
    assert run["paste"] is True and run["latency_ms"] == 0 and run["cost_usd"] == 0
    assert run["status"] == "ok" and isinstance(run["passed"], bool)
    assert run["details"]["checks"]
    (listed,) = get(live, "/api/runs", model=label).json()
    assert listed["id"] == run["id"]


def test_a_paste_for_an_unknown_task_says_which_task_is_close(live: LiveServer) -> None:
    task_id = first_task(live)["id"]
    body = {"task_id": task_id + "x", "output": "1"}
    response = paste(live, body, headers=auth(TOKEN))
    assert response.status_code == 400
    assert f"did you mean '{task_id}'" in response.json()["detail"]


def test_without_a_token_only_127_0_0_1_may_write(open_live: LiveServer) -> None:
    body = {"task_id": first_task(open_live)["id"], "output": "Answer: 3", "model": "local"}
    assert paste(open_live, body).status_code == 201
    elsewhere = httpx.Client(transport=httpx.HTTPTransport(local_address="127.0.0.2"))
    with elsewhere:
        response = elsewhere.post(open_live.url + "/api/eval/run", json=body, timeout=30)
        assert response.status_code == 403
        assert "127.0.0.2" in response.json()["detail"]
        assert elsewhere.get(open_live.url + "/api/tasks?domain=math").status_code == 200


def _wait_for_suite(server: LiveServer, suite_id: str) -> dict[str, Any]:
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        status: dict[str, Any] = get(server, f"/api/eval/suite/{suite_id}").json()
        if status["state"] != "running":
            return status
        time.sleep(0.1)
    raise AssertionError(f"suite {suite_id} still running after 60 s")


def test_a_suite_runs_in_the_background_and_stores_its_runs(
    token_live: LiveServer, openai_server: fake.FakeOpenAIServer
) -> None:
    body = {
        "model": "suite-model", "base_url": openai_server.base_url, "domain": "math",
        "limit": 3, "concurrency": 2,
    }  # fmt: skip
    url = token_live.url + "/api/eval/suite"
    started = httpx.post(url, json=body, headers=auth(TOKEN), timeout=30)
    assert started.status_code == 202, started.text
    status = _wait_for_suite(token_live, started.json()["id"])
    assert (status["state"], status["stored"], status["planned"]) == ("done", 3, 3)
    runs = get(token_live, "/api/runs", model="suite-model").json()
    assert len(runs) == 3 and {run["provider"] for run in runs} == {"openai-compat"}
    assert openai_server.request_count == 3


def test_a_suite_with_a_bad_url_is_refused(token_live: LiveServer) -> None:
    body = {"model": "m", "base_url": "ftp://example", "domain": "math"}
    url = token_live.url + "/api/eval/suite"
    response = httpx.post(url, json=body, headers=auth(TOKEN), timeout=30)
    assert response.status_code == 400 and "http(s) URL" in response.json()["detail"]
    assert get(token_live, "/api/eval/suite/nope").status_code == 404


def test_openapi_lists_every_endpoint(live: LiveServer) -> None:
    paths = get(live, "/openapi.json").json()["paths"]
    for path in ("/api/tasks", "/api/eval/run", "/api/eval/suite", "/api/leaderboard"):
        assert path in paths
    for path in ("/api/runs", "/api/runs/{run_id}", "/api/export.csv", "/api/gate"):
        assert path in paths
    page = get(live, "/docs")
    assert page.status_code == 200 and "text/html" in page.headers["content-type"]
    assert "GET /api/leaderboard" in page.text and "POST /api/eval/run" in page.text
    loaded = re.findall(r"(?:src|href)=\"(https?://[^/\"]+)", page.text)
    assert set(loaded) <= {live.url}  # nothing from outside the server: the docs work offline


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
    return port


@pytest.mark.slow
def test_the_serve_command_takes_its_token_from_the_environment(tmp_path: Any) -> None:
    port = _free_port()
    env = {k: v for k, v in os.environ.items() if not k.startswith("SLOPMARK_")}
    env["SLOPMARK_TOKEN"] = "from-env"
    db = f"sqlite:///{tmp_path / 'serve.db'}"
    command = [sys.executable, "-m", "slopmark", "serve", "--port", str(port), "--db", db]
    process = subprocess.Popen(command, env=env, stderr=subprocess.PIPE, text=True)
    server = LiveServer(f"http://127.0.0.1:{port}", "from-env", db)
    try:
        _wait_until_up(server, process)
        body = {"task_id": first_task(server)["id"], "output": "1"}
        assert paste(server, body).status_code == 401
        assert paste(server, body, headers=auth("from-env")).status_code == 201
    finally:
        process.terminate()
        process.communicate(timeout=20)


def _wait_until_up(server: LiveServer, process: subprocess.Popen[str]) -> None:
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        assert process.poll() is None, process.communicate()[1]
        try:
            httpx.get(server.url + "/openapi.json", timeout=5)
            return
        except httpx.TransportError:
            time.sleep(0.1)
    raise AssertionError("slopmark serve did not start within 60 s")
