"""One header for every part of the web app, and no link that leads to an error page.

A real store holds a little of everything — bench checkpoints (`ledger`), a
study of a generated repository, a code report and a paper (the real CLI
with ``--store``), eval runs — and a real uvicorn serves it. A crawler
follows every same-site link from ``/`` and asks each page; chromium clicks
through the header.
"""

from __future__ import annotations

import json
import os
import re
from collections.abc import Callable, Iterator
from html.parser import HTMLParser
from pathlib import Path
from urllib.parse import urljoin, urlsplit

import httpx
import pytest
from fastapi import FastAPI
from playwright.sync_api import Browser, Page, expect

from server.browsing import open_page
from server.conftest import seed
from server.test_bench_pages import fill
from slopmark.server import create_app
from slopmark.store import open_store
from sweep.conftest import cli, make_repo

HERE = Path(__file__).parent
PAPER = HERE.parent / "paper" / "fixtures" / "figure_exposition" / "method_figure"
#: The header's links, in order, with the page each leads to.
HEADER = {"Evals": "/", "Runs": "/runs", "Matrix": "/matrix", "Bench": "/bench",
          "Studies": "/studies", "Code": "/code", "Papers": "/papers"}  # fmt: skip
#: How many pages the crawler asks at most (every page of this small store is fewer).
MAX_PAGES = 400
#: Links the crawler does not follow: files and the API's own documents.
SKIPPED = ("/static/", "/openapi.json", "/api/")

pytestmark = pytest.mark.slow  # starts the CLI, uvicorn and chromium


class Links(HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.found: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        href = dict(attrs).get("href")
        if tag == "a" and href:
            self.found.append(href)


def links_of(html: str) -> list[str]:
    parser = Links()
    parser.feed(html)
    return parser.found


def store_everything(root: Path) -> str:
    """A store holding eval runs (the first ids), bench checkpoints, a study, a code report
    and a paper."""
    engine = open_store(f"sqlite:///{root / 'runs.db'}")
    seed(engine)
    engine.dispose()
    url = fill(root)
    make_repo(root / "repos" / "alpha", 6, 1)
    listing = root / "repos" / "REPOS.txt"
    listing.write_text("alpha\n")
    for args in (
        ("code", "study", str(listing), "--out", str(root / "study")),
        ("code", "measure", str(HERE.parent.parent / "src" / "slopmark" / "plot"), "--store"),
        ("paper", "measure", str(PAPER), "--store", "--label", "human"),
    ):
        done = cli(*args, "--db", url)
        assert done.returncode == 0, (args, done.stderr)
    return url


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory, serve_app: Callable[[FastAPI], str]) -> str:
    return serve_app(create_app(store_everything(tmp_path_factory.mktemp("site")), None))


def crawl(base: str) -> dict[str, int]:
    """Every same-site page reachable from ``/`` (at most `MAX_PAGES`), with its status."""
    seen: dict[str, int] = {}
    queue = ["/"]
    with httpx.Client(base_url=base, timeout=60) as client:
        while queue and len(seen) < MAX_PAGES:
            path = queue.pop(0)
            if path in seen:
                continue
            response = client.get(path)
            seen[path] = response.status_code
            if "text/html" in response.headers.get("content-type", ""):
                queue += [link for link in _local(base, path, response.text) if link not in seen]
    return seen


def _local(base: str, path: str, html: str) -> list[str]:
    found = []
    for href in links_of(html):
        target = urlsplit(urljoin(base + path, href))
        if f"{target.scheme}://{target.netloc}" != base or target.path.startswith(SKIPPED):
            continue
        found.append(target.path + (f"?{target.query}" if target.query else ""))
    return found


def test_no_link_of_any_page_leads_to_an_error(site: str) -> None:
    statuses = crawl(site)
    broken = {path: status for path, status in statuses.items() if status != 200}
    assert not broken
    for prefix in ("/bench/", "/studies/", "/code/", "/papers/", "/runs/"):
        assert any(path.startswith(prefix) for path in statuses), prefix
    assert len(statuses) < MAX_PAGES


def test_a_bench_checkpoints_run_page_leads_to_its_chain_not_the_console(site: str) -> None:
    chains = httpx.get(f"{site}/api/bench", timeout=30).json()["tables"][0]["rows"]
    assert chains
    page = httpx.get(site + "/bench", timeout=30).text
    runs = sorted({link for link in links_of(page) if re.fullmatch(r"/bench/[^/]+/[^/]+", link)})
    chain = httpx.get(site + runs[0], timeout=30).text
    run_page = next(link for link in links_of(chain) if link.startswith("/runs/"))
    task = [link for link in links_of(httpx.get(site + run_page, timeout=30).text)
            if link.startswith(("/bench/", "/console?"))]  # fmt: skip
    assert task == [runs[0]]


@pytest.fixture
def page(browser: Browser) -> Iterator[Page]:
    with open_page(browser) as opened:
        yield opened


def test_the_header_leads_to_every_part(site: str, page: Page) -> None:
    page.goto(site + "/")
    header = page.locator("header nav")
    names = [name for name in header.locator("a").all_inner_texts() if name in HEADER]
    assert names == list(HEADER)
    for name, path in HEADER.items():
        header.get_by_role("link", name=name, exact=True).click()
        expect(page).to_have_url(site + path)
        current = page.locator("header nav a[aria-current=page]")
        expect(current).to_have_text(name)
        expect(page.locator("main h1").first).to_be_visible()


def test_the_api_lists_what_the_pages_show(site: str) -> None:
    """The JSON twins of the four new parts answer, each with the stored item."""
    for path in ("/api/bench", "/api/studies", "/api/code", "/api/papers"):
        response = httpx.get(site + path, timeout=30)
        assert response.status_code == 200, path
        assert json.dumps(response.json()) != "{}", path


def test_each_eval_page_renders_for_a_screenshot(site: str, page: Page, tmp_path: Path) -> None:
    """The eval pages as a reader sees them (the leaderboard, the chart, the console, a
    run); ``SLOPMARK_SCREENSHOTS=docs/screenshots`` keeps the pictures for the README."""
    folder = Path(os.environ.get("SLOPMARK_SCREENSHOTS") or tmp_path)
    folder.mkdir(parents=True, exist_ok=True)
    page.set_viewport_size({"width": 1280, "height": 900})
    for name, path in (("evals", "/?domain=math"), ("chart", "/chart?domain=math"),
                       ("console", "/console"), ("run", "/runs/1")):  # fmt: skip
        page.goto(site + path)
        expect(page.locator("main h1").first).to_be_visible()
        page.screenshot(path=str(folder / f"{name}.png"), full_page=True)
        assert (folder / f"{name}.png").stat().st_size > 10_000
