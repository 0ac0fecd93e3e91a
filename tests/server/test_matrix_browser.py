"""The tasks × models matrix end to end: a store filled by the real CLI (`eval paste` of
three models' answers that differ), a real uvicorn, Debian's chromium.

The acceptance test of issue 33: "only where models differ" shows exactly the tasks
whose stored verdicts differ, as a direct SQL query of the store finds them; the CSV
and the JSON hold the page's rows.
"""

from __future__ import annotations

import csv
import io
import os
import sqlite3
from collections.abc import Callable, Iterator
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from urllib.parse import urlencode

import httpx
import pytest
from fastapi import FastAPI
from playwright.sync_api import Browser, Locator, Page, expect

from evals.conftest import slopmark
from server.browsing import needs_chromium, open_page
from server.test_navigation import links_of
from slopmark.server import create_app

pytestmark = pytest.mark.slow  # runs the CLI, uvicorn and chromium

#: task id -> (template, word the answer must hold)
TASKS = {
    "g1": ("greet", "alpha"), "g2": ("greet", "bravo"), "g3": ("greet", "charlie"),
    "c1": ("count", "delta"), "c2": ("count", "echo"), "solo": (None, "foxtrot"),
    **{f"s{i}": ("six", f"word{i}") for i in range(1, 7)},
}  # fmt: skip
#: who passes what (a model absent from a task's entry has no run of it)
PASSES = {
    "g1": {"ann": True, "bob": True, "cy": True},
    "g2": {"ann": True, "bob": False, "cy": True},
    "g3": {"ann": False, "bob": False, "cy": False},
    "c1": {"ann": False, "bob": True},
    "c2": {"ann": True, "bob": True, "cy": True},  # bob answers again below, and fails
    "solo": {"ann": True},
    **{f"s{i}": {"ann": True, "bob": False} for i in range(1, 7)},
}
#: a model named like markup: the page shows the name, never the markup
ODD = "<i>dee</i>"
SIX = {f"s{i}" for i in range(1, 7)}
DIFFERING = {"g2", "c1", "c2"} | SIX


def task_file(folder: Path) -> Path:
    lines = []
    for task, (template, word) in TASKS.items():
        lines += [f"- id: {task}", "  domain: instruction", f"  prompt: Say the word {word}."]
        lines += [f"  template_id: {template}"] if template else []
        rule = f"{{rule: required_phrase, text: {word}}}"
        lines += [f"  verifier: {{type: instruction, rules: [{rule}]}}"]
    path = folder / "tasks.yaml"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


def paste(tasks: Path, db: str, task: str, model: str, passed: bool) -> None:
    answer = f"Here: {TASKS[task][1]}." if passed else "I would rather not."
    done = slopmark("eval", "paste", "--task", task, "--model", model, "--tasks", str(tasks),
                    "--db", db, stdin=answer)  # fmt: skip
    assert done.returncode == 0, done.stderr
    assert ("PASS" if passed else "FAIL") in done.stdout


@dataclass(frozen=True)
class Site:
    url: str
    path: Path


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory, serve_app: Callable[[FastAPI], str]) -> Site:
    folder = tmp_path_factory.mktemp("matrix")
    path, tasks = folder / "runs.db", task_file(folder)
    db = f"sqlite:///{path}"
    answers = [(t, m, ok) for t, by in PASSES.items() for m, ok in by.items()] + [("g1", ODD, 1)]
    paste(tasks, db, *answers[0])  # the first creates the store
    with ThreadPoolExecutor(max_workers=3) as pool:
        list(pool.map(lambda item: paste(tasks, db, *item), answers[1:]))
    paste(tasks, db, "c2", "bob", False)  # bob's latest answer to c2 fails
    return Site(serve_app(create_app(db, None)), path)


def differing_in_store(path: Path) -> set[str]:
    """Tasks whose latest ok run per model has a passed and a failed verdict, straight
    from the store (one board group here)."""
    query = """
        SELECT task_id FROM runs AS r
        WHERE domain = 'instruction' AND status = 'ok' AND id = (
            SELECT max(id) FROM runs AS s WHERE s.domain = r.domain AND s.task_id = r.task_id
            AND s.model = r.model AND s.status = 'ok')
        GROUP BY task_id HAVING count(DISTINCT passed) > 1
    """
    with sqlite3.connect(path) as connection:
        return {task for (task,) in connection.execute(query)}


@pytest.fixture
def page(browser: Browser) -> Iterator[Page]:
    with open_page(browser, viewport={"width": 1100, "height": 900}) as opened:
        yield opened


def page_rows(page: Page) -> list[list[str]]:
    """Each task row as the page shows it: the task, then per model its verdict and run
    id ("" for "—"), in the CSV's layout."""
    rows = []
    for row in page.locator("table.matrix tr[data-task]").all():
        line = [row.get_attribute("data-task") or ""]
        for cell in row.locator("td.cell").all():
            link = cell.locator("a")
            if link.count():
                line += [link.inner_text(), (link.get_attribute("href") or "").split("/")[-1]]
            else:
                line += ["", ""]
        rows.append(line)
    return rows


def cell_of(page: Page, task: str, model: str) -> Locator:
    """The cell of ``model`` (found by its column) on ``task``'s row."""
    models = page.locator("table.matrix thead th.model").all_inner_texts()
    return page.locator(f'tr[data-task="{task}"] td.cell').nth(models.index(model))


def csv_rows(text: str) -> list[list[str]]:
    """The CSV's lines in `page_rows`' layout (its run counts left out)."""
    header, *lines = list(csv.reader(io.StringIO(text)))
    models = (len(header) - 2) // 3
    return [[line[1], *[v for m in range(models) for v in line[2 + 3 * m : 4 + 3 * m]]]
            for line in lines]  # fmt: skip


def shoot(page: Page, name: str, tmp_path: Path) -> None:
    """A full-page screenshot, kept in ``$SLOPMARK_SCREENSHOTS`` when it names a folder."""
    folder = Path(os.environ.get("SLOPMARK_SCREENSHOTS") or tmp_path)
    page.screenshot(path=str(folder / f"{name}.png"), full_page=True)


@needs_chromium
def test_only_where_models_differ_shows_exactly_the_tasks_whose_stored_verdicts_differ(
    site: Site, page: Page, tmp_path: Path
) -> None:
    assert differing_in_store(site.path) == DIFFERING
    page.goto(site.url + "/matrix?domain=instruction")
    expect(page.locator("table.matrix tr[data-task]")).to_have_count(len(TASKS))
    shoot(page, "matrix", tmp_path)
    page.get_by_label("only where models differ").check()
    page.get_by_role("button", name="Apply").click()
    expect(page.locator("table.matrix tr[data-task]")).to_have_count(len(DIFFERING))
    shown = {row[0] for row in page_rows(page)}
    assert shown == differing_in_store(site.path)
    csv_text = httpx.get(site.url + "/matrix.csv?" + page.url.split("?", 1)[1], timeout=30).text
    assert csv_rows(csv_text) == page_rows(page)


@needs_chromium
def test_a_cell_shows_the_latest_run_with_the_count_and_leads_to_it(site: Site, page: Page) -> None:
    page.goto(site.url + "/matrix?domain=instruction&failures=1")
    cell = cell_of(page, "c2", "bob")
    expect(cell).to_have_class("cell fail")
    expect(cell.locator(".count")).to_have_text("×2")
    with sqlite3.connect(site.path) as connection:
        (latest,) = connection.execute(
            "SELECT max(id) FROM runs WHERE task_id = 'c2' AND model = 'bob'"
        ).fetchone()
    cell.locator("a").click()
    expect(page.locator("h1")).to_have_text(f"Run {latest}")
    page.go_back()
    expect(cell_of(page, "c1", "cy")).to_have_text("—")
    expect(page.locator('tr[data-task="g3"]')).to_be_visible()  # every model failed
    expect(page.locator('tr[data-task="g1"]')).to_have_count(0)


@needs_chromium
def test_the_model_picker_chooses_the_columns_and_names_stay_text(site: Site, page: Page) -> None:
    page.goto(site.url + "/matrix?domain=instruction")
    expect(page.locator("table.matrix thead th.model")).to_have_count(4)
    expect(page.locator("table.matrix thead th.model").first).to_have_text(ODD)
    assert page.locator("table.matrix thead i").count() == 0
    page.get_by_label("ann", exact=True).check()
    page.get_by_label("cy", exact=True).check()
    page.get_by_role("button", name="Apply").click()
    headers = page.locator("table.matrix thead th.model")
    expect(headers).to_have_text(["ann", "cy"])
    expect(page.locator('tr[data-task="c1"] td.cell')).to_have_text(["fail", "—"])


@needs_chromium
def test_only_significant_templates_keeps_the_template_mcnemar_finds(
    site: Site, page: Page
) -> None:
    page.goto(site.url + "/matrix?domain=instruction")
    page.get_by_label("only templates where A and B differ significantly").check()
    page.locator("select[name=a]").select_option("ann")
    page.locator("select[name=b]").select_option("bob")
    page.get_by_role("button", name="Apply").click()
    expect(page.locator("table.matrix tbody")).to_have_count(1)
    expect(page.locator("table.matrix tbody")).to_have_attribute("data-template", "six")
    assert {row[0] for row in page_rows(page)} == SIX
    stats = page.locator("tr.template .pair-stats")
    expect(stats).to_contain_text("only A passed 6, only B 0 · McNemar p 0.031")
    api = httpx.get(site.url + "/api/matrix?" + page.url.split("?", 1)[1], timeout=30).json()
    assert api["pair"] == ["ann", "bob"] and api["templates"]["six"]["significant"]
    assert not api["templates"]["greet"]["significant"]


def api_rows(body: dict[str, Any]) -> list[list[str]]:
    """The JSON page's rows in `page_rows`' layout."""
    rows = []
    for row in body["rows"]:
        line = [row["task_id"]]
        for model in body["shown"]:
            found = row["cells"][model]
            line += [found["verdict"], str(found["run_id"])] if found else ["", ""]
        rows.append(line)
    return rows


def test_the_json_and_csv_hold_the_same_rows_page_after_page(site: Site) -> None:
    for query in ({}, {"failures": "1"}, {"differ": "1", "model": ["ann", "bob"]}):
        csv_text = httpx.get(f"{site.url}/matrix.csv?{urlencode(query, doseq=True)}", timeout=30)
        paged: list[list[str]] = []
        after: str | None = None
        while True:
            given = {**query, "limit": "2", **({"after": after} if after else {})}
            body = httpx.get(f"{site.url}/api/matrix?{urlencode(given, doseq=True)}", timeout=30)
            paged += api_rows(body.json())
            if (after := body.json()["next"]) is None:
                break
        assert paged == csv_rows(csv_text.text) and paged, query


@pytest.mark.parametrize(
    ("query", "message"),
    [
        ("domain=nope", "domain 'nope'"),
        ("domain=instruction&model=ann&model=bobb", "did you mean 'bob'"),
        ("domain=instruction&after=oops", "after 'oops'"),
        ("domain=instruction&limit=0", "limit '0'"),
        ("domain=instruction&differ=maybe", "differ 'maybe'"),
        ("domain=instruction&significant=1&a=ann&b=ann", "two different models"),
        ("domain=instruction&mode=agentic", "no runs of instruction match"),
    ],
)
def test_bad_input_is_a_400_that_says_why(site: Site, query: str, message: str) -> None:
    page = httpx.get(f"{site.url}/matrix?{query}", timeout=30)
    assert page.status_code == 400 and "text/html" in page.headers["content-type"]
    assert message in page.text.replace("&#39;", "'")
    api = httpx.get(f"{site.url}/api/matrix?{query}", timeout=30)
    assert api.status_code == 400 and message in api.json()["detail"]


def test_a_domain_without_runs_says_so(site: Site) -> None:
    page = httpx.get(f"{site.url}/matrix?domain=math", timeout=30)
    assert page.status_code == 200 and "No runs of math stored yet" in page.text
    assert httpx.get(f"{site.url}/api/matrix?domain=math", timeout=30).json()["rows"] == []


def test_every_link_of_the_matrix_leads_to_a_page(site: Site) -> None:
    views = ["domain=instruction", "domain=instruction&differ=1&limit=2",
             "domain=instruction&significant=1&a=ann&b=bob&model=ann&model=bob",
             "domain=instruction&limit=3&after=%5B%22count%22%2C%20%22c2%22%5D"]  # fmt: skip
    with httpx.Client(base_url=site.url, timeout=30) as client:
        links = {link for view in views for link in links_of(client.get(f"/matrix?{view}").text)}
        assert any(link.startswith("/runs/") for link in links)
        assert any("after=" in link for link in links)  # a next page
        for link in sorted(links - {"/"}):
            if not link.startswith("/static/"):
                assert client.get(link).status_code == 200, link


def test_matrix_csv_cells_a_spreadsheet_would_run_are_text() -> None:
    """Task ids and model names come from whoever submits runs: one that starts a formula
    is written as text (a leading apostrophe), in the header and in the rows."""
    from slopmark.board.matrix import Cell, Row
    from slopmark.server.matrix_pages import csv_header, csv_row

    models = ("=1+1", "plain")
    row = Row("+tpl", "@task", {"=1+1": Cell("passed", 7, 1)})
    assert csv_header(models)[2:5] == ["'=1+1", "'=1+1 run", "'=1+1 runs"]
    assert csv_row(row, models) == ["'+tpl", "'@task", "passed", 7, 1, "", "", ""]
