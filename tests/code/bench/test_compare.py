"""`code bench compare`: two hand-made runs by phase, in JSON and in one figure read back
as SVG text (legend names, titles, every phase with its n, zero values drawn)."""

from __future__ import annotations

import json
from pathlib import Path
from xml.etree import ElementTree

import pytest
from tests.clirun import run_cli
from tests.code.bench.test_plots import SVG, group_text

from slopmark.cli.bench_compare import compare_json, compare_runs, write_compare_plots
from slopmark.code.bench.readrun import read_run
from slopmark.code.bench.results import (
    AgentRecord,
    CaseOutcome,
    CheckpointResult,
    Quality,
    write_result,
)

PHASES = ["Start", "Early", "Mid", "Late", "Final"]
#: run a: strict per checkpoint (phase order), erosion; Mid's erosion is 0
A = ([True, False, True, True, False], [0.1, 0.2, 0.0, 0.3, 0.4])
#: run b: never solved before Late (three 0% points), a 6th checkpoint of problem q at
#: Start that is not measured (quality None): its solve rate counts it, its erosion not
B = ([False, False, False, True, True], [0.2, 0.2, 0.2, 0.3, 0.5])


def result(
    problem: str, index: int, count: int, passed: bool, erosion: float | None
) -> CheckpointResult:
    quality = None if erosion is None else Quality(erosion, erosion / 2, 100, 2, 5, 1, 12, 10, 2,
                                                    4, 1, None if index == 0 else 50)  # fmt: skip
    return CheckpointResult(
        problem=problem, problem_version=1, checkpoint=f"checkpoint_{index + 1}",
        order=index + 1, index=index, count=count, status="scored",
        agent=AgentRecord("ok", 10.0), quality=quality, timings={"total_s": 5.0},
        tests=(CaseOutcome("t::core0", "core", "passed" if passed else "failed"),),
    )  # fmt: skip


def make_run(root: Path, name: str, agent: str, results: list[CheckpointResult]) -> Path:
    run_dir = root / name
    run_dir.mkdir(parents=True)
    record = {"agent": agent, "model": "m-1", "prompt": "just-solve"}
    (run_dir / "run.json").write_text(json.dumps(record), encoding="utf-8")
    for item in results:
        folder = run_dir / item.problem / item.checkpoint
        folder.mkdir(parents=True)
        write_result(folder / "result.json", item)
    return run_dir


@pytest.fixture
def runs(tmp_path: Path) -> list[Path]:
    a = [result("p", i, 5, passed, e) for i, (passed, e) in enumerate(zip(*A, strict=True))]
    b = [result("p", i, 5, passed, e) for i, (passed, e) in enumerate(zip(*B, strict=True))]
    b.append(result("q", 0, 2, True, None))
    return [make_run(tmp_path, "run-a", "replay", a), make_run(tmp_path, "run-b", "claude", b)]


def test_compare_json_gives_each_runs_phases_and_n(runs: list[Path]) -> None:
    found = compare_json(compare_runs([read_run(r) for r in runs]))
    assert found["phases"] == PHASES
    a, b = found["runs"]
    assert (a["label"], b["label"]) == ("replay · m-1 · just-solve", "claude · m-1 · just-solve")
    assert [a["phases"][p]["strict"] for p in PHASES] == [1.0, 0.0, 1.0, 1.0, 0.0]
    assert [a["phases"][p]["erosion"] for p in PHASES] == A[1]
    # b's Start: p's checkpoint 1 failed, q's passed → 1/2; erosion only over p's (measured)
    assert b["phases"]["Start"]["strict"] == 0.5 and b["phases"]["Start"]["erosion"] == 0.2
    assert b["n"]["strict"]["Start"] == 2 and b["n"]["erosion"]["Start"] == 1
    # relative churn (4 + 1) / 50 = 0.1 after the first checkpoint; none at Start
    assert a["phases"]["Early"]["relative_churn"] == pytest.approx(0.1)
    assert a["phases"]["Start"]["relative_churn"] is None and a["n"]["relative_churn"]["Start"] == 0
    assert b["run"]["agent"] == "claude" and b["churn_recomputed"] == []


def test_figure_names_runs_phases_and_draws_zero_values(runs: list[Path], tmp_path: Path) -> None:
    out = tmp_path / "figs"
    written = write_compare_plots(out, compare_runs([read_run(r) for r in runs]))
    assert sorted(p.name for p in written) == ["runs_by_phase.png", "runs_by_phase.svg"]
    assert (out / "runs_by_phase.png").stat().st_size > 0
    root = ElementTree.parse(out / "runs_by_phase.svg").getroot()
    words = [t.text or "" for t in root.iter(f"{SVG}text")]
    assert "replay · m-1 · just-solve" in words and "claude · m-1 · just-solve" in words
    titles = [group_text(root, f"panel-{i}-title") for i in range(4)]
    assert titles == ["Strict solve rate", "Erosion (mean)", "Verbosity (mean)",
                      "Relative churn (mean)"]  # fmt: skip
    assert any(w.startswith("2 runs by phase") for w in words)
    assert all(words.count(name) == 4 for name in PHASES)  # every phase in every panel
    # n per run in legend order where they differ (b's Start has q's checkpoint too)
    assert "n=1, 2" in words and "n=1" in words and "n=0" in words
    ids = {e.get("id") for e in root.iter()}
    # a's strict is 0 at Early and Final, b's at Start..Mid; a's erosion 0 at Mid
    zeros = {i for i in ids if i and i.endswith("-zero")}
    assert zeros == {
        "panel-0-series-0-1-zero", "panel-0-series-0-4-zero",
        "panel-0-series-1-1-zero", "panel-0-series-1-2-zero",
        "panel-1-series-0-2-zero", "panel-2-series-0-2-zero",
    }  # fmt: skip
    # b's Start is 1/2, not 0: no zero marker there; every axis starts at 0
    assert "panel-0-series-1-0-zero" not in ids
    assert [lowest_y_tick(root, panel) for panel in range(4)] == [0.0] * 4


def lowest_y_tick(root: ElementTree.Element, panel: int) -> float:
    """The first tick label of panel ``panel``'s y axis (matplotlib numbers the axes x, y,
    x, y… across the figure and the ticks across it too)."""
    axis = next(e for e in root.iter() if e.get("id") == f"matplotlib.axis_{2 * panel + 2}")
    tick = next(e for e in axis.iter() if (e.get("id") or "").startswith("ytick_"))
    return float("".join(t.text or "" for t in tick.iter(f"{SVG}text")))


def test_runs_sharing_agent_model_and_prompt_are_told_apart_by_folder(tmp_path: Path) -> None:
    one = [result("p", 0, 1, True, 0.1)]
    runs = [make_run(tmp_path, name, "replay", one) for name in ("first", "second")]
    labels = [c.label for c in compare_runs([read_run(r) for r in runs])]
    assert labels == ["replay · m-1 · just-solve [first]", "replay · m-1 · just-solve [second]"]


@pytest.mark.slow
def test_compare_command_prints_json_and_writes_the_figure(
    runs: list[Path], tmp_path: Path
) -> None:
    out = tmp_path / "figs"
    done = run_cli("code", "bench", "compare", *map(str, runs), "--json", "--plot", str(out))
    assert done.returncode == 0, done.stderr
    found = json.loads(done.stdout)
    assert [r["run_dir"] for r in found["runs"]] == [str(r) for r in runs]
    assert f"wrote {out / 'runs_by_phase.svg'}" in done.stderr
    assert (out / "runs_by_phase.svg").is_file() and (out / "runs_by_phase.png").is_file()


@pytest.mark.slow
def test_compare_needs_two_runs(runs: list[Path]) -> None:
    done = run_cli("code", "bench", "compare", str(runs[0]))
    assert done.returncode == 2
    assert done.stderr.strip().splitlines() == [
        "slopmark: error: compare: give two or more run folders (one run: `code bench report`)"
    ]
