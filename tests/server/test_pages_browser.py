"""The web pages in a real browser: Playwright driving Debian's chromium against uvicorn."""

from __future__ import annotations

import re
import uuid
from collections.abc import Iterator

import httpx
import pytest
from playwright.sync_api import Browser, Page, expect

from server.browsing import needs_chromium, open_page
from server.conftest import TOKEN, LiveServer

pytestmark = [
    needs_chromium,
    pytest.mark.slow,  # starts a browser (Playwright's driver and chromium)
]


@pytest.fixture
def page(browser: Browser) -> Iterator[Page]:
    with open_page(browser) as opened:
        yield opened


def test_leaderboard_renders_a_row_per_shown_model(live: LiveServer, page: Page) -> None:
    page.goto(live.url + "/?domain=math")
    rows = page.locator("table.leaderboard tbody tr")
    expect(rows).to_have_count(3)
    models = [rows.nth(i).get_attribute("data-model") for i in range(3)]
    assert models == ["alpha", "gamma", "beta"]
    assert rows.first.locator("td.rank").inner_text().strip()
    assert "91.7 [" in rows.first.inner_text()
    expect(page.locator(".hidden-models")).to_contain_text("tiny (3 runs)")


def test_leaderboard_tabs_switch_domain_and_mark_provisional_rows(
    live: LiveServer, page: Page
) -> None:
    page.goto(live.url + "/?domain=math")
    page.get_by_role("link", name="json", exact=True).click()
    row = page.locator("table.leaderboard tbody tr")
    expect(row).to_have_count(1)
    expect(row).to_have_class("provisional")
    expect(row.locator("td.rank")).to_have_text("provisional")


def test_chart_draws_one_point_per_model_and_the_frontier(live: LiveServer, page: Page) -> None:
    page.goto(live.url + "/chart?domain=math")
    points = page.locator("svg.costcap g.point")
    expect(points).to_have_count(3)
    names = {points.nth(i).get_attribute("data-model") for i in range(3)}
    assert names == {"alpha", "beta", "gamma"}
    frontier = page.locator("svg.costcap g.point.on-frontier")
    assert {frontier.nth(i).get_attribute("data-model") for i in range(2)} == {"alpha", "beta"}
    expect(page.locator("svg.costcap polyline.frontier")).to_have_count(1)
    page.locator('g.point[data-model="gamma"] circle').hover()
    expect(page.locator(".point-info")).to_contain_text("gamma")
    expect(page.locator(".point-info")).to_contain_text("$0.01")


def test_console_stores_a_pasted_answer_shown_in_the_api_and_its_page(
    live: LiveServer, page: Page
) -> None:
    task_id = httpx.get(live.url + "/api/tasks?domain=instruction", timeout=30).json()[1]["id"]
    label = f"browser-{uuid.uuid4().hex[:6]}"
    page.goto(f"{live.url}/console?domain=instruction&task={task_id}")
    expect(page.locator("section.task h2")).to_have_text(task_id)
    page.fill("#answer", "The answer.\nAnswer: 7")
    page.fill("input[name=model]", label)
    page.fill("input[name=token]", TOKEN)
    page.click("#paste-form button[type=submit]")
    link = page.locator("#run-link")
    expect(link).to_be_visible()
    expect(page.locator("#verdict .verdict")).to_have_text(
        re.compile(r"^(PASS|FAIL) · score \d\.\d{3}$")
    )
    run_id = int((link.get_attribute("href") or "").rsplit("/", 1)[1])
    (listed,) = httpx.get(live.url + "/api/runs", params={"model": label}, timeout=30).json()
    assert (listed["id"], listed["task_id"], listed["paste"]) == (run_id, task_id, True)
    link.click()
    expect(page.locator("h1")).to_have_text(f"Run {run_id}")
    expect(page.locator("pre.output")).to_have_text("The answer.\nAnswer: 7")
    expect(page.locator("ul.checks li").first).to_be_visible()


def test_console_refuses_a_wrong_token_and_stores_nothing(live: LiveServer, page: Page) -> None:
    page.goto(live.url + "/console?domain=json")
    label = f"refused-{uuid.uuid4().hex[:6]}"
    page.fill("#answer", "{}")
    page.fill("input[name=model]", label)
    page.fill("input[name=token]", "not-the-token")
    page.click("#paste-form button[type=submit]")
    expect(page.locator("#verdict .error")).to_contain_text("Not stored (403)")
    assert httpx.get(live.url + "/api/runs", params={"model": label}, timeout=30).json() == []


def test_console_task_picker_shows_the_chosen_task(live: LiveServer, page: Page) -> None:
    page.goto(live.url + "/console?domain=math")
    second = page.locator("#task-select option").nth(1).get_attribute("value")
    page.select_option("#task-select", second)
    expect(page.locator("section.task h2")).to_have_text(second or "")


def test_a_missing_run_page_is_a_404_page(live: LiveServer, page: Page) -> None:
    response = page.goto(live.url + "/runs/987654")
    assert response is not None and response.status == 404
    expect(page.locator("p.error")).to_have_text("no run has id 987654")
