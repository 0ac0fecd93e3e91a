"""The study pages over a real study: ``slopmark code study`` (the CLI in a subprocess) over
two git repositories made here and one missing path, into a real SQLite store, served by
uvicorn; the pages' numbers are held to ``code study report --json``, and chromium
(Playwright) clicks /studies → the study → a repository, with JavaScript off.

``SLOPMARK_SCREENSHOTS=docs/screenshots`` keeps the pages' screenshots there (else in a
temporary folder).
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from html.parser import HTMLParser
from pathlib import Path
from typing import Any

import httpx
import pytest
from fastapi import FastAPI
from playwright.sync_api import Browser, Page, expect

from server.browsing import needs_chromium, open_page
from slopmark.code.study.records import CommitPoint, RepoRecord, StudySettings
from slopmark.code.study.stored import ensure_study, store_repo
from slopmark.server import create_app
from slopmark.store import open_store
from sweep.conftest import cli, make_repo

pytestmark = pytest.mark.slow  # runs the CLI, uvicorn and chromium

STATS = ("first", "last", "change", "slope", "rose")
HOSTILE = "<script>alert('x')</script>"


@dataclass(frozen=True)
class RealStudy:
    url: str
    study: str
    report: dict[str, Any]
    db: str
    folder: Path


class Cells(HTMLParser):
    """Every element with a ``data-value`` (with its table's class and its row's data
    attributes), and every link, of a page."""

    def __init__(self) -> None:
        super().__init__()
        self.cells: list[dict[str, str]] = []
        self.links: list[str] = []
        self._table = ""
        self._row: dict[str, str] = {}

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        found = {name: value or "" for name, value in attrs}
        if tag == "table":
            self._table = found.get("class", "")
        elif tag == "tr":
            self._row = {f"row-{k}": v for k, v in found.items() if k.startswith("data-")}
        elif tag == "a" and "href" in found:
            self.links.append(found["href"])
        if "data-value" in found:
            self.cells.append({"table": self._table, **self._row, **found})


def parse(text: str) -> Cells:
    cells = Cells()
    cells.feed(text)
    return cells


def value(text: str) -> float | bool | None:
    """A ``data-value`` read back: empty is None, true/false a bool, else the number."""
    if text in ("true", "false"):
        return text == "true"
    return None if text == "" else float(text)


def one(cells: list[dict[str, str]], **equal: str) -> float | bool | None:
    """The value of the one cell whose attributes (``_`` for ``-``) equal ``equal``."""
    wanted = {key.replace("_", "-"): want for key, want in equal.items()}
    found = [c for c in cells if all(c.get(k) == v for k, v in wanted.items())]
    assert len(found) == 1, (equal, found)
    return value(found[0]["data-value"])


def report(folder: Path, *extra: str) -> dict[str, Any]:
    done = cli("code", "study", "report", str(folder), "--json", *extra)
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)  # type: ignore[no-any-return]


@pytest.fixture(scope="module")
def study(
    tmp_path_factory: pytest.TempPathFactory, serve_app: Callable[[FastAPI], str]
) -> RealStudy:
    """A real study of two generated repositories (7 and 8 commits) and a missing path."""
    root = tmp_path_factory.mktemp("study")
    make_repo(root / "repos" / "alpha", 7, 1)
    make_repo(root / "repos" / "beta", 8, 2)
    listing = root / "repos" / "REPOS.txt"
    listing.write_text(
        "# two repositories (in two groups) and a path that is not there\n"
        "alpha group=first\nbeta\tgroup=second\nmissing\n"
    )
    db, out = f"sqlite:///{root / 'study.db'}", root / "out"
    done = cli("code", "study", str(listing), "--db", db, "--out", str(out), "--json")
    assert done.returncode == 1, done.stderr  # the missing path failed; the others stored
    study_id = json.loads(done.stdout)["study"]
    return RealStudy(serve_app(create_app(db, None)), study_id, report(out), db, out)


def page_text(url: str, status: int = 200) -> str:
    answer = httpx.get(url, timeout=30)
    assert answer.status_code == status, (url, answer.status_code, answer.text[:500])
    return answer.text


def test_the_study_page_shows_the_reports_band(study: RealStudy) -> None:
    cells = parse(page_text(f"{study.url}/studies/{study.study}")).cells
    band = [c for c in cells if c["table"] == "band-table"]
    for metric, numbers in study.report["metrics"].items():
        for point in numbers["trajectory"]:
            for stat in ("n", "q1", "median", "q3"):
                shown = one(band, row_data_position=repr(point["position"]),
                            data_metric=metric, data_stat=stat)  # fmt: skip
                assert shown == point[stat], (metric, point, stat)
    assert len(band) == 2 * 4 * 11


def test_the_study_page_shows_each_repositorys_slopes_and_change(study: RealStudy) -> None:
    cells = parse(page_text(f"{study.url}/studies/{study.study}")).cells
    rows = [c for c in cells if c["table"] == "study-repos"]
    measured = [r for r in study.report["repositories"] if r["status"] == "ok"]
    assert len(measured) == 2
    for repo in measured:
        for metric in ("erosion", "verbosity"):
            defined = [c[metric] for c in repo["commits"] if c[metric] is not None]
            expected = {"slope": repo[f"{metric}_slope"], "rose": repo[f"{metric}_rose"],
                        "first": defined[0], "last": defined[-1],
                        "change": defined[-1] - defined[0]}  # fmt: skip
            for stat in STATS:
                shown = one(rows, row_data_line=str(repo["line"]), data_metric=metric,
                            data_stat=stat)  # fmt: skip
                assert shown == expected[stat], (repo["repo"], metric, stat)
    assert len(rows) == 2 * 2 * len(STATS)


def test_the_study_page_shows_the_share_that_rose_and_slope_quantiles(study: RealStudy) -> None:
    cells = parse(page_text(f"{study.url}/studies/{study.study}")).cells
    summary = [c for c in cells if c["table"] == "study-summary"]
    for metric, numbers in study.report["metrics"].items():
        assert one(summary, row_data_metric=metric, data_stat="rose") == numbers["rose"]["share"]
        for key, expected in numbers["slope"].items():
            stat = "slope-n" if key == "n" else f"slope-{key}"
            assert one(summary, row_data_metric=metric, data_stat=stat) == expected, key


def test_the_study_page_shows_the_papers_statistics_per_group(study: RealStudy) -> None:
    cells = [c for c in parse(page_text(f"{study.url}/studies/{study.study}")).cells
             if c["table"] == "study-paper"]  # fmt: skip
    groups = [("all", study.report["repos"]["used"], study.report["metrics"])]
    groups += [(g["group"], g["used"], g["metrics"]) for g in study.report["groups"]]
    assert [name for name, *_ in groups] == ["all", "first", "second"]
    for name, used, metrics in groups:
        for metric, numbers in metrics.items():
            row = {"row_data_group": name, "row_data_metric": metric}
            assert one(cells, **row, data_stat="used") == used
            for stat, key in (("rose", "rose"), ("rose-without-birth", "rose_without_birth")):
                found = [
                    c
                    for c in cells
                    if c.get("data-stat") == stat
                    and c["row-data-group"] == name
                    and c["row-data-metric"] == metric
                ]
                assert value(found[0]["data-value"]) == numbers[key]["share"]
                assert value(found[0]["data-low"]) == numbers[key]["low"]
            assert one(cells, **row, data_stat="growth") == numbers["growth"]["median"]
            assert one(cells, **row, data_stat="head-mean") == numbers["head_mean"]["mean"]


def test_the_api_twin_is_exactly_the_report(study: RealStudy) -> None:
    found = httpx.get(f"{study.url}/api/studies/{study.study}", timeout=30).json()
    progress = found.pop("progress")
    assert found == study.report
    assert (progress["status"], progress["stored"], progress["total"]) == ("finished", 3, 3)
    assert progress["failed"] == 1


def test_min_commits_counts_repositories_as_the_reports_option_does(study: RealStudy) -> None:
    expected = report(study.folder, "--min-commits", "8")
    assert expected["repos"]["used"] == 1  # alpha has 7 commits, beta 8
    text = page_text(f"{study.url}/studies/{study.study}?min_commits=8")
    band = [c for c in parse(text).cells if c["table"] == "band-table"]
    for point in expected["metrics"]["erosion"]["trajectory"]:
        position = repr(point["position"])
        shown = one(band, row_data_position=position, data_metric="erosion", data_stat="median")
        assert shown == point["median"]
    found = httpx.get(f"{study.url}/api/studies/{study.study}?min_commits=8", timeout=30).json()
    assert {k: v for k, v in found.items() if k != "progress"} == expected


def test_the_repository_page_lists_its_commits_as_the_report_does(study: RealStudy) -> None:
    repo = study.report["repositories"][1]
    text = page_text(f"{study.url}/studies/{study.study}/{repo['line']}")
    cells = [c for c in parse(text).cells if c["table"] == "study-commits"]
    for commit in repo["commits"]:
        for metric in ("erosion", "verbosity"):
            shown = one(cells, row_data_sha=commit["sha"], data_metric=metric)
            assert shown == commit[metric]
    assert repo["repo"] in text and text.count('<circle cx="') == 2 * len(repo["commits"])


def test_a_failed_repository_shows_its_reason(study: RealStudy) -> None:
    (failed,) = [r for r in study.report["repositories"] if r["status"] == "failed"]
    assert failed["error"].startswith("no such repository path")
    text = page_text(f"{study.url}/studies/{study.study}")
    assert "Failed repositories (1)" in text and failed["error"] in text
    assert failed["error"] in page_text(f"{study.url}/studies/{study.study}/{failed['line']}")


def test_the_list_shows_the_study_finished_with_its_failures(study: RealStudy) -> None:
    text = page_text(f"{study.url}/studies")
    assert f'href="/studies/{study.study}"' in text
    listed = httpx.get(f"{study.url}/api/studies", timeout=30).json()
    (row,) = listed["studies"]
    assert (row["study_id"], row["status"], row["ok"], row["failed"]) == (
        study.study, "finished", 2, 1,
    )  # fmt: skip


def test_every_link_of_the_study_pages_answers(study: RealStudy) -> None:
    pages = ["/studies", f"/studies/{study.study}", f"/studies/{study.study}?min_commits=8",
             f"/studies/{study.study}/3", f"/studies/{study.study}/4"]  # fmt: skip
    links = {link for path in pages for link in parse(page_text(study.url + path)).links}
    assert any(link.startswith(f"/studies/{study.study}/") for link in links)
    assert f"/studies/{study.study}/3?min_commits=8" in links
    for link in sorted(links):
        assert httpx.get(study.url + link, timeout=30).status_code == 200, link


@pytest.mark.parametrize(
    ("path", "status", "message"),
    [
        ("/studies/no-such-study", 404, "no study has id"),
        ("/studies/bad%20id", 400, "is not a study id"),
        ("/studies/{id}/99", 404, "no repository on line 99"),
        ("/studies/{id}/abc", 400, "repository line"),
        ("/studies/{id}?min_commits=0", 400, "min_commits"),
        ("/studies?page=x", 400, "page"),
    ],
)
def test_a_bad_address_is_a_clear_error_page(
    study: RealStudy, path: str, status: int, message: str
) -> None:
    text = page_text(study.url + path.replace("{id}", study.study), status)
    assert "<h1>Error" in text and message in text


def test_a_running_study_shows_its_progress_and_escapes_what_it_stores(
    tmp_path: Path, serve_app: Callable[[FastAPI], str]
) -> None:
    db = f"sqlite:///{tmp_path / 'running.db'}"
    engine = open_store(db)
    ensure_study(engine, "running-1", f"/{HOSTILE}/REPOS.txt", StudySettings(), total=5)
    points = tuple(
        CommitPoint(i, f"{i:040x}", "2024-01-01", f"{HOSTILE} {i}", 1, 10 + i, 1, 0, 0.1 * i, 0.0)
        for i in range(6)
    )  # fmt: skip
    store_repo(engine, "running-1", RepoRecord(f"/r/{HOSTILE}", 1, "ok", commits=points,
                                               erosion_slope=0.1, erosion_rose=True))  # fmt: skip
    store_repo(engine, "running-1", RepoRecord("/r/other", 2, "failed", error=f"boom {HOSTILE}"))
    engine.dispose()
    url = serve_app(create_app(db, None))
    for path in ("/studies", "/studies/running-1", "/studies/running-1/1"):
        text = page_text(url + path)
        assert "<script>alert" not in text and "&lt;script&gt;alert" in text, path
    text = page_text(url + "/studies/running-1")
    assert '<progress value="2" max="5">' in text and "2 of 5" in text and "Running" in text
    engine = open_store(db)  # a rerun measures the failed repository after all: a new page
    store_repo(engine, "running-1", RepoRecord("/r/other", 2, "ok", commits=points))
    engine.dispose()
    text = page_text(url + "/studies/running-1")
    assert "2 of 5" in text and "Failed repositories (0)" in text
    assert httpx.get(url + "/api/studies/running-1", timeout=30).json()["repos"]["used"] == 2


# --- in chromium, JavaScript off: /studies → a study → a repository -------------------


@pytest.fixture
def page(browser: Browser) -> Iterator[Page]:
    viewport = {"width": 1280, "height": 900}
    with open_page(browser, java_script_enabled=False, viewport=viewport) as opened:
        yield opened


@needs_chromium
def test_a_reader_clicks_from_the_list_to_a_study_and_a_repository(
    study: RealStudy, page: Page, shots: Path
) -> None:
    page.goto(study.url + "/studies")
    page.screenshot(path=str(shots / "studies.png"), full_page=True)
    page.get_by_role("link", name=study.study).click()
    expect(page.locator("h1")).to_have_text(f"Study {study.study}")
    expect(page.locator("svg.band")).to_have_count(2)
    expect(page.locator("table.study-repos tbody tr")).to_have_count(2)
    expect(page.locator("table.study-failed tbody tr")).to_have_count(1)
    page.screenshot(path=str(shots / "study.png"), full_page=True)
    beta = study.report["repositories"][1]
    page.locator(f'table.study-repos tr[data-line="{beta["line"]}"] a').click()
    expect(page.locator("h1")).to_have_text(beta["repo"])
    expect(page.locator("table.study-commits tbody tr")).to_have_count(len(beta["commits"]))
    expect(page.locator("svg.band.focus")).to_have_count(2)
    page.screenshot(path=str(shots / "study-repo.png"), full_page=True)


@needs_chromium
def test_a_repositorys_line_in_the_chart_leads_to_its_page(study: RealStudy, page: Page) -> None:
    page.goto(f"{study.url}/studies/{study.study}")
    trace = page.locator('figure[data-metric="verbosity"] a.trace').nth(0)
    expect(trace.locator("title")).to_contain_text("slope")
    trace.focus()
    page.keyboard.press("Enter")
    alpha = study.report["repositories"][0]
    expect(page.locator("h1")).to_have_text(alpha["repo"])
    assert page.url.endswith(f"/studies/{study.study}/{alpha['line']}")


def test_a_study_with_nothing_measured_yet_has_an_empty_band(
    tmp_path: Path, serve_app: Callable[[FastAPI], str]
) -> None:
    db = f"sqlite:///{tmp_path / 'empty.db'}"
    engine = open_store(db)
    ensure_study(engine, "empty-1", "/r/REPOS.txt", StudySettings(last=4), total=4)
    ensure_study(engine, "failed-1", "/r/REPOS.txt", StudySettings(), total=1)
    store_repo(engine, "failed-1", RepoRecord("/r/gone", 1, "failed", error="no such path"))
    engine.dispose()
    url = serve_app(create_app(db, None))
    text = page_text(url + "/studies/empty-1")
    assert "0 of 4" in text and "No repository of this study is measured yet" in text
    assert 'class="iqr"' not in text and "undefined (n=0)" in text
    assert "Finished" in page_text(url + "/studies/failed-1")
    listing = page_text(url + "/studies")
    assert "last 4" in listing and listing.index("failed-1") < listing.index("empty-1")
