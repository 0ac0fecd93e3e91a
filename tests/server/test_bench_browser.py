"""The /bench pages after real ``code bench run``s, in Debian's chromium through Playwright.

A real replay run of the shipped ``kvstore`` problem (bubblewrap sandbox) fills a
real SQLite store; a copy of the store is served as it stood then (one row,
provisional), and the store itself after a second run under another prompt (two
lines on the charts). The chain page's numbers are held to ``code bench report
--json`` of the same run folder. Screenshots go to ``$SLOPMARK_SCREENSHOTS``
(docs/screenshots to refresh them), else a temporary folder.
"""

from __future__ import annotations

import json
import os
import re
import sqlite3
import tempfile
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from fastapi import FastAPI
from playwright.sync_api import Browser, Page, expect

from bench.scbenv import needs_bwrap, needs_scb_python
from clirun import run_cli
from server.browsing import needs_chromium, open_page
from slopmark.server import create_app

ROOT = Path(__file__).resolve().parents[2]
PROBLEMS = ROOT / "src" / "slopmark" / "problems"
#: Where the screenshots go: ``$SLOPMARK_SCREENSHOTS`` (docs/screenshots to refresh the
#: README's), else a temporary folder: a test run never writes into the source tree.
SHOTS = Path(os.environ.get("SLOPMARK_SCREENSHOTS") or tempfile.mkdtemp(prefix="bench-shots-"))
TOKEN = "chain-reader"
PROMPT_LOG = "details.log-file[data-name='prompt.md']"

pytestmark = [
    needs_chromium,
    needs_bwrap,
    needs_scb_python,
    pytest.mark.slow,  # runs `code bench run` twice, uvicorn and a browser
]


@dataclass(frozen=True)
class Stored:
    first_url: str  # the store after the first run only
    both_url: str  # after the second run too
    report: dict[str, Any]  # `code bench report --json` of the first run
    run: str  # the first run folder's name
    folder: Path  # the first run folder
    token_url: str  # the store after both runs, served with the token TOKEN


def bench_run(out: Path, db: str, prompt: str) -> None:
    done = run_cli(
        "code", "bench", "run", "--problems", str(PROBLEMS), "--problem", "kvstore",
        "--agent", "replay", "--prompt", prompt, "--sandbox", "bwrap", "--out", str(out),
        "--db", db, timeout=600,
    )  # fmt: skip
    assert done.returncode == 0, done.stdout[-2000:] + done.stderr[-2000:]


def copy_store(source: Path, target: Path) -> None:
    """A consistent copy of a SQLite store (its WAL included)."""
    with sqlite3.connect(source) as live, sqlite3.connect(target) as copy:
        live.backup(copy)


@pytest.fixture(scope="module")
def stored(tmp_path_factory: pytest.TempPathFactory, serve_app: Callable[[FastAPI], str]) -> Stored:
    root = tmp_path_factory.mktemp("bench-pages")
    db = root / "store.db"
    bench_run(root / "replay-first", f"sqlite:///{db}", "just-solve")
    copy_store(db, root / "first.db")
    bench_run(root / "replay-second", f"sqlite:///{db}", "anti-slop")
    report = run_cli("code", "bench", "report", str(root / "replay-first"), "--json")
    assert report.returncode == 0, report.stderr
    first = serve_app(create_app(f"sqlite:///{root / 'first.db'}", None))
    both = serve_app(create_app(f"sqlite:///{db}", None))
    with_token = serve_app(create_app(f"sqlite:///{db}", TOKEN))
    return Stored(
        first, both, json.loads(report.stdout), "replay-first", root / "replay-first", with_token
    )


@pytest.fixture
def page(browser: Browser) -> Iterator[Page]:
    with open_page(browser, viewport={"width": 1400, "height": 1000}) as opened:
        yield opened


def fixed(value: float | None, digits: int = 3) -> str:
    return "–" if value is None else f"{value:.{digits}f}"


def test_first_run_shows_a_provisional_row_with_rates_and_phases(
    stored: Stored, page: Page
) -> None:
    page.goto(stored.first_url + "/bench")
    rows = page.locator("table.bench tbody tr")
    expect(rows).to_have_count(1)
    row = rows.first
    assert row.get_attribute("class") == "provisional"
    expect(row.locator("td.model")).to_contain_text("replay · just-solve")
    overall = stored.report["summary"]["overall"]
    for verdict in ("strict", "isolated", "core"):
        cell = row.locator(f"td.{verdict}")
        assert float(cell.get_attribute("data-value") or "nan") == overall[verdict]
        expect(cell).to_contain_text(f"{100 * overall[verdict]:.1f}")
    cells = row.locator("td").all_inner_texts()
    phases = stored.report["summary"]["phases"]
    erosion = [fixed(phases[p]["erosion"]) if p in phases else "–"
               for p in ("Start", "Early", "Mid", "Late", "Final")]  # fmt: skip
    assert cells[6:11] == erosion
    verbosity = [fixed(phases[p]["verbosity"]) if p in phases else "–"
                 for p in ("Start", "Early", "Mid", "Late", "Final")]  # fmt: skip
    assert cells[12:17] == verbosity
    expect(page.locator("svg.benchline[data-measure=erosion] g.series")).to_have_count(1)
    expect(page.get_by_text("No repository study is stored")).to_be_visible()


def test_a_second_prompt_adds_a_second_line_to_both_charts(stored: Stored, page: Page) -> None:
    page.goto(stored.both_url + "/bench")
    expect(page.locator("table.bench tbody tr")).to_have_count(2)
    for measure in ("erosion", "verbosity"):
        lines = page.locator(f"svg.benchline[data-measure={measure}] g.series")
        expect(lines).to_have_count(2)
        labels = {lines.nth(i).get_attribute("data-label") for i in range(2)}
        assert labels == {"replay · just-solve", "replay · anti-slop"}
        assert lines.first.locator("circle").count() == 4  # kvstore: Start, Early, Mid, Final
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SHOTS / "bench.png"), full_page=True)


def test_sorting_is_in_the_link_and_works_without_script(stored: Stored, page: Page) -> None:
    page.goto(stored.both_url + "/bench?sort=label&order=asc")
    first = page.locator("table.bench tbody tr td.model").first
    expect(first).to_contain_text("replay · anti-slop")
    page.get_by_role("link", name=re.compile("^Agent · model · prompt")).click()
    expect(page).to_have_url(re.compile(r"sort=label&order=desc"))
    expect(page.locator("table.bench tbody tr td.model").first).to_contain_text("just-solve")
    page.goto(stored.both_url + "/bench?sort=nope")
    expect(page.locator("p.error")).to_contain_text("sort 'nope': must be one of")


def test_the_chain_page_holds_the_reports_numbers(stored: Stored, page: Page) -> None:
    page.goto(stored.both_url + "/bench?sort=label&order=desc")
    page.get_by_role("link", name=f"{stored.run} / kvstore").click()
    expect(page).to_have_url(f"{stored.both_url}/bench/{stored.run}/kvstore")
    expect(page.locator("h1")).to_have_text("Chain: kvstore")
    rows = page.locator("table.chain tbody tr")
    checkpoints = stored.report["checkpoints"]
    expect(rows).to_have_count(len(checkpoints))
    for index, expected in enumerate(checkpoints):
        row = rows.nth(index)
        assert row.get_attribute("data-checkpoint") == expected["checkpoint"]
        quality = expected["quality"]
        expect(row.locator("td.erosion")).to_have_text(fixed(quality["erosion"]))
        expect(row.locator("td.verbosity")).to_have_text(fixed(quality["verbosity"]))
        expect(row.locator("td.sloc")).to_have_text(str(quality["sloc"]))
        expect(row.locator("td.complex")).to_have_text(str(quality["complex_callables"]))
        expect(row.locator("td.churn")).to_have_text(fixed(expected["relative_churn"], 2))
        for group, counts in expected["groups"].items():
            text = f"{counts['passed']}/{counts['total']}" if counts["total"] else "–"
            expect(row.locator(f"td.group-{group}")).to_have_text(text)
    expect(page.locator("section.failing").first).to_contain_text(
        f"{stored.run}/kvstore/checkpoint_1/agent/"
    )
    page.screenshot(path=str(SHOTS / "bench_chain.png"), full_page=True)
    page.locator("table.chain tbody tr").first.get_by_role("link").click()
    expect(page.locator("h1")).to_have_text(re.compile(r"^Run \d+$"))


def test_each_checkpoint_links_its_snapshots_code_report(stored: Stored, page: Page) -> None:
    """The chain links the snapshot the tests ran on, kept as a code report whose totals
    are the checkpoint's quality numbers; its top callables, rule hits and clone groups
    are one click away."""
    for index, expected in enumerate(stored.report["checkpoints"]):
        page.goto(f"{stored.both_url}/bench/{stored.run}/kvstore")
        section = page.locator("section.failing").nth(index)
        assert section.get_attribute("data-checkpoint") == expected["checkpoint"]
        section.get_by_role("link", name=re.compile(r"^code report \d+$")).click()
        expect(page.locator("h1")).to_contain_text(f"/{expected['checkpoint']}/workspace")
        quality = expected["quality"]
        for key in ("erosion", "verbosity", "sloc", "complex_callables"):
            value = page.locator(f"table.totals tr[data-key={key}]").get_attribute("data-value")
            assert float(value or "nan") == pytest.approx(quality[key], abs=1e-12), key
    page.go_back()
    page.locator("section.failing").first.get_by_role("link", name="top callables").click()
    expect(page).to_have_url(re.compile(r"/code/\d+#callables$"))
    expect(page.locator("h2#callables")).to_be_visible()


def test_the_agents_log_is_stored_and_its_text_needs_the_token(
    stored: Stored, browser: Browser
) -> None:
    prompt = (stored.folder / "kvstore" / "checkpoint_1" / "agent" / "prompt.md").read_text()
    chain = f"/bench/{stored.run}/kvstore"
    with open_page(browser) as public:
        public.goto(stored.both_url + chain)
        first = public.locator("section.failing").first.locator(PROMPT_LOG)
        expect(first.locator("summary")).to_contain_text(f"{len(prompt.encode())} bytes")
        first.locator("summary").click()
        expect(first).to_contain_text("A reader with the server's token sees the text")
        assert first.locator("pre").count() == 0
    headers = {"Authorization": f"Bearer {TOKEN}"}
    with open_page(browser, extra_http_headers=headers) as trusted:
        trusted.goto(stored.token_url + chain)
        first = trusted.locator("section.failing").first.locator(PROMPT_LOG)
        first.locator("summary").click()
        assert first.locator("pre").text_content() == prompt
