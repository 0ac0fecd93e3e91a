"""`bench report --plot`'s charts, drawn in-process from a hand-made run folder
and read back as SVG text: titles name the run, zero bars show, n per phase."""

from __future__ import annotations

import json
from pathlib import Path
from xml.etree import ElementTree

from slopmark.cli.bench_plots import run_caption, write_plots
from slopmark.code.bench.results import AgentRecord, CaseOutcome, CheckpointResult, Quality

SVG = "{http://www.w3.org/2000/svg}"


def checkpoint(index: int, passed: bool, erosion: float) -> CheckpointResult:
    quality = Quality(erosion, erosion / 2, 100, 2, 5, 1, 12, 10, 2)
    return CheckpointResult(
        problem="p", problem_version=1, checkpoint=f"checkpoint_{index + 1}",
        order=index + 1, index=index, count=3, status="scored",
        agent=AgentRecord("ok", 10.0), quality=quality,
        tests=(CaseOutcome("t::core0", "core", "passed" if passed else "failed"),),
    )  # fmt: skip


def run_folder(tmp_path: Path, **record: str | None) -> Path:
    run_dir = tmp_path / "replay-run"
    run_dir.mkdir()
    (run_dir / "run.json").write_text(json.dumps(record), encoding="utf-8")
    return run_dir


def svg_texts(path: Path) -> tuple[ElementTree.Element, list[str]]:
    root = ElementTree.parse(path).getroot()
    return root, [t.text or "" for t in root.iter(f"{SVG}text")]


def group_text(root: ElementTree.Element, gid: str) -> str:
    group = next(e for e in root.iter() if e.get("id") == gid)
    return "".join(t.text or "" for t in group.iter(f"{SVG}text"))


def lowest_y_tick(root: ElementTree.Element) -> str:
    return group_text(root, "ytick_1")


def test_charts_name_the_run_show_zero_bars_and_n_per_phase(tmp_path: Path) -> None:
    run_dir = run_folder(tmp_path, agent="replay", model="m-1", prompt="just-solve")
    results = [checkpoint(0, True, 0.2), checkpoint(1, False, 0.3), checkpoint(2, True, 0.4)]
    written = write_plots(run_dir, results)
    assert sorted(p.name for p in written) == sorted(
        f"{chart}{suffix}" for chart in ("solve_rate_by_phase", "quality_by_phase")
        for suffix in (".png", ".svg")
    )  # fmt: skip
    caption = "replay-run · agent replay · model m-1 · prompt just-solve"
    solve, words = svg_texts(run_dir / "plots" / "solve_rate_by_phase.svg")
    assert "Solve rate by phase" in words and caption in words
    # Early (slot 1) failed: its strict bar is 0, drawn as a marker and labelled "0%"
    assert group_text(solve, "series-0-1-label") == "0%"
    assert any(e.get("id") == "series-0-1-zero" for e in solve.iter())
    assert group_text(solve, "series-0-0-label") == "100%"
    assert {"Start", "Early", "Final", "n=1"} <= set(words)
    assert float(lowest_y_tick(solve)) == 0
    quality, words = svg_texts(run_dir / "plots" / "quality_by_phase.svg")
    assert caption in words and "n=1" in words
    assert float(lowest_y_tick(quality)) == 0  # erosion ≥ 0.1 would fit an axis from 0.1


def test_a_run_without_a_model_says_model_unknown(tmp_path: Path) -> None:
    run_dir = run_folder(tmp_path, agent="replay", model=None, prompt="just-solve")
    assert run_caption(run_dir) == "replay-run · agent replay · model unknown · prompt just-solve"


def test_long_agent_command_lines_are_cut(tmp_path: Path) -> None:
    run_dir = run_folder(tmp_path, agent="python " + "x" * 80, model="m", prompt="p")
    agent = run_caption(run_dir).split(" · ")[1]
    assert agent.endswith("…") and len(agent) == len("agent ") + 40
