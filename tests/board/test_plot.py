"""Charts as real files: `slopmark.plot` and ``slopmark board plot`` through the real CLI."""

from __future__ import annotations

import math
import os
import struct
import subprocess
import sys
from pathlib import Path
from typing import Any
from xml.etree import ElementTree

import pytest
from pytest import approx
from sqlalchemy import Engine

from board.runs import series_run
from slopmark.board.costcap import CostCapability, cost_capability
from slopmark.board.leaderboard import Board, leaderboard
from slopmark.board.query import RunFilter, stream_outcomes
from slopmark.board.reliability import reliability
from slopmark.errors import BadInput
from slopmark.plot import bar_chart, cost_capability_chart, line_chart, reliability_chart
from slopmark.store import insert_run, open_store

PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"
SVG = "{http://www.w3.org/2000/svg}"
#: model → (passes of 12 tasks, cost per run); "unpriced" has no known cost
MODELS: dict[str, tuple[int, float | None]] = {
    "cheap": (7, 0.0005),
    "best": (11, 0.004),
    "dear": (9, 0.02),
    "unpriced": (10, None),
}


def slopmark(*args: str, cwd: Path | None = None) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("SLOPMARK_")}
    return subprocess.run(
        [sys.executable, "-m", "slopmark", *args],
        capture_output=True, text=True, env=env, cwd=cwd, timeout=300,
    )  # fmt: skip


def fill(engine: Engine, domain: str = "math", first: int = 0) -> None:
    for model, (passes, cost) in MODELS.items():
        for task in range(12):
            passed = task < passes
            insert_run(engine, series_run(
                model, first + task, domain=domain, passed=passed, score=1.0 if passed else 0.0,
                cost_usd=cost, latency_ms=50.0, template_id=f"tpl{task // 2}",
            ))  # fmt: skip


@pytest.fixture(scope="module")
def db(tmp_path_factory: pytest.TempPathFactory) -> str:
    url = f"sqlite:///{tmp_path_factory.mktemp('plot') / 'store.db'}"
    engine = open_store(url)
    fill(engine)
    fill(engine, "json", first=100)
    engine.dispose()
    return url


@pytest.fixture(scope="module")
def view(db: str) -> CostCapability:
    engine = open_store(db)
    (board,) = leaderboard(stream_outcomes(engine, RunFilter(domain="math")))
    engine.dispose()
    return cost_capability(board)


def svg_root(path: Path) -> ElementTree.Element:
    return ElementTree.fromstring(path.read_bytes())


def ids(root: ElementTree.Element) -> list[str]:
    return [element.get("id", "") for element in root.iter()]


def texts(root: ElementTree.Element) -> str:
    return " ".join(element.text or "" for element in root.iter(f"{SVG}text"))


def png_size(path: Path) -> tuple[int, int]:
    data = path.read_bytes()
    assert data[:8] == PNG_SIGNATURE
    width, height = struct.unpack(">II", data[16:24])
    return width, height


def test_the_view_places_priced_models_and_lists_the_unpriced(view: CostCapability) -> None:
    assert {p.model for p in view.points} == {"cheap", "best", "dear"}
    assert view.unknown_cost == ("unpriced",)
    assert [p.model for p in view.frontier] == ["cheap", "best"]  # dear: dearer and worse


def test_svg_has_labels_error_bars_the_frontier_and_the_unknown_cost_note(
    view: CostCapability, tmp_path: Path
) -> None:
    path = tmp_path / "chart.svg"
    cost_capability_chart(path, view)
    root = svg_root(path)
    found = ids(root)
    assert "frontier" in found
    assert sum(1 for i in found if i.startswith("errorbar-")) == 3
    assert sum(1 for i in found if i.startswith("point-")) == 3
    words = texts(root)
    assert all(model in words for model in ("cheap", "best", "dear"))
    assert "cost unknown, not plotted: unpriced" in words
    frontier = next(e for e in root.iter() if e.get("id") == "frontier")
    assert frontier.find(f"{SVG}path") is not None  # the staircase is drawn


def test_same_data_gives_identical_svg_bytes(view: CostCapability, tmp_path: Path) -> None:
    first, second = tmp_path / "a.svg", tmp_path / "b.svg"
    cost_capability_chart(first, view)
    cost_capability_chart(second, view)
    assert first.read_bytes() == second.read_bytes()
    assert b"dc:date" not in first.read_bytes()


def test_png_has_the_signature_and_the_chart_size(view: CostCapability, tmp_path: Path) -> None:
    path = tmp_path / "chart.png"
    cost_capability_chart(path, view)
    assert png_size(path) == (900, 560)


def test_a_free_model_is_plotted_at_zero_on_a_symlog_axis(tmp_path: Path) -> None:
    engine = open_store(f"sqlite:///{tmp_path / 'free.db'}")
    for task in range(10):
        insert_run(engine, series_run("local", task, passed=True, score=1.0, cost_usd=0.0))
        insert_run(engine, series_run("hosted", task, passed=task < 5, score=0.5, cost_usd=0.01))
    (board,) = leaderboard(stream_outcomes(engine, RunFilter()))
    view = cost_capability(board)
    assert {p.model: p.cost for p in view.points} == {"local": 0.0, "hosted": 0.01}
    path = tmp_path / "free.svg"
    cost_capability_chart(path, view)
    assert "$0" in texts(svg_root(path)) and "local" in texts(svg_root(path))


def test_line_chart_draws_each_series_with_gaps(tmp_path: Path) -> None:
    path = tmp_path / "phases.svg"
    phases = ["Start", "Early", "Mid", "Late", "Final"]
    series = {"solve rate": [0.1, 0.3, None, 0.6, 0.7], "quality": [0.5, 0.5, 0.4, 0.45, 0.5]}
    line_chart(path, title="by phase", x_labels=phases, series=series, y_label="rate",
               y_range=(0.0, 1.0))  # fmt: skip
    root = svg_root(path)
    assert {"series-0", "series-1"} <= set(ids(root))
    words = texts(root)
    assert all(label in words for label in (*phases, "solve rate", "quality", "by phase"))
    # the gap splits the first line in two: its path has two "M" (move) commands
    line = next(e for e in root.iter() if e.get("id") == "series-0").find(f"{SVG}path")
    assert line is not None and line.get("d", "").count("M") == 2


def test_bar_chart_leaves_none_out_and_sizes_the_png(tmp_path: Path) -> None:
    series = {"a": [1.0, None, 3.0], "b": [2.0, 2.5, 0.5]}
    svg, png = tmp_path / "bars.svg", tmp_path / "bars.png"
    for path in (svg, png):
        bar_chart(path, title="bars", categories=["x", "y", "z"], series=series, y_label="v")
    bars = sorted(i for i in ids(svg_root(svg)) if i.startswith("series-"))
    assert bars == ["series-0-0", "series-0-2", "series-1-0", "series-1-1", "series-1-2"]
    assert png_size(png) == (800, 480)


def test_bar_chart_marks_zero_bars_and_writes_each_value(tmp_path: Path) -> None:
    path = tmp_path / "zero.svg"
    bar_chart(path, title="zero", categories=["x", "y"], series={"a": [0.0, 0.5]}, y_label="v",
              y_range=(0.0, 1.0), value_format=lambda v: f"{100 * v:.0f}%")  # fmt: skip
    root = svg_root(path)
    found = set(ids(root))
    assert {"series-0-0-zero", "series-0-0-label", "series-0-1-label"} <= found
    assert "series-0-1-zero" not in found  # only a bar of exactly 0 gets the marker
    assert "0%" in texts(root) and "50%" in texts(root)


def test_a_y_range_without_a_high_end_starts_at_its_low_end(tmp_path: Path) -> None:
    path = tmp_path / "from0.svg"
    line_chart(path, title="t", x_labels=["a", "b"], series={"s": [0.4, 0.5]}, y_label="y",
               y_range=(0.0, None))  # fmt: skip
    tick = next(e for e in svg_root(path).iter() if e.get("id") == "ytick_1")
    assert float(texts(tick)) == 0  # fitted to the data, the axis would start near 0.4


@pytest.mark.parametrize(
    ("call", "message"),
    [
        ({"series": {"s": [1.0]}}, "1 values for 2 x labels"),
        ({"series": {"s": [1.0, math.inf]}}, "not a finite number"),
        ({"series": {"s": [1.0, 2.0]}, "y_range": (1.0, 0.0)}, "low end"),
        ({"series": {"s": [1.0, 2.0]}, "path": "out.pdf"}, "not suffix '.pdf'"),
    ],
)
def test_bad_chart_input_is_bad_input(call: dict[str, Any], message: str, tmp_path: Path) -> None:
    path = tmp_path / call.pop("path", "out.svg")
    with pytest.raises(BadInput, match=message.replace(".", r"\.")):
        line_chart(path, title="t", x_labels=["a", "b"], y_label="y", **call)
    assert not path.exists()


def calibration_board(tmp_path: Path) -> Board:
    """Two models on 10 calibration tasks with known confidences (see the bins below)."""
    engine = open_store(f"sqlite:///{tmp_path / 'calibration.db'}")
    stated = {
        "sure": [(0.95, True)] * 4 + [(0.95, False)] * 2 + [(0.15, False)] * 4,
        "humble": [(0.55, True), (0.45, False), (0.52, True)] + [(0.71, True)] * 7,
    }
    for model, answers in stated.items():
        for task, (confidence, correct) in enumerate(answers):
            details = {"confidence": confidence, "correct": correct}
            insert_run(engine, series_run(model, task, domain="calibration", passed=correct,
                                          score=float(correct), details=details))  # fmt: skip
    (board,) = leaderboard(stream_outcomes(engine, RunFilter()))
    return board


def test_reliability_bins_are_pinned(tmp_path: Path) -> None:
    view = reliability(calibration_board(tmp_path))
    curves = {curve.model: curve for curve in view.curves}
    sure = [(p.index, p.count, p.confidence, p.accuracy) for p in curves["sure"].points]
    assert sure == [(1, 4, approx(0.15), 0.0), (9, 6, approx(0.95), approx(4 / 6))]
    humble = [(p.index, p.count, p.confidence, p.accuracy) for p in curves["humble"].points]
    assert humble == [
        (4, 1, approx(0.45), 0.0), (5, 2, approx(0.535), 1.0), (7, 7, approx(0.71), 1.0),
    ]  # fmt: skip
    assert view.unstated == ()


def test_reliability_chart_draws_a_panel_per_model_with_counts(tmp_path: Path) -> None:
    view = reliability(calibration_board(tmp_path))
    path = tmp_path / "reliability.svg"
    reliability_chart(path, view)
    found = set(ids(svg_root(path)))
    assert {"diagonal-0", "diagonal-1", "reliability-0", "reliability-1"} <= found
    index = [curve.model for curve in view.curves].index("sure")
    assert {f"count-{index}-1", f"count-{index}-9"} <= found
    assert "sure" in texts(svg_root(path)) and "humble" in texts(svg_root(path))


def test_reliability_of_another_domain_is_bad_input(view: CostCapability, db: str) -> None:
    engine = open_store(db)
    (board,) = leaderboard(stream_outcomes(engine, RunFilter(domain="math")))
    with pytest.raises(BadInput, match="calibration"):
        reliability(board)


@pytest.mark.slow
def test_cli_plots_one_domain_and_notes_unknown_cost(db: str, tmp_path: Path) -> None:
    out = tmp_path / "math.png"
    done = slopmark("board", "plot", "--domain", "math", "--db", db, "--out", str(out))
    assert done.returncode == 0, done.stderr
    assert png_size(out) == (900, 560)
    assert "3 models plotted; Left off the cost view, cost unknown: " in done.stdout
    assert "no price was recorded for its runs (unpriced)" in done.stdout


@pytest.mark.slow
def test_cli_writes_one_file_per_domain_without_domain(db: str, tmp_path: Path) -> None:
    done = slopmark("board", "plot", "--db", db, "--out", str(tmp_path / "cc.svg"))
    assert done.returncode == 0, done.stderr
    assert sorted(p.name for p in tmp_path.iterdir()) == ["cc-json.svg", "cc-math.svg"]
    assert "math ·" in texts(svg_root(tmp_path / "cc-math.svg"))
    said = done.stdout.splitlines()[0]  # the user is told up front where the charts go
    assert said.startswith("2 boards, one chart each, named ") and "cc-<board>.svg" in said
    assert said.endswith(f"{tmp_path / 'cc.svg'} itself is not written")


@pytest.mark.slow
def test_cli_bad_suffix_exits_2(db: str, tmp_path: Path) -> None:
    done = slopmark("board", "plot", "--db", db, "--out", str(tmp_path / "chart.pdf"))
    assert done.returncode == 2
    assert "a chart is written as .png or .svg" in done.stderr
    assert list(tmp_path.iterdir()) == []


@pytest.mark.slow
def test_cli_reliability_needs_the_calibration_domain(db: str) -> None:
    done = slopmark("board", "plot", "--domain", "math", "--reliability", "--db", db)
    assert done.returncode == 2 and "only the calibration domain" in done.stderr


@pytest.mark.slow
def test_without_matplotlib_the_cli_names_the_extra(db: str, tmp_path: Path) -> None:
    code = (
        "import sys; sys.modules['matplotlib'] = None; "  # as if it were not installed
        "from slopmark.cli.main import main; "
        f"sys.argv = ['slopmark', 'board', 'plot', '--db', {db!r}, '--out', 'x.svg']; main()"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          cwd=tmp_path, timeout=120)  # fmt: skip
    assert done.returncode == 2
    assert "charts need: pip install 'slopmark[plot]'" in done.stderr
