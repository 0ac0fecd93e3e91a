"""Charts of a paste-only store: no model has a cost, yet nothing comes up as empty axes.

The store is filled the way a new user fills it: real ``slopmark eval paste``
runs in subprocesses, three models' answers to six math tasks (two
templates): ``ace`` answers every task right, ``half`` every other one,
``none`` none. Pasted answers carry no cost, so the cost–capability chart has
no point to place: ``board plot`` writes a pass-rate chart instead (the test
reads the SVG's marks) and ``/chart`` in a real uvicorn draws a dot and a
whisker per model with a caption saying why (the test counts them, and
chromium takes the page's screenshot: ``SLOPMARK_SCREENSHOTS=docs/screenshots``
keeps it for the docs, else a temporary folder).
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from xml.etree import ElementTree

import pytest
from fastapi import FastAPI
from playwright.sync_api import Browser

from server.browsing import needs_chromium, open_page
from slopmark.evals.pool import load_pool
from slopmark.server import create_app

pytestmark = pytest.mark.slow

SVG = "{http://www.w3.org/2000/svg}"
MODELS = ("ace", "half", "none")


def _env() -> dict[str, str]:
    return {k: v for k, v in os.environ.items() if not k.startswith("SLOPMARK_")}


def slopmark(*args: str, stdin: str = "") -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "slopmark", *args],
        input=stdin, capture_output=True, text=True, env=_env(), timeout=120,
    )  # fmt: skip


def _answer(model: str, index: int, expected: str) -> str:
    right = model == "ace" or (model == "half" and index % 2 == 0)
    return f"Answer: {expected}" if right else "Answer: -1"


@pytest.fixture(scope="module")
def paste_db(tmp_path_factory: pytest.TempPathFactory) -> str:
    """A store holding only pasted answers, stored by the real CLI."""
    url = f"sqlite:///{tmp_path_factory.mktemp('paste') / 'runs.db'}"
    tasks = [t for t in load_pool("math") if t.template_id in ("ages", "arithmetic-series")][:6]
    assert len({t.template_id for t in tasks}) == 2
    for model in MODELS:
        for index, task in enumerate(tasks):
            answer = _answer(model, index, str(task.verifier["answer"]))
            done = slopmark("eval", "paste", "--task", task.id, "--model", model, "--db", url,
                            stdin=answer)  # fmt: skip
            assert done.returncode == 0, done.stderr
    return url


def _marks(root: ElementTree.Element, prefix: str) -> list[ElementTree.Element]:
    """The groups matplotlib wrote for the drawn artists whose gid starts with ``prefix``,
    each holding the path (or use of a marker path) that draws it."""
    groups = [g for g in root.iter(f"{SVG}g") if g.get("id", "").startswith(prefix)]
    drawn = (f"{SVG}path", f".//{SVG}use")
    return [g for g in groups if any(g.find(kind) is not None for kind in drawn)]


def test_board_plot_of_a_paste_only_store_draws_pass_rate_per_model(
    paste_db: str, tmp_path: Path
) -> None:
    out = tmp_path / "chart.svg"
    done = slopmark("board", "plot", "--domain", "math", "--db", paste_db, "--out", str(out))
    assert done.returncode == 0, done.stderr
    assert "3 models drawn by pass rate" in done.stdout
    assert "pasted answers carry no cost (ace, half, none)" in done.stdout
    root = ElementTree.fromstring(out.read_bytes())
    assert len(_marks(root, "mark-")) == 3
    # "none" passed nothing: its interval is [0, 0] yet still drawn as a line
    assert len(_marks(root, "whisker-")) == 3
    words = " ".join(e.text or "" for e in root.iter(f"{SVG}text"))
    assert all(model in words for model in MODELS)
    assert "No cost axis" in words and "USD" not in words


def _chart_html(paste_db: str, serve_app: Callable[[FastAPI], str]) -> tuple[str, str]:
    url = serve_app(create_app(paste_db, None))
    import urllib.request

    with urllib.request.urlopen(f"{url}/chart?domain=math", timeout=30) as response:
        assert response.status == 200
        return url, response.read().decode()


def test_the_chart_page_draws_a_dot_and_whisker_per_model_and_says_why(
    paste_db: str, serve_app: Callable[[FastAPI], str]
) -> None:
    _url, html = _chart_html(paste_db, serve_app)
    svg = re.search(r'<svg class="passrates".*?</svg>', html, re.DOTALL)
    assert svg is not None, html
    drawn = svg.group(0)
    assert drawn.count("<circle ") == 3
    assert len(re.findall(r'<line class="whisker"', drawn)) == 3
    assert re.findall(r'data-model="([^"]+)"', drawn) == ["ace", "half", "none"]
    assert "<desc" in drawn and "<title" in drawn
    assert 'class="costcap"' not in html  # no empty cost axes
    caption = re.search(r'<p class="no-cost"[^>]*>(.*?)</p>', html, re.DOTALL)
    assert caption is not None and "pasted answers carry no cost" in caption.group(1)
    table = re.search(r'<table class="passrate-table">.*?</table>', html, re.DOTALL)
    assert table is not None and table.group(0).count("<tr>") == 4  # header + 3 models


@needs_chromium
def test_the_chart_page_in_chromium(
    paste_db: str, serve_app: Callable[[FastAPI], str], browser: Browser, tmp_path: Path
) -> None:
    url, _html = _chart_html(paste_db, serve_app)
    with open_page(browser, viewport={"width": 1100, "height": 700}) as page:
        page.goto(f"{url}/chart?domain=math")
        assert page.locator("svg.passrates circle").count() == 3
        assert page.locator("svg.passrates line.whisker").count() == 3
        assert page.locator(".no-cost").is_visible()
        box = page.locator("svg.passrates").bounding_box()
        assert box is not None and box["width"] > 300 and box["height"] > 100
        folder = Path(os.environ.get("SLOPMARK_SCREENSHOTS") or tmp_path)
        folder.mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(folder / "chart-no-cost.png"), full_page=True)


def test_board_plot_writes_no_empty_axes_when_every_model_is_hidden(tmp_path: Path) -> None:
    from dataclasses import replace

    from server.conftest import seeded_run
    from slopmark.store import insert_run, open_store

    url = f"sqlite:///{tmp_path / 'few.db'}"
    engine = open_store(url)
    for index in range(1, 4):  # 3 runs: fewer than a board shows
        insert_run(engine, replace(seeded_run("few", "math", index, True, 0.0), cost_usd=None))
    engine.dispose()
    out = tmp_path / "chart.svg"
    done = slopmark("board", "plot", "--domain", "math", "--db", url, "--out", str(out))
    assert done.returncode == 0, done.stderr
    assert "not written: no model has the 5 counted runs a board shows" in done.stdout
    assert not out.exists()


def test_a_partly_priced_board_names_the_models_left_off_the_cost_view(
    tmp_path: Path, serve_app: Callable[[FastAPI], str]
) -> None:
    from dataclasses import replace

    from server.conftest import seeded_run
    from slopmark.store import insert_run, open_store

    url = f"sqlite:///{tmp_path / 'mixed.db'}"
    engine = open_store(url)
    for index in range(1, 7):
        insert_run(engine, seeded_run("hosted", "math", index, index % 2 == 0, 0.002))
        pasted = replace(seeded_run("pasted", "math", index, True, 0.0), cost_usd=None)
        insert_run(engine, replace(pasted, provider="paste", paste=True))
    engine.dispose()
    _url, html = _chart_html(url, serve_app)
    svg = re.search(r'<svg class="costcap".*?</svg>', html, re.DOTALL)
    assert svg is not None and re.findall(r'data-model="([^"]+)"', svg.group(0)) == ["hosted"]
    assert "passrates" not in html
    assert "Left off the cost view, cost unknown: pasted answers carry no cost (pasted)." in html
