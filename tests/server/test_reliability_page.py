"""The calibration leaderboard page shows reliability diagrams as inline SVG (real uvicorn)."""

from __future__ import annotations

import re
from collections.abc import Callable
from xml.etree import ElementTree

import httpx
import pytest
from fastapi import FastAPI

from slopmark.board.leaderboard import leaderboard
from slopmark.board.query import RunFilter, stream_outcomes
from slopmark.server import create_app
from slopmark.server.chart import PANEL_LEFT, PANEL_SIDE, PANEL_TOP, reliability_panels
from slopmark.store import Run, insert_run, open_store

#: model → its answers as (stated confidence, correct): bins 1 and 9, and bins 4, 5 and 7
ANSWERS = {
    "sure": [(0.95, True)] * 4 + [(0.95, False)] * 2 + [(0.15, False)] * 4,
    "humble": [(0.55, True), (0.45, False), (0.52, True)] + [(0.71, True)] * 7,
}


def calibration_run(model: str, task: int, confidence: float, correct: bool) -> Run:
    return Run(
        task_id=f"c{task:02d}", domain="calibration", model=model, provider="openai-compat",
        harness_version="h1", mode="standard", task_set_version="ts1", source="seed",
        status="ok", output="answer", passed=correct, score=float(correct),
        details={"confidence": confidence, "correct": correct}, template_id=f"t{task // 2}",
        latency_ms=100.0, cost_usd=0.001,
    )  # fmt: skip


@pytest.fixture(scope="module")
def store_url(tmp_path_factory: pytest.TempPathFactory) -> str:
    url = f"sqlite:///{tmp_path_factory.mktemp('reliability') / 'runs.db'}"
    engine = open_store(url)
    for model, answers in ANSWERS.items():
        for task, (confidence, correct) in enumerate(answers):
            insert_run(engine, calibration_run(model, task, confidence, correct))
    engine.dispose()
    return url


def test_panels_place_each_bin_by_confidence_and_accuracy(store_url: str) -> None:
    engine = open_store(store_url)
    (board,) = leaderboard(stream_outcomes(engine, RunFilter()))
    panels = {panel.model: panel for panel in reliability_panels(board)}
    sure = panels["sure"]
    assert [(m.point.index, m.point.count) for m in sure.marks] == [(1, 4), (9, 6)]
    low, high = sure.marks
    assert low.x == pytest.approx(PANEL_LEFT + PANEL_SIDE * 0.15)
    assert low.y == pytest.approx(PANEL_TOP + PANEL_SIDE)  # accuracy 0: the bottom
    assert high.y == pytest.approx(PANEL_TOP + PANEL_SIDE / 3)  # accuracy 4/6
    assert high.r > low.r  # the fuller bin has the bigger dot
    assert [m.point.count for m in panels["humble"].marks] == [1, 2, 7]


def test_the_calibration_page_draws_a_diagram_per_model(
    store_url: str, serve_app: Callable[[FastAPI], str]
) -> None:
    url = serve_app(create_app(store_url, None))
    page = httpx.get(url + "/", params={"domain": "calibration"}, timeout=30).text
    svgs = re.findall(r'<svg class="reliability".*?</svg>', page, flags=re.DOTALL)
    drawn = {}
    for svg in svgs:
        root = ElementTree.fromstring(svg)
        model = root.get("aria-label", "").removeprefix("Reliability diagram of ")
        assert root.find("{*}line[@class='diagonal']") is not None
        bins = root.findall("{*}g[@class='bin']")
        drawn[model] = [(b.get("data-bin"), b.get("data-count")) for b in bins]
    assert drawn == {"sure": [("1", "4"), ("9", "6")],
                     "humble": [("4", "1"), ("5", "2"), ("7", "7")]}  # fmt: skip
    assert "ECE" in page and "cdn" not in page.lower()


def test_other_domains_show_no_reliability_diagram(
    store_url: str, serve_app: Callable[[FastAPI], str]
) -> None:
    url = serve_app(create_app(store_url, None))
    page = httpx.get(url + "/", params={"domain": "math"}, timeout=30).text
    assert 'class="reliability"' not in page
