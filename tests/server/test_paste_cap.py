"""One cap on a pasted answer for ``eval paste`` and ``POST /api/eval/run``: the real CLI
in a subprocess, the API on a real uvicorn server."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import httpx
import pytest

from server.conftest import TOKEN, LiveServer
from slopmark.evals.runner import MAX_PASTE_CHARS

pytestmark = pytest.mark.slow  # starts python

TASK = "math.ages.0"


def paste_cli(answer: str, db: Path) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("SLOPMARK_")}
    return subprocess.run(
        [sys.executable, "-m", "slopmark", "eval", "paste", "--task", TASK, "--db", str(db)],
        input=answer, capture_output=True, text=True, env=env, timeout=120,
    )  # fmt: skip


def paste_api(server: LiveServer, answer: str) -> httpx.Response:
    body = {"task_id": TASK, "output": answer, "model": "cap"}
    headers = {"Authorization": f"Bearer {TOKEN}"}
    return httpx.post(server.url + "/api/eval/run", json=body, headers=headers, timeout=60)


@pytest.mark.parametrize(("extra", "accepted"), [(0, True), (1, False)])
def test_the_cli_and_the_api_keep_the_same_cap(
    live: LiveServer, tmp_path: Path, extra: int, accepted: bool
) -> None:
    answer = "Answer: 5 " + "x" * (MAX_PASTE_CHARS + extra - len("Answer: 5 "))
    done = paste_cli(answer, tmp_path / "runs.db")
    response = paste_api(live, answer)
    if accepted:
        assert done.returncode == 0, done.stderr
        assert response.status_code == 201, response.text[:500]
    else:
        assert done.returncode == 2 and done.stderr.count("\n") == 1
        assert f"more than the {MAX_PASTE_CHARS:,}" in done.stderr
        assert response.status_code == 422


def test_the_cap_is_the_one_the_api_declares(live: LiveServer) -> None:
    schema = httpx.get(live.url + "/openapi.json", timeout=30).json()
    output = schema["components"]["schemas"]["PasteBody"]["properties"]["output"]
    assert output["maxLength"] == MAX_PASTE_CHARS


def test_an_empty_answer_is_refused_by_both(live: LiveServer, tmp_path: Path) -> None:
    done = paste_cli(" \n", tmp_path / "runs.db")
    assert done.returncode == 2 and "the answer on stdin is empty" in done.stderr
    response = paste_api(live, "  ")
    assert response.status_code == 400 and "is empty" in response.json()["detail"]
