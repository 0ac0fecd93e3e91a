"""Results written before the code churn fields existed: `code bench report` recomputes
their relative churn from the run folder's snapshots and says so (hand-computed run of
test_report_phases, its result.json files stripped of the fields)."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from rich.console import Console
from tests.clirun import run_cli
from tests.code.bench.test_report_phases import CODE_CHURN, RELATIVE, run_dir

from slopmark.cli.bench_view import print_report, report_json
from slopmark.code.bench.readrun import read_run

__all__ = ["run_dir"]  # the fixture, shared with test_report_phases

FIELDS = ("code_lines_added", "code_lines_removed", "previous_code_lines")


def strip_churn(run: Path) -> None:
    """Rewrite every result.json as an old harness wrote it: no code churn fields."""
    for path in run.glob("*/*/result.json"):
        raw = json.loads(path.read_text(encoding="utf-8"))
        if raw["quality"] is not None:
            for name in FIELDS:
                del raw["quality"][name]
        path.write_text(json.dumps(raw), encoding="utf-8")


def churn_of(report: dict, problem: str) -> list:
    return [c["relative_churn"] for c in report["checkpoints"] if c["problem"] == problem]


def test_old_results_get_their_churn_back_from_the_snapshots(run_dir: Path) -> None:
    strip_churn(run_dir)
    found = read_run(run_dir)
    # problem a has its four snapshots; problem b has none, so nothing is imputed there
    assert found.recomputed == tuple(f"a/checkpoint_{n}" for n in range(1, 5))
    a = [r.quality for r in found.results if r.problem == "a"]
    assert [
        (q.code_lines_added, q.code_lines_removed, q.previous_code_lines) for q in a
    ] == CODE_CHURN
    report = report_json(run_dir, found.results, found.recomputed)
    assert churn_of(report, "a") == pytest.approx(RELATIVE)
    assert churn_of(report, "b") == [None, None]
    assert report["churn_recomputed"] == list(found.recomputed)
    assert report["summary"]["phases"]["Early"]["relative_churn"] == pytest.approx(0.6)
    console = Console(record=True, width=300)
    print_report(console, run_dir, found.results, found.recomputed)
    text = console.export_text()
    assert "0.60 +5/-1" in text
    assert "relative churn recomputed from the workspace snapshots for 4 checkpoints" in text


def test_a_missing_snapshot_is_skipped_and_the_one_before_it_is_the_previous(run_dir: Path) -> None:
    strip_churn(run_dir)
    shutil.rmtree(run_dir / "a" / "checkpoint_3" / "workspace")
    found = read_run(run_dir)
    assert found.recomputed == ("a/checkpoint_1", "a/checkpoint_2", "a/checkpoint_4")
    fourth = next(r for r in found.results if r.checkpoint == "checkpoint_4" and r.problem == "a")
    # from checkpoint 2's workspace: main.py loses x5 = 55 and x6..x9 (-5), util.py goes
    # (-4), b.py comes (+6); before: main.py 10 + util.py 4 = 14 lines
    assert fourth.quality is not None
    quality = fourth.quality
    assert (quality.code_lines_added, quality.code_lines_removed, quality.previous_code_lines) == (
        6,
        9,
        14,
    )
    assert quality.relative_churn == pytest.approx(15 / 14)
    third = next(r for r in found.results if r.checkpoint == "checkpoint_3" and r.problem == "a")
    assert third.quality is not None and third.quality.relative_churn is None


def test_new_results_are_left_as_stored(run_dir: Path) -> None:
    assert read_run(run_dir).recomputed == ()


@pytest.mark.slow
def test_report_command_says_which_checkpoints_were_recomputed(run_dir: Path) -> None:
    strip_churn(run_dir)
    done = run_cli("code", "bench", "report", str(run_dir), "--json")
    assert done.returncode == 0, done.stderr
    report = json.loads(done.stdout)
    assert report["churn_recomputed"] == [f"a/checkpoint_{n}" for n in range(1, 5)]
    assert churn_of(report, "a") == pytest.approx(RELATIVE)
    done = run_cli("code", "bench", "report", str(run_dir))
    assert "relative churn recomputed from the workspace snapshots for 4" in done.stdout
