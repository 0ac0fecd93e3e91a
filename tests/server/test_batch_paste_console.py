"""The console's batch paste: a JSONL upload (multipart form) scored and stored line by
line, on real uvicorn servers over real SQLite files, and once through chromium.

``SLOPMARK_SCREENSHOTS=docs/screenshots`` keeps the result page's screenshot there."""

from __future__ import annotations

import json
import re
import sqlite3
from collections.abc import Callable, Iterator
from pathlib import Path

import httpx
import pytest
from fastapi import FastAPI
from playwright.sync_api import Browser, Page, expect

from server.browsing import needs_chromium, open_page
from server.conftest import TOKEN, LiveServer
from slopmark.server import create_app
from slopmark.store.location import sqlite_file

pytestmark = pytest.mark.slow  # starts uvicorn (and chromium)

GOOD = {"task": "math.ages.0", "model": "m1", "answer": "Answer: 5"}
LINES = [
    json.dumps(GOOD),
    json.dumps(GOOD | {"model": "<b>m2</b>", "answer": "Answer: 7"}),
    "{not json",
    json.dumps({"task": "math.agez.0", "model": "m1", "answer": "5"}),
]
BATCH = "\n".join(LINES) + "\n"


def _server(
    tmp_path_factory: pytest.TempPathFactory, start: Callable[[FastAPI], str], token: str | None
) -> LiveServer:
    url = f"sqlite:///{tmp_path_factory.mktemp('batch') / 'runs.db'}"
    return LiveServer(start(create_app(url, token)), token, url)


@pytest.fixture(scope="module")
def open_server(
    tmp_path_factory: pytest.TempPathFactory, serve_app: Callable[[FastAPI], str]
) -> LiveServer:
    """A server without a token (127.0.0.1 writes) on its own empty store."""
    return _server(tmp_path_factory, serve_app, None)


@pytest.fixture(scope="module")
def token_server(
    tmp_path_factory: pytest.TempPathFactory, serve_app: Callable[[FastAPI], str]
) -> LiveServer:
    return _server(tmp_path_factory, serve_app, TOKEN)


def stored(server: LiveServer) -> list[tuple[str, str, int]]:
    path = sqlite_file(server.db_url)
    assert path is not None
    with sqlite3.connect(path) as connection:
        return connection.execute("SELECT task_id, model, passed FROM runs ORDER BY id").fetchall()


def upload(
    server: LiveServer,
    text: str = BATCH,
    path: str = "/console/batch",
    name: str = "answers.jsonl",
    **options: object,
) -> httpx.Response:
    files = {"file": (name, text.encode(), "application/x-ndjson")}
    return httpx.post(server.url + path, files=files, timeout=60, **options)  # type: ignore[arg-type]


def test_the_page_shows_each_line_and_stores_the_good_ones(open_server: LiveServer) -> None:
    before = len(stored(open_server))
    response = upload(open_server, name="<i>answers</i>.jsonl")
    assert response.status_code == 200, response.text[:500]
    page = response.text
    assert "2 stored (1 passed, 1 failed, 0 errored), 2 refused" in page
    assert "&lt;i&gt;answers&lt;/i&gt;.jsonl" in page and "<i>answers" not in page
    assert "&lt;b&gt;m2&lt;/b&gt;" in page and "<b>m2" not in page
    assert "not JSON" in page and "unknown task &#39;math.agez.0&#39;" in page
    runs = stored(open_server)[before:]
    assert runs == [("math.ages.0", "m1", 1), ("math.ages.0", "<b>m2</b>", 0)]
    for number in range(1, 5):
        assert f'data-line="{number}"' in page
    assert page.count('href="/runs/') == 2


def test_every_link_on_the_result_page_answers(open_server: LiveServer) -> None:
    page = upload(open_server, text=json.dumps(GOOD)).text
    links = set(re.findall(r'href="(/[^"#]*)"', page))
    assert any(link.startswith("/runs/") for link in links)
    for link in links:
        href = link.replace("&amp;", "&")
        assert httpx.get(open_server.url + href, timeout=30).status_code == 200, href


def test_a_bad_file_is_a_clear_error_page(open_server: LiveServer) -> None:
    empty = upload(open_server, text=" \n")
    assert empty.status_code == 400 and "no lines in it" in empty.text
    binary = httpx.post(
        open_server.url + "/console/batch", files={"file": ("x.jsonl", b"\xff\xfe")}, timeout=30
    )
    assert binary.status_code == 400 and "not UTF-8" in binary.text
    missing = httpx.post(open_server.url + "/console/batch", data={"x": "1"}, timeout=30)
    assert missing.status_code in (400, 422)


def test_a_form_from_another_site_is_refused_and_stores_nothing(open_server: LiveServer) -> None:
    before = stored(open_server)
    other = upload(open_server, headers={"Origin": "http://evil.example"})
    assert other.status_code == 403 and "another site" in other.text
    fetched = upload(open_server, headers={"Sec-Fetch-Site": "cross-site"})
    api = upload(open_server, path="/api/eval/batch", headers={"Origin": "http://evil.example"})
    assert fetched.status_code == api.status_code == 403
    assert stored(open_server) == before


def test_a_server_with_a_token_needs_it_in_the_form(token_server: LiveServer) -> None:
    assert upload(token_server).status_code == 401
    assert upload(token_server, data={"token": "wrong"}).status_code == 403
    assert stored(token_server) == []
    accepted = upload(token_server, data={"token": TOKEN})
    assert accepted.status_code == 200 and "2 stored" in accepted.text
    assert len(stored(token_server)) == 2
    console = httpx.get(token_server.url + "/console", timeout=30).text
    assert 'id="batch-form"' in console and 'name="token"' in console


def test_the_api_twin_answers_the_same_counts(token_server: LiveServer) -> None:
    auth = {"Authorization": f"Bearer {TOKEN}"}
    assert upload(token_server, path="/api/eval/batch").status_code == 401
    response = upload(token_server, path="/api/eval/batch", headers=auth)
    assert response.status_code == 201, response.text[:500]
    body = response.json()
    assert body["summary"] == {"stored": 2, "passed": 1, "failed": 1, "errored": 0, "refused": 2}
    assert [line["line"] for line in body["lines"]] == [1, 2, 3, 4]
    assert body["lines"][0]["run"]["model"] == "m1" and "not JSON" in body["lines"][2]["error"]


@pytest.fixture
def page(browser: Browser) -> Iterator[Page]:
    with open_page(browser, viewport={"width": 1280, "height": 900}) as opened:
        yield opened


@needs_chromium
def test_a_user_uploads_a_file_on_the_console_and_follows_a_run(
    open_server: LiveServer, page: Page, shots: Path, tmp_path: Path
) -> None:
    answers = tmp_path / "answers.jsonl"
    answers.write_text(BATCH, encoding="utf-8")
    page.goto(open_server.url + "/console?domain=math")
    page.locator("#batch-form input[type=file]").set_input_files(str(answers))
    page.get_by_role("button", name="Score and store every line").click()
    expect(page.locator("h1")).to_have_text("Batch paste: answers.jsonl")
    expect(page.locator("#batch-summary")).to_have_text(
        "2 stored (1 passed, 1 failed, 0 errored), 2 refused"
    )
    expect(page.locator("#batch-results tbody tr.refused")).to_have_count(2)
    page.screenshot(path=str(shots / "console-batch.png"), full_page=True)
    run = page.locator('#batch-results tr[data-line="1"] a[href^="/runs/"]')
    name = run.inner_text()  # "run N"
    run.click()
    expect(page.locator("h1")).to_have_text(name.capitalize())
    expect(page.locator("body")).to_contain_text("math.ages.0")
