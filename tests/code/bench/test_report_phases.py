"""`code bench report`'s pass rate per test group by phase and relative churn, on a
hand-computed fixture run (result.json files written without an agent)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from rich.console import Console

from slopmark.cli.bench_view import print_report, report_json
from slopmark.code.bench.quality import churn, code_churn, measure_workspace, text_files
from slopmark.code.bench.results import (
    AgentRecord,
    CaseOutcome,
    CheckpointResult,
    CheckpointStatus,
    Quality,
    write_result,
)
from slopmark.code.bench.runner import load_results

MAIN = [f"x{i} = {i}" for i in range(10)]
README = ["r0", "r1", "r2", "r3"]
#: Problem a's four workspaces. Only .py files are code; README.md and notes.txt are not.
WORKSPACES: list[dict[str, list[str]]] = [
    {"main.py": MAIN, "README.md": README, "notes.txt": ["n"]},
    # main.py: line 5 replaced (+1/-1); util.py new (+4); README.md +2 (text only)
    {
        "main.py": [*MAIN[:5], "x5 = 55", *MAIN[6:]],
        "util.py": [f"u{i} = 0" for i in range(4)],
        "README.md": [*README, "r4", "r5"],
        "notes.txt": ["n"],
    },
    # main.py back to MAIN (+1/-1); util.py removed (-4); b.py new (+6)
    {"main.py": MAIN, "b.py": [f"b{i} = 1" for i in range(6)], "README.md": README},
    # main.py loses its last 5 lines (-5)
    {"main.py": MAIN[:5], "b.py": [f"b{i} = 1" for i in range(6)], "README.md": README},
]
#: (code lines added, removed, previous checkpoint's code lines), by hand:
#: 1: everything is new: main.py 10 lines; no previous workspace.
#: 2: +1 (x5 = 55) +4 (util.py), -1 (x5 = 5); before: main.py 10 lines.
#: 3: +1 -1 (main.py) +6 (b.py) -4 (util.py); before: main.py 10 + util.py 4 = 14.
#: 4: -5 (main.py); before: main.py 10 + b.py 6 = 16.
CODE_CHURN = [(10, 0, None), (5, 1, 10), (7, 5, 14), (0, 5, 16)]
#: relative churn = (added + removed) / previous: –, 6/10, 12/14, 5/16.
RELATIVE = [None, 0.6, 12 / 14, 5 / 16]


def outcomes(**groups: tuple[int, int]) -> tuple[CaseOutcome, ...]:
    """``group=(passed, total)`` → that many passed then failed tests."""
    return tuple(
        CaseOutcome(f"t::{group}{i}", group, "passed" if i < passed else "failed")
        for group, (passed, total) in groups.items()
        for i in range(total)
    )


def quality(cc: int, churn: tuple[int, int, int | None], text: tuple[int, int]) -> Quality:
    return Quality(0.2, 0.1, 50, 2, 5, cc, 11, *text, *churn)


def checkpoint(
    problem: str,
    index: int,
    count: int,
    tests: tuple[CaseOutcome, ...],
    q: Quality,
    cost: float | None,
    total_s: float,
    status: CheckpointStatus = "scored",
) -> CheckpointResult:
    return CheckpointResult(
        problem=problem,
        problem_version=1,
        checkpoint=f"checkpoint_{index + 1}",
        order=index + 1,
        index=index,
        count=count,
        status=status,
        agent=AgentRecord("ok" if status == "scored" else "failed", total_s, cost_usd=cost),
        tests=tests,
        quality=q,
        timings={"total_s": total_s},
    )


def write_workspaces(run_dir: Path) -> list[Path]:
    folders = []
    for n, files in enumerate(WORKSPACES, start=1):
        folder = run_dir / "a" / f"checkpoint_{n}" / "workspace"
        for name, lines in files.items():
            (folder / name).parent.mkdir(parents=True, exist_ok=True)
            (folder / name).write_text("\n".join(lines) + "\n", encoding="utf-8")
        folders.append(folder)
    return folders


@pytest.fixture
def run_dir(tmp_path: Path) -> Path:
    """Problem a: 4 checkpoints (Start, Early, Mid, Final), churn from real workspaces;
    problem b: 2 checkpoints (Start, Final), churn written by hand."""
    run = tmp_path / "run"
    folders = write_workspaces(run)
    (run / "run.json").write_text(json.dumps({"agent": "fixture"}), encoding="utf-8")
    churns, texts = [], []
    for before, after in zip([None, *folders], folders, strict=False):
        old = text_files(before) if before is not None else None
        new = text_files(after)
        found = code_churn(old, new)
        churns.append((found.added, found.removed, found.previous_lines))
        texts.append(churn(before, after))
    a_tests = [
        outcomes(core=(2, 2), functionality=(1, 2), error=(0, 1)),
        outcomes(core=(3, 4), regression=(2, 2)),
        (),  # the agent failed: no tests ran
        outcomes(core=(1, 1), error=(1, 2), regression=(3, 4)),
    ]
    a_status: list[CheckpointStatus] = ["scored", "scored", "agent_failed", "scored"]
    results = [
        checkpoint(
            "a", i, 4, a_tests[i], quality(cc, churns[i], texts[i]), cost, total, a_status[i]
        )
        for i, (cc, cost, total) in enumerate(
            [(0, 0.1, 10), (1, 0.2, 20), (2, 0.3, 30), (2, 0.4, 40)]
        )
    ]
    results += [
        checkpoint(
            "b",
            0,
            2,
            outcomes(core=(1, 3), error=(2, 2)),
            quality(0, (8, 0, None), (9, 0)),
            1.0,
            50,
        ),
        checkpoint(
            "b",
            1,
            2,
            outcomes(core=(0, 2), regression=(1, 1)),
            quality(3, (3, 1, 20), (3, 1)),
            None,
            60,
        ),
    ]
    for result in results:
        folder = run / result.problem / result.checkpoint
        folder.mkdir(parents=True, exist_ok=True)
        write_result(folder / "result.json", result)
    return run


def test_code_churn_of_the_workspaces(run_dir: Path) -> None:
    checkpoints = report_json(run_dir, load_results(run_dir))["checkpoints"]
    a = [c for c in checkpoints if c["problem"] == "a"]
    code = [
        (
            c["quality"]["code_lines_added"],
            c["quality"]["code_lines_removed"],
            c["quality"]["previous_code_lines"],
        )
        for c in a
    ]
    assert code == CODE_CHURN
    assert [c["relative_churn"] for c in a] == pytest.approx(RELATIVE)
    # every text file: checkpoint 2 adds README.md's 2 lines to the code's +5/-1
    assert (a[1]["quality"]["lines_added"], a[1]["quality"]["lines_removed"]) == (7, 1)
    assert [c["relative_churn"] for c in checkpoints if c["problem"] == "b"] == [None, 0.2]


def test_per_checkpoint_groups(run_dir: Path) -> None:
    first = report_json(run_dir, load_results(run_dir))["checkpoints"][0]
    assert first["groups"]["functionality"] == {
        "checkpoints": 1,
        "passed": 1,
        "total": 2,
        "rate": 0.5,
        "pooled": 0.5,
    }
    assert first["groups"]["regression"]["rate"] is None


def test_group_pass_rates_by_phase(run_dir: Path) -> None:
    phases = report_json(run_dir, load_results(run_dir))["summary"]["phases"]
    assert list(phases) == ["Start", "Early", "Mid", "Final"]
    start = phases["Start"]["groups"]
    # core: a1 2/2 = 1, b1 1/3 → mean (1 + 1/3) / 2 = 2/3; pooled 3/5
    assert start["core"]["rate"] == pytest.approx(2 / 3)
    assert (start["core"]["passed"], start["core"]["total"], start["core"]["pooled"]) == (3, 5, 0.6)
    # error: a1 0/1 = 0, b1 2/2 = 1 → mean 1/2; pooled 2/3
    assert start["error"]["rate"] == 0.5 and start["error"]["pooled"] == pytest.approx(2 / 3)
    assert start["functionality"]["rate"] == 0.5 and start["functionality"]["checkpoints"] == 1
    assert start["regression"] == {
        "checkpoints": 0,
        "passed": 0,
        "total": 0,
        "rate": None,
        "pooled": None,
    }
    assert phases["Early"]["groups"]["core"]["rate"] == 0.75  # a2 3/4
    assert phases["Early"]["groups"]["regression"]["rate"] == 1.0  # a2 2/2
    # Mid holds a3 only, whose tests did not run: no group rate at all
    assert all(g["rate"] is None for g in phases["Mid"]["groups"].values())
    final = phases["Final"]["groups"]
    # core: a4 1/1 = 1, b2 0/2 = 0 → 1/2; pooled 1/3. regression: 3/4, 1/1 → 7/8; pooled 4/5
    assert final["core"]["rate"] == 0.5 and final["core"]["pooled"] == pytest.approx(1 / 3)
    assert final["regression"]["rate"] == 0.875 and final["regression"]["pooled"] == 0.8
    assert final["error"]["rate"] == 0.5  # a4 1/2
    # all: core 1, 1/3, 3/4, 1, 0 → 37/12 / 5 = 37/60; pooled (2+1+3+1+0)/(2+3+4+1+2) = 7/12
    overall = report_json(run_dir, load_results(run_dir))["summary"]["overall"]["groups"]["core"]
    assert overall["rate"] == pytest.approx(37 / 60) and overall["pooled"] == pytest.approx(7 / 12)


def test_churn_complexity_cost_and_time_by_phase(run_dir: Path) -> None:
    summary = report_json(run_dir, load_results(run_dir))["summary"]
    phases = summary["phases"]
    assert phases["Start"]["relative_churn"] is None  # no previous checkpoint
    assert phases["Early"]["relative_churn"] == pytest.approx(0.6)
    assert phases["Mid"]["relative_churn"] == pytest.approx(12 / 14)  # a3 failed, still measured
    # Final: a4 5/16 = 0.3125, b2 (3 + 1)/20 = 0.2 → 0.25625
    assert phases["Final"]["relative_churn"] == pytest.approx(0.25625)
    # all: (0.6 + 12/14 + 0.3125 + 0.2) / 4
    assert summary["overall"]["relative_churn"] == pytest.approx((0.6 + 12 / 14 + 0.5125) / 4)
    assert phases["Start"]["complex_callables"] == 0 and phases["Final"]["complex_callables"] == 2.5
    # cost: Start 0.1 and 1.0 → 0.55; Final 0.4 (b2's cost is unknown). Time: Start (10+50)/2
    assert phases["Start"]["cost_per_checkpoint_usd"] == pytest.approx(0.55)
    assert phases["Final"]["cost_per_checkpoint_usd"] == pytest.approx(0.4)
    assert phases["Start"]["wall_per_checkpoint_s"] == 30
    assert phases["Final"]["wall_per_checkpoint_s"] == 50


def test_text_report_shows_groups_and_churn(run_dir: Path) -> None:
    console = Console(record=True, width=300)
    print_report(console, run_dir, load_results(run_dir))
    text = console.export_text()
    assert "Test pass rate by group" in text
    assert "66.7% (3/5)" in text  # Start, core
    assert "0.60 +5/-1" in text  # a2's churn cell
    assert "0.26" in text  # Final's mean relative churn


def test_results_written_before_code_churn_still_report(run_dir: Path) -> None:
    path = run_dir / "b" / "checkpoint_2" / "result.json"
    raw = json.loads(path.read_text(encoding="utf-8"))
    for name in ("code_lines_added", "code_lines_removed", "previous_code_lines"):
        del raw["quality"][name]
    path.write_text(json.dumps(raw), encoding="utf-8")
    report = report_json(run_dir, load_results(run_dir))
    assert report["checkpoints"][-1]["relative_churn"] is None
    assert report["summary"]["phases"]["Final"]["relative_churn"] == pytest.approx(5 / 16)
    console = Console(record=True, width=300)
    print_report(console, run_dir, load_results(run_dir))
    assert "+3/-1 (all)" in console.export_text()


def test_measure_workspace_stores_the_code_churn(tmp_path: Path) -> None:
    first, second = write_workspaces(tmp_path)[:2]
    start, step = measure_workspace(first, None), measure_workspace(second, first)
    assert (start.code_lines_added, start.code_lines_removed, start.previous_code_lines) == (
        10,
        0,
        None,
    )
    assert start.relative_churn is None
    assert (step.code_lines_added, step.code_lines_removed, step.previous_code_lines) == (5, 1, 10)
    assert (step.lines_added, step.lines_removed) == (7, 1)
    assert step.relative_churn == pytest.approx(0.6)
