"""From a score to its evidence, in a real browser: the leaderboard's names and counts lead
to the runs behind them, a run shows its prompt and checks, and ``/compare`` gives the
numbers of ``slopmark board compare --json``.

The store is filled by the real CLI (``slopmark eval run`` against a loopback
OpenAI-compatible server, ``slopmark eval paste``); a real uvicorn serves it and
Debian's chromium, driven by Playwright, clicks through it. Set
``$SLOPMARK_SCREENSHOTS`` to a folder (docs/screenshots) to keep the pages' screenshots.
"""

from __future__ import annotations

import json
import os
import sqlite3
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any
from urllib.parse import parse_qs, urlsplit

import httpx
import pytest
from fastapi import FastAPI
from markupsafe import escape
from playwright.sync_api import Browser, Page, expect

from evals.conftest import slopmark
from fakes.openai_server import FakeOpenAIServer
from server.browsing import needs_chromium, open_page
from server.conftest import TOKEN, LiveServer
from slopmark.evals.harness import SYSTEM_PROMPT
from slopmark.evals.pool import load_pool
from slopmark.server import create_app

pytestmark = [needs_chromium, pytest.mark.slow]  # starts the CLI, uvicorn and chromium

#: two models on the same ten math tasks: one echoes the question (and fails), one knows
#: the answers to all but the age puzzles
MODELS = ("echo-a", "solver-b")
TASKS = 10
AUTH = {"Authorization": f"Bearer {TOKEN}"}


def solver(messages: list[dict[str, Any]]) -> str:
    """The expected answer of the math task asked (from its verifier), except age puzzles."""
    asked = messages[-1]["content"]
    task = next(t for t in load_pool("math") if t.turns[-1] == asked)
    return "I am not sure." if "old" in asked else f"Answer: {task.verifier['answer']}"


def fill(db: Path) -> None:
    """Ten math runs of each model (`eval run`), and one pasted answer."""
    server = FakeOpenAIServer().start()
    try:
        for model in MODELS:
            if model == "solver-b":
                server.answer = solver
            done = slopmark(
                "eval", "run", "--model", f"openai-compat:{model}", "--domain", "math",
                "--base-url", server.base_url, "--limit", str(TASKS), "--db", f"sqlite:///{db}",
            )  # fmt: skip
            assert done.returncode in (0, 1), done.stderr
    finally:
        server.stop()
    task = load_pool("instruction")[0].id
    pasted = slopmark("eval", "paste", "--task", task, "--model", "pasted-c",
                      "--db", f"sqlite:///{db}", stdin="Answer: 7")  # fmt: skip
    assert pasted.returncode == 0, pasted.stderr


@pytest.fixture(scope="module")
def store(tmp_path_factory: pytest.TempPathFactory) -> Path:
    db = tmp_path_factory.mktemp("evidence") / "runs.db"
    fill(db)
    return db


@pytest.fixture(scope="module")
def site(store: Path, serve_app: Callable[[FastAPI], str]) -> LiveServer:
    url = f"sqlite:///{store}"
    return LiveServer(serve_app(create_app(url, TOKEN)), TOKEN, url)


@pytest.fixture
def page(browser: Browser) -> Iterator[Page]:
    with open_page(browser, viewport={"width": 1300, "height": 900}) as opened:
        yield opened


def shoot(page: Page, name: str, tmp_path: Path) -> None:
    """A full-page screenshot, kept in ``$SLOPMARK_SCREENSHOTS`` when it names a folder."""
    folder = Path(os.environ.get("SLOPMARK_SCREENSHOTS") or tmp_path)
    page.screenshot(path=str(folder / f"{name}.png"), full_page=True)


def stored(db: Path, sql: str) -> list[tuple[object, ...]]:
    with sqlite3.connect(db) as connection:
        return connection.execute(sql).fetchall()


def test_a_model_leads_to_its_runs_then_a_failed_run_shows_its_prompt_and_checks(
    site: LiveServer, store: Path, page: Page, tmp_path: Path
) -> None:
    page.goto(site.url + "/?domain=math")
    shoot(page, "evals-linked", tmp_path)
    page.locator('tr[data-model="echo-a"] td.model a').first.click()
    expect(page.locator("h1")).to_have_text("Runs")
    query = parse_qs(urlsplit(page.url).query)
    assert query["model"] == ["echo-a"] and query["domain"] == ["math"]
    rows = page.locator("table.runs tbody tr")
    expect(rows).to_have_count(TASKS)
    assert set(rows.locator("td.model").all_inner_texts()) == {"echo-a"}
    shoot(page, "runs", tmp_path)
    failed = page.locator("table.runs tbody tr.failed").first
    run_id = int(failed.get_attribute("data-run-id") or 0)
    failed.locator("td a").first.click()
    expect(page.locator("h1")).to_have_text(f"Run {run_id}")
    expect(page.locator(".verdict")).to_contain_text("FAIL")
    (task_id,) = stored(store, f"SELECT task_id FROM runs WHERE id = {run_id}")[0]
    task = next(t for t in load_pool("math") if t.id == task_id)
    expect(page.locator("ol.prompt li.system pre")).to_have_text(SYSTEM_PROMPT)
    expect(page.locator("ol.prompt li.user pre").first).to_have_text(task.turns[0])
    public = httpx.get(f"{site.url}/api/runs/{run_id}", timeout=30).json()["details"]["checks"]
    checks = page.locator("ul.checks li")
    expect(checks).to_have_count(len(public))
    expected = [("✓ " if check["passed"] else "✗ ") + check["name"] for check in public]
    assert [text.strip() for text in checks.all_inner_texts()] == expected
    shoot(page, "run", tmp_path)


def test_prev_and_next_stay_inside_the_filter(site: LiveServer, store: Path, page: Page) -> None:
    ids = [row[0] for row in stored(store, "SELECT id FROM runs WHERE model = 'solver-b' "
                                            "AND passed = 0 ORDER BY id DESC")]  # fmt: skip
    assert len(ids) >= 2
    page.goto(f"{site.url}/runs/{ids[0]}?model=solver-b&passed=0")
    seen = [ids[0]]
    while page.locator("a[rel=next]").count():
        page.locator("a[rel=next]").click()
        seen.append(int(page.locator("h1").inner_text().split()[-1]))
    assert seen == ids
    page.locator("a[rel=prev]").click()
    expect(page.locator("h1")).to_have_text(f"Run {ids[-2]}")


def test_every_count_on_the_board_lists_the_runs_behind_it(site: LiveServer, store: Path) -> None:
    html = httpx.get(site.url + "/?domain=math", timeout=30).text
    for model in MODELS:
        sql = f"SELECT count(*) FROM runs WHERE model = '{model}' AND passed = 1"
        (passes,) = stored(store, sql)[0]
        for flag, expected in (("1", passes), ("0", TASKS - int(passes))):  # type: ignore[arg-type]
            found = httpx.get(
                site.url + "/api/browse",
                params={"model": model, "domain": "math", "passed": flag},
                timeout=30,
            ).json()["runs"]
            assert len(found) == expected
            assert f"passed={flag}" in html


def test_the_compare_page_gives_the_numbers_of_board_compare_json(
    site: LiveServer, store: Path, page: Page, tmp_path: Path
) -> None:
    done = slopmark("board", "compare", "echo-a", "solver-b", "--domain", "math", "--json",
                    "--db", f"sqlite:///{store}")  # fmt: skip
    assert done.returncode == 0, done.stderr
    cli = json.loads(done.stdout)
    params = {"a": "echo-a", "b": "solver-b", "domain": "math"}
    assert httpx.get(site.url + "/api/compare", params=params, timeout=30).json() == cli
    page.goto(site.url + "/?domain=math")
    page.locator("td.model a.compare").first.click()
    expect(page.locator("h1")).to_have_text("Compare two models")
    expect(page.locator("section.comparison")).to_have_count(1)
    page.goto(site.url + "/compare?a=echo-a&b=solver-b&domain=math")
    shoot(page, "compare", tmp_path)
    (shown,) = cli["comparisons"]
    paired = shown["paired"]
    for cell, key in (("difference", "mean_difference"), ("mcnemar", "mcnemar_p")):
        value = paired[key]
        expect(page.locator(f"td.{cell}")).to_have_text("–" if value is None else f"{value:.4f}")
    expect(page.locator("td.discordant-a")).to_have_text(str(paired["discordant"][0]))
    expect(page.locator("td.discordant-b")).to_have_text(str(paired["discordant"][1]))


def test_bad_filters_and_ids_are_error_pages(site: LiveServer) -> None:
    for path, status, message in (
        ("/runs?passed=maybe", 400, "passed &#39;maybe&#39;: must be 1, 0 or empty"),
        ("/runs?since=yesterday", 400, "give a day as YYYY-MM-DD"),
        ("/runs?before=abc", 400, "before &#39;abc&#39;: must be a run id"),
        ("/runs/abc", 400, "must be a run id"),
        ("/runs/999999", 404, "no run has id 999999"),
        ("/compare?a=echo-a&b=echo-a&domain=math", 400, "with itself"),
        ("/compare?a=echo-a&b=nobody&domain=math", 400, "models with runs there"),
    ):
        response = httpx.get(site.url + path, timeout=30)
        assert (response.status_code, "text/html" in response.headers["content-type"]) == (
            status, True,
        ), path  # fmt: skip
        assert message in response.text, (path, response.text)


def test_a_run_page_shows_expected_values_only_with_the_token(
    site: LiveServer, store: Path
) -> None:
    (run_id,) = stored(store, "SELECT id FROM runs WHERE model = 'echo-a' AND passed = 0")[0]
    checks = httpx.get(f"{site.url}/api/runs/{run_id}", headers=AUTH, timeout=30).json()
    details = [c["detail"] for c in checks["details"]["checks"] if c.get("detail")]
    assert details
    public = httpx.get(f"{site.url}/runs/{run_id}", timeout=30).text
    shown = [f": {escape(str(detail))}" for detail in details]
    assert not any(text in public for text in shown)
    full = httpx.get(f"{site.url}/runs/{run_id}", headers=AUTH, timeout=30).text
    assert all(text in full for text in shown)
