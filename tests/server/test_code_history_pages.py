"""A long stored history's page on a real uvicorn (in this process): the table pages
through the commits, the chart keeps them all."""

from __future__ import annotations

import re
from collections.abc import Callable

import httpx
import pytest
from fastapi import FastAPI

from slopmark.code.measure.bounded import history_record
from slopmark.code.measure.stored_reports import store_report
from slopmark.server import create_app
from slopmark.server.code_pages import COMMITS_PAGE
from slopmark.store import open_store

COMMITS = 2 * COMMITS_PAGE + 50


@pytest.fixture(scope="module")
def history_url(
    tmp_path_factory: pytest.TempPathFactory, serve_app: Callable[[FastAPI], str]
) -> str:
    url = f"sqlite:///{tmp_path_factory.mktemp('history') / 'store.db'}"
    points = [
        {"sha": f"{i:040x}", "date": "2026-01-02T03:04:05+00:00", "subject": f"change {i}",
         "files": 1 + i, "sloc": 10 * i, "callables": i, "complex_callables": i // 10,
         "erosion": None if i == 7 else (i % 10) / 20, "verbosity": 0.25}
        for i in range(COMMITS)
    ]  # fmt: skip
    history = {"slopmark": "v", "repo": "r", "rev": "HEAD", "source_commits": COMMITS,
               "erosion_slope": 0.001, "verbosity_slope": 0.0, "commits": points}  # fmt: skip
    settings = {"cc_threshold": 10, "size_term": "sqrt"}
    engine = open_store(url)
    store_report(engine, history_record("r", "HEAD", "v", history, settings))
    engine.dispose()
    return serve_app(create_app(url, None)) + "/code/1"


def shas(html: str) -> list[int]:
    return [int(sha, 16) for sha in re.findall(r'<tr data-sha="([0-9a-f]{40})">', html)]


def test_the_table_pages_through_the_commits(history_url: str) -> None:
    first = httpx.get(history_url, timeout=30).text
    assert shas(first) == list(range(COMMITS_PAGE))
    assert f"?start={COMMITS_PAGE}#commits" in first and "← earlier" not in first
    last = httpx.get(f"{history_url}?start={2 * COMMITS_PAGE}", timeout=30).text
    assert shas(last) == list(range(2 * COMMITS_PAGE, COMMITS))
    assert f"?start={COMMITS_PAGE}#commits" in last and "later →" not in last


def test_the_chart_keeps_every_commit_and_breaks_at_an_undefined_value(history_url: str) -> None:
    html = httpx.get(history_url, timeout=30).text
    lines = re.findall(r'<polyline class="(\w+)" points="([^"]*)"', html)
    erosion = [points for metric, points in lines if metric == "erosion"]
    assert [len(points.split()) for points in erosion] == [7, COMMITS - 8]
    assert "<circle" not in html  # past MAX_MARKS: the lines only, the table links each commit


@pytest.mark.parametrize(("query", "status"), [("?start=x", 400), ("?start=99999", 200)])
def test_a_start_past_the_end_is_an_empty_page_and_a_bad_one_an_error(
    history_url: str, query: str, status: int
) -> None:
    answer = httpx.get(history_url + query, timeout=30)
    assert answer.status_code == status
    if status == 200:
        assert shas(answer.text) == []
