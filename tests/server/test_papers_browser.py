"""The papers pages over papers stored by the real CLI: ``paper measure --store`` on two
real papers of the shared corpus into a real SQLite file, served by uvicorn, read by
Debian's chromium through Playwright (and httpx for the JSON twins and links)."""

from __future__ import annotations

import json
import os
import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from html.parser import HTMLParser
from pathlib import Path
from typing import Any

import httpx
import pytest
from fastapi import FastAPI
from playwright.sync_api import Browser, Page, expect

from clirun import run_cli
from corpus import CORPUS
from server.browsing import needs_chromium, open_page
from slopmark.server import create_app
from slopmark.store import open_store
from slopmark.store.papers import store_paper

#: Set to a folder (docs/screenshots) to save a screenshot of each page there.
SHOTS = os.environ.get("SLOPMARK_SCREENSHOTS")
PAPERS = {"human": "human-cnn-graph", "ai": "ai-scientist-gan_diffusion"}

pytestmark = [
    needs_chromium,
    pytest.mark.skipif(not CORPUS.is_dir(), reason="needs ../shared/corpora/papers"),
    pytest.mark.slow,  # runs the CLI, a server and a browser
]


@dataclass(frozen=True)
class Stored:
    id: int
    findings: dict[str, Any]  # what --findings F.json wrote


@dataclass(frozen=True)
class Site:
    url: str
    papers: dict[str, Stored]  # by label


def _measure(folder: Path, label: str, db: Path) -> Stored:
    out = db.parent / f"{label}.json"
    done = run_cli("paper", "measure", str(CORPUS / PAPERS[label]), "--findings", str(out),
                   "--store", "--db", str(db), "--label", label)  # fmt: skip
    assert done.returncode == 0, done.stderr
    found = re.search(r"stored as paper (\d+) \(slopmark serve: /papers/(\d+)\)", done.stdout)
    assert found is not None and found[1] == found[2], done.stdout
    return Stored(int(found[1]), json.loads(out.read_text()))


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory, serve_app: Callable[[FastAPI], str]) -> Site:
    folder = tmp_path_factory.mktemp("papers")
    db = folder / "papers.db"
    papers = {label: _measure(folder, label, db) for label in PAPERS}
    return Site(serve_app(create_app(f"sqlite:///{db}", None)), papers)


@pytest.fixture
def page(browser: Browser) -> Iterator[Page]:
    with open_page(browser, viewport={"width": 1280, "height": 900}) as opened:
        yield opened


def _instances(findings: dict[str, Any], measure: str | None = None) -> list[list[str]]:
    """The rows F.json lists: measure, section, file:line, text, repair."""
    return [
        [item["measure"], item["section"], f"{item['at']['file']}:{item['at']['line']}",
         item["text"], item["repair"]]
        for result in findings["measures"] for item in result["instances"]
        if measure in (None, item["measure"])
    ]  # fmt: skip


_ROWS = """rows => rows.map(r => [r.dataset.measure,
  ...['section', 'where', 'text', 'repair'].map(k => r.querySelector('td.' + k).textContent)])"""


def _page_rows(page: Page) -> list[list[str]]:
    rows: list[list[str]] = page.eval_on_selector_all("table.findings tbody tr", _ROWS)
    return rows


def test_a_papers_page_lists_exactly_the_instances_of_its_findings_file(
    site: Site, page: Page
) -> None:
    for stored in site.papers.values():
        page.goto(f"{site.url}/papers/{stored.id}")
        expected = _instances(stored.findings)
        assert expected and _page_rows(page) == expected
        twin = httpx.get(f"{site.url}/api/papers/{stored.id}", timeout=30).json()
        rows = [[f["measure"], f["section"], f"{f['file']}:{f['line']}", f["text"], f["repair"]]
                for f in twin["findings"]]  # fmt: skip
        assert rows == expected
        assert twin["row"]["aggregate"] == stored.findings["aggregate"]
        assert twin["rests_on"] == stored.findings["rests_on"]
        basis = page.locator("td.rests-on")
        for plane, names in stored.findings["rests_on"].items():
            expect(basis).to_contain_text(f"{plane}: {', '.join(names) or 'nothing'}")


def test_the_list_links_to_a_paper_whose_findings_filter_by_measure(
    site: Site, page: Page
) -> None:
    ai = site.papers["ai"]
    page.goto(site.url + "/papers")
    expect(page.locator("table.papers tbody tr")).to_have_count(2)
    _shoot(page, "papers.png")
    page.get_by_role("link", name=str(CORPUS / PAPERS["ai"])).click()
    expect(page.locator("h1")).to_have_text(f"Paper {ai.id}: {CORPUS / PAPERS['ai']}")
    counts = {m["measure"]: (m["flagged"], m["units"]) for m in ai.findings["measures"]}
    row = page.locator('table.measures tr[data-measure="cross_section_references"] td.counts')
    flagged, units = counts["cross_section_references"]
    expect(row).to_contain_text(f"{flagged} / {units} objects")
    page.select_option("select[name=measure]", "citation_isolation")
    page.get_by_role("button", name="Filter").click()
    page.wait_for_url(re.compile(r"measure=citation_isolation"))
    expected = _instances(ai.findings, "citation_isolation")
    expect(page.locator("table.findings tbody tr")).to_have_count(len(expected))
    assert expected and _page_rows(page) == expected
    _shoot(page, "paper.png", full=True)


def test_a_section_link_keeps_only_that_sections_findings(site: Site, page: Page) -> None:
    human = site.papers["human"]
    page.goto(f"{site.url}/papers/{human.id}")
    first = page.locator("table.findings tbody tr td.section a").first
    section = first.inner_text()
    first.click()
    page.wait_for_url(re.compile(r"section="))
    expected = [row for row in _instances(human.findings) if row[1] == section]
    expect(page.locator("table.findings tbody tr")).to_have_count(len(expected))
    assert _page_rows(page) == expected
    expect(page.locator("select[name=section]")).to_have_value(section)


def test_each_measure_stands_against_the_stored_human_paper(site: Site, page: Page) -> None:
    page.goto(f"{site.url}/papers/{site.papers['ai'].id}")
    scored = page.locator("table.measures tr.ok td.standing")
    assert scored.count() >= 4
    for index in range(scored.count()):
        expect(scored.nth(index)).to_contain_text("percentile of 1 human paper")
    expect(page.locator("td.aggregate")).to_contain_text("percentile of 1 human paper")
    chart = page.locator('tr[data-measure="citation_isolation"] svg.standing')
    expect(chart.locator("> title")).to_contain_text("scores of 1 other human paper")
    expect(chart.locator("rect.bin")).to_have_count(10)
    page.locator("td.aggregate a").click()  # the n behind the standing: the human papers
    page.wait_for_url(re.compile(r"/papers\?label=human$"))
    rows = page.locator("table.papers tbody tr")
    expect(rows).to_have_count(1)
    expect(rows.first).to_have_attribute("data-paper-id", str(site.papers["human"].id))
    page.get_by_role("link", name="ai", exact=True).click()
    expect(rows).to_have_count(1)
    expect(rows.first).to_have_attribute("data-paper-id", str(site.papers["ai"].id))
    page.goto(f"{site.url}/papers/{site.papers['human'].id}")
    expect(page.locator("td.aggregate")).to_contain_text("no human papers (n = 0)")


class _Links(HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.found: set[str] = set()

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        href = dict(attrs).get("href")
        if tag == "a" and href and href.startswith("/"):
            self.found.add(href.split("#")[0])


def _links(url: str) -> set[str]:
    parser = _Links()
    parser.feed(httpx.get(url, timeout=30).text)
    return parser.found


def test_every_link_on_the_papers_pages_answers(site: Site) -> None:
    pages = {"/papers", "/papers?label=human"} | {f"/papers/{s.id}" for s in site.papers.values()}
    seen = set().union(*(_links(site.url + path) for path in pages))
    filtered = {link for link in seen if link.startswith("/papers/") and "?" in link}
    seen |= set().union(*(_links(site.url + path) for path in sorted(filtered)[:20]))
    assert any("section=" in link for link in seen) and any("measure=" in link for link in seen)
    for link in sorted(seen):
        assert httpx.get(site.url + link, timeout=30).status_code == 200, link


@pytest.mark.parametrize(
    ("path", "status", "message"),
    [
        ("/papers/abc", 404, "no paper has id 'abc'"),
        ("/papers/999999", 404, "no paper has id '999999'"),
        ("/papers/1?measure=nope", 400, "measure 'nope': not a measure of paper 1"),
        ("/papers/1?section=Nowhere", 400, "section 'Nowhere'"),
        ("/papers?before=x", 400, "before 'x'"),
        ("/papers?label=robot", 400, "label 'robot': must be one of human, ai"),
    ],
)
def test_bad_ids_and_filters_get_an_error_page(
    site: Site, page: Page, path: str, status: int, message: str
) -> None:
    response = page.goto(site.url + path)
    assert response is not None and response.status == status
    expect(page.locator("p.error")).to_contain_text(message)


def test_the_json_twins_refuse_bad_ids(site: Site) -> None:
    assert httpx.get(site.url + "/api/papers/abc", timeout=30).status_code == 404
    bad = httpx.get(site.url + "/api/papers/1?measure=nope", timeout=30)
    assert bad.status_code == 400 and "measure 'nope'" in bad.json()["detail"]
    listed = httpx.get(site.url + "/api/papers", timeout=30).json()
    assert {row["id"] for row in listed["papers"]} == {s.id for s in site.papers.values()}


def test_paper_text_is_escaped(
    tmp_path: Path, serve_app: Callable[[FastAPI], str], page: Page
) -> None:
    db = tmp_path / "hostile.db"
    engine = open_store(f"sqlite:///{db}")
    hostile = "<script>document.title='owned'</script><img src=x onerror=alert(1)>"
    item = {"measure": "evidence_gap", "at": {"file": f"{hostile}.tex", "line": 3},
            "section": hostile, "text": hostile, "repair": hostile}  # fmt: skip
    result = {"measure": "evidence_gap", "plane": "ARTIFACTS", "status": "ok", "score": 1.0,
              "flagged": 1, "units": 1, "unit_name": "papers", "weak": False,
              "reason": hostile, "detail": {}, "instances": [item]}  # fmt: skip
    report = {"paper": hostile, "aggregate": 1.0, "planes": {"ARTIFACTS": 1.0},
              "recovery": None, "measures": [result]}  # fmt: skip
    pid = store_paper(engine, report, None, "default", [hostile])
    engine.dispose()
    url = serve_app(create_app(f"sqlite:///{db}", None))
    for path in ("/papers", f"/papers/{pid}", f"/papers/{pid}?section={hostile}"):
        text = httpx.get(url + path, params=None, timeout=30).text
        assert "<script>document" not in text and "<img src=x" not in text
    page.goto(f"{url}/papers/{pid}")
    expect(page.locator("table.findings td.text")).to_have_text(hostile)
    assert page.title() != "owned"


def _shoot(page: Page, name: str, full: bool = False) -> None:
    if SHOTS:
        Path(SHOTS).mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(Path(SHOTS) / name), full_page=full)
