"""The code report pages end to end: the real CLI stores reports in a real SQLite file,
a real uvicorn serves them, Debian's chromium (Playwright) clicks through them.

Set ``$SLOPMARK_SCREENSHOTS`` to a folder to keep a screenshot of each page there
(``docs/screenshots`` holds the ones the docs show).
"""

from __future__ import annotations

import json
import os
import re
import subprocess
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
from server.browsing import needs_chromium, open_page
from slopmark.server import create_app

pytestmark = [
    needs_chromium,
    pytest.mark.slow,  # starts the CLI, uvicorn and a browser
]

HOSTILE = "</code><script>window.pwned = 1</script>"
FIRST = f'''\
def first(items):
    total = 0
    label = "{HOSTILE}"
    for item in items:
        if item > 3:
            total += item
    return total, label
'''
SECOND = FIRST.replace("first(items)", "second(values)").replace("items:", "values:")
BUSY = "def busy(a):\n" + "".join(f"    if a == {i}:\n        return {i}\n" for i in range(12))
BUSY += "    return -1\n"
CHECK = "def check(flag):\n    if flag == None:\n        return 1\n    return 2\n"
#: the order `code measure --json` gives its totals in (all but the per-file detail)
TOTAL_KEYS = (
    "files_measured", "files_skipped", "sloc", "callables", "erosion", "verbosity",
    "rule_lines", "clone_lines", "flagged_lines", "complex_callables", "max_cc",
    "total_mass", "complex_mass", "rules_run", "rule_hits", "clone_groups",
)  # fmt: skip


def git(repo: Path, *args: str) -> str:
    done = subprocess.run(["git", "-C", str(repo), *args], capture_output=True, text=True,
                          check=True)  # fmt: skip
    return done.stdout


def commit(repo: Path, files: dict[str, str], message: str) -> None:
    for name, text in files.items():
        (repo / name).parent.mkdir(parents=True, exist_ok=True)
        (repo / name).write_text(text)
    git(repo, "add", "-A")
    git(repo, "-c", "user.email=t@t", "-c", "user.name=t", "commit", "-qm", message)


def stored_id(stderr: str) -> int:
    found = re.search(r"stored code report (\d+): /code/(\d+)", stderr)
    assert found and found[1] == found[2], stderr
    return int(found[1])


@dataclass(frozen=True)
class Stored:
    url: str
    repo: Path
    tree: int
    history: int
    measured: dict[str, Any]
    history_json: dict[str, Any]


@pytest.fixture(scope="module")
def stored(tmp_path_factory: pytest.TempPathFactory, serve_app: Callable[[FastAPI], str]) -> Stored:
    """A repository of three commits plus uncommitted work, its work tree measured and its
    history read, both with ``--store`` into one SQLite file, served by uvicorn."""
    base = tmp_path_factory.mktemp("code-pages")
    repo, db = base / "repo", base / "store.db"
    repo.mkdir()
    git(repo, "init", "-q")
    commit(repo, {"pkg/a.py": "def one(x):\n    return x + 1\n"}, "one")
    commit(repo, {"pkg/b.py": FIRST}, "two")
    commit(repo, {"pkg/c.py": BUSY}, "three <b>bold</b>")
    (repo / "pkg/d.py").write_text(SECOND + "\n\n" + CHECK)
    measured = run_cli("code", "measure", str(repo), "--json", "--store", "--db", str(db))
    assert measured.returncode == 0, measured.stderr
    history = run_cli("code", "history", str(repo), "--commits", "3", "--json", "--store",
                      "--db", str(db))  # fmt: skip
    assert history.returncode == 0, history.stderr
    url = serve_app(create_app(f"sqlite:///{db}", None))
    return Stored(
        url, repo, stored_id(measured.stderr), stored_id(history.stderr),
        json.loads(measured.stdout), json.loads(history.stdout),
    )  # fmt: skip


@pytest.fixture
def page(browser: Browser) -> Iterator[Page]:
    with open_page(browser, viewport={"width": 1200, "height": 900}) as opened:
        yield opened


def shoot(page: Page, name: str, tmp_path: Path) -> None:
    """A full-page screenshot, kept in ``$SLOPMARK_SCREENSHOTS`` when it names a folder."""
    folder = Path(os.environ.get("SLOPMARK_SCREENSHOTS") or tmp_path)
    page.screenshot(path=str(folder / f"{name}.png"), full_page=True)


def test_stored_totals_equal_code_measure_json(stored: Stored) -> None:
    # --json lists the clone groups under the key its summary counts them in
    expected = {key: stored.measured[key] for key in TOTAL_KEYS}
    expected["clone_groups"] = len(expected["clone_groups"])
    api = httpx.get(f"{stored.url}/api/code/{stored.tree}", timeout=30).json()
    assert api["summary"] == expected
    languages = [{k: v for k, v in row.items() if k not in ("report_id", "position")}
                 for row in api["languages"]]  # fmt: skip
    assert languages == stored.measured["languages"]
    assert api["settings"] == stored.measured["settings"]
    assert len(api["clones"]) == len(stored.measured["clone_groups"])
    html = httpx.get(f"{stored.url}/code/{stored.tree}", timeout=30).text
    cells = dict(re.findall(r'<tr data-key="(\w+)" data-value="([^"]*)">', html))
    assert {key: cells[key] for key in TOTAL_KEYS} == {k: str(v) for k, v in expected.items()}


def test_history_is_stored_as_code_history_json_prints_it(stored: Stored) -> None:
    api = httpx.get(f"{stored.url}/api/code/{stored.history}", timeout=30).json()
    keep = ("sha", "subject", "files", "sloc", "callables", "complex_callables", "erosion",
            "verbosity")  # fmt: skip
    assert [{k: c[k] for k in keep} for c in api["commits"]] == [
        {k: c[k] for k in keep} for c in stored.history_json["commits"]
    ]
    for key in ("erosion_slope", "verbosity_slope", "source_commits", "blobs_measured"):
        assert api["summary"][key] == stored.history_json[key]


def test_click_through_list_report_rule_group_and_clone_group(
    stored: Stored, page: Page, tmp_path: Path
) -> None:
    page.goto(stored.url + "/code")
    expect(page.locator("table.reports tbody tr")).to_have_count(2)
    shoot(page, "code-list", tmp_path)
    page.locator(f'tr[data-report="{stored.tree}"] td a').first.click()
    expect(page.locator("h1")).to_contain_text(f"Code report {stored.tree}")
    row = page.locator('table.languages tr[data-language="python"]')
    expect(row.locator('td[data-key="sloc"]')).to_have_text(str(stored.measured["sloc"]))
    expect(page.locator("table.callables tbody tr").first).to_contain_text("busy")
    shoot(page, "code-report", tmp_path)
    group = page.locator("section#rule-equality-with-none")
    expect(group.locator(".explain")).to_contain_text("What it flags")
    group.locator("h3 a").click()
    expect(page.locator("h1")).to_have_text(f"equality-with-none in report {stored.tree}")
    expect(page.locator("table.hits tbody tr")).to_have_count(1)
    expect(page.locator("table.hits")).to_contain_text("pkg/d.py:")
    shoot(page, "code-rule", tmp_path)
    page.get_by_role("link", name="← back to the report").click()
    page.locator('table.clones tr[data-rank="0"] td a').first.click()
    members = page.locator("figure.member")
    expect(members).to_have_count(2)
    expect(members.nth(0)).to_contain_text("def first(items)")
    expect(members.nth(1)).to_contain_text("def second(values)")
    expect(members.nth(0).locator("pre")).to_contain_text(HOSTILE)  # shown as text
    assert page.evaluate("window.pwned") is None
    shoot(page, "code-clone", tmp_path)


def test_history_trajectory_drills_down_to_a_commit(
    stored: Stored, page: Page, tmp_path: Path
) -> None:
    page.goto(f"{stored.url}/code/{stored.history}")
    expect(page.locator("svg.trajectory title").first).to_contain_text("3 measured commits")
    expect(page.locator("svg.trajectory circle.erosion")).to_have_count(3)
    expect(page.locator("table.commits tbody tr")).to_have_count(3)
    expect(page.locator("table.commits")).to_contain_text("three <b>bold</b>")
    shoot(page, "code-history", tmp_path)
    last = stored.history_json["commits"][-1]
    page.locator(f'table.commits tr[data-sha="{last["sha"]}"] a').click()
    expect(page.locator("h1")).to_have_text(f"Commit {last['sha'][:10]}")
    expect(page.locator('tr[data-key="sloc"] td').nth(1)).to_have_text(str(last["sloc"]))
    shoot(page, "code-commit", tmp_path)
    page.get_by_role("link", name=re.compile("^←")).click()
    expect(page.locator("h1")).to_contain_text(stored.history_json["commits"][1]["sha"][:10])


class Links(HTMLParser):
    """The same-site links (``href`` starting with ``/``) of a page."""

    def __init__(self) -> None:
        super().__init__()
        self.found: set[str] = set()

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        href = dict(attrs).get("href") or ""
        if tag == "a" and href.startswith("/"):
            self.found.add(href.split("#")[0])


def test_every_link_from_the_code_pages_answers(stored: Stored) -> None:
    seen: set[str] = set()
    todo = ["/code"]
    while todo:
        path = todo.pop()
        if path in seen:
            continue
        seen.add(path)
        answer = httpx.get(stored.url + path, timeout=30)
        assert answer.status_code == 200, path
        if path.startswith("/code"):
            parser = Links()
            parser.feed(answer.text)
            todo += sorted(parser.found - seen)
    assert any("/clones/" in p for p in seen) and any("/commits/" in p for p in seen)
    assert any("/rules/" in p for p in seen)


@pytest.mark.parametrize(
    ("path", "status", "fragment"),
    [
        ("/code/abc", 400, "must be a whole number"),
        ("/code/99999", 404, "no code report has id 99999"),
        ("/code/1/clones/x", 400, "clone group"),
        ("/code/1/clones/9999", 404, "no clone group 9999"),
        ("/code/1/rules/no-such-rule", 404, "no hit of rule"),
        ("/code/2/commits/0000", 404, "measured no commit"),
        ("/code?before=-1", 400, "before"),
    ],
)
def test_bad_ids_are_error_pages(stored: Stored, path: str, status: int, fragment: str) -> None:
    answer = httpx.get(stored.url + path, timeout=30)
    assert answer.status_code == status
    assert "<h1>Error" in answer.text and fragment in answer.text
    assert httpx.get(f"{stored.url}/api/code/99999", timeout=30).status_code == 404


def test_diff_markdown_links_to_the_stored_report(stored: Stored, tmp_path: Path) -> None:
    markdown = tmp_path / "pr.md"
    page = f"{stored.url}/code/{stored.tree}"
    done = run_cli("code", "diff", "-C", str(stored.repo), "--markdown", str(markdown),
                   "--report-url", page + "/")  # fmt: skip
    assert done.returncode == 0, done.stderr
    text = markdown.read_text()
    assert f"Full report: [{page}]({page})" in text
    assert f"[new-hits]({page}/rules/equality-with-none)" in text
    assert f"[new-clones]({page}#clones)" in text
    for link in re.findall(r"\]\((http[^)#]+)", text):
        assert httpx.get(link, timeout=30).status_code == 200, link
