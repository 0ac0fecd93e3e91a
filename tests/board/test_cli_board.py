"""``slopmark board`` end to end: the real CLI in a subprocess on a real SQLite store."""

from __future__ import annotations

import csv
import io
import json
import os
import subprocess
import sys
from dataclasses import replace
from pathlib import Path
from typing import Any
from xml.etree import ElementTree

import pytest

from board.runs import series_run
from slopmark.store import Run, insert_run, open_store

pytestmark = pytest.mark.slow  # starts python


def slopmark(*args: str) -> subprocess.CompletedProcess[str]:
    """The real CLI; no store URL leaks in from the environment."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("SLOPMARK_")}
    return subprocess.run(
        [sys.executable, "-m", "slopmark", *args],
        capture_output=True,
        text=True,
        env=env,
        timeout=120,
    )


def a_run(model: str, task: int, passed: bool, **values: Any) -> Run:
    outcome = {"passed": passed, "score": 1.0 if passed else 0.0}
    usual = {"latency_ms": 100.0, "cost_usd": 0.002, "template_id": f"tpl{task // 2}"}
    return series_run(model, task, **(outcome | usual | values))


@pytest.fixture(scope="module")
def db(tmp_path_factory: pytest.TempPathFactory) -> str:
    """Three models on math (one with extra tasks), a sparse one, and errored runs."""
    url = f"sqlite:///{tmp_path_factory.mktemp('board') / 'store.db'}"
    engine = open_store(url)
    plans = {"strong": [True] * 22 + [False] * 2, "weak": [True] * 8 + [False] * 12}
    plans["mid"] = [True] * 18 + [False] * 2
    plans["sparse"] = [True] * 3
    for model, passes in plans.items():
        for task, passed in enumerate(passes):
            insert_run(engine, a_run(model, task, passed))
    errored = a_run("weak", 30, False, status="error", error="HTTP 503")
    insert_run(engine, replace(errored, passed=None, score=None))
    engine.dispose()
    return url


def test_show_json_ranks_on_common_tasks(db: str) -> None:
    done = slopmark("board", "show", "--domain", "math", "--db", db, "--json")
    assert done.returncode == 0, done.stderr
    (board,) = json.loads(done.stdout)["boards"]
    assert board["group"] == {
        "domain": "math",
        "harness_version": "h1",
        "task_set_version": "ts1",
        "mode": "standard",
    }
    assert (board["tasks_used"], board["tasks_seen"], board["tasks_dropped"]) == (20, 24, 4)
    rows = {row["model"]: row for row in board["rows"]}
    assert [row["model"] for row in board["rows"]] == ["strong", "mid", "weak"]
    assert rows["strong"]["rank"] == "1–2" and rows["weak"]["rank"] == "3"
    assert rows["weak"]["errors"] == 1
    assert rows["strong"]["coverage"] == {"tasks": 24, "of": 24, "dropped": 4}
    assert rows["mid"]["pass_rate"]["n"] == 20 and rows["mid"]["templates"] == 10
    assert board["hidden"] == [{"model": "sparse", "n": 3, "errors": 0}]


def test_show_table_names_the_group_coverage_and_hidden_models(db: str) -> None:
    done = slopmark("board", "show", "--db", db, "--tasks", "all")
    assert done.returncode == 0, done.stderr
    out = " ".join(done.stdout.split())  # wrapped to 80 columns in a pipe
    assert "harness h1" in out and "task set ts1" in out
    assert "NOT COMPARABLE" in out
    assert "sparse (3 runs)" in out


def test_show_refuses_an_unknown_domain(db: str) -> None:
    done = slopmark("board", "show", "--domain", "maths", "--db", db)
    assert done.returncode == 2
    assert "did you mean 'math'" in done.stderr


def test_compare_json(db: str) -> None:
    done = slopmark("board", "compare", "strong", "weak", "--domain", "math", "--db", db, "--json")
    assert done.returncode == 0, done.stderr
    (comparison,) = json.loads(done.stdout)["comparisons"]
    assert comparison["common"] == 20
    paired = comparison["paired"]
    assert paired["n"] == 20 and paired["discordant"] == [12, 0]
    assert paired["mean_difference"] == pytest.approx(0.6)
    assert paired["mcnemar_p"] == pytest.approx(2 / 2**12)


def test_compare_an_unknown_model_exits_2(db: str) -> None:
    done = slopmark("board", "compare", "strong", "nobody", "--domain", "math", "--db", db)
    assert done.returncode == 2
    assert "models with runs there: mid, sparse, strong, weak" in done.stderr


def test_export_json_to_a_file_and_csv_to_stdout(db: str, tmp_path: Path) -> None:
    out = tmp_path / "runs.json"
    done = slopmark("board", "export", "--format", "json", "--out", str(out), "--db", db)
    assert done.returncode == 0, done.stderr
    runs = json.loads(out.read_text(encoding="utf-8"))["runs"]
    assert len(runs) == 24 + 20 + 20 + 3 + 1
    done = slopmark("board", "export", "--format", "csv", "--domain", "math", "--db", db)
    assert done.returncode == 0, done.stderr
    rows = list(csv.DictReader(io.StringIO(done.stdout)))
    assert [(r["model"], r["status"]) for r in rows] == [
        ("strong", "ranked"),
        ("mid", "ranked"),
        ("weak", "ranked"),
        ("sparse", "hidden"),
    ]


def test_export_refuses_an_unknown_format(db: str) -> None:
    done = slopmark("board", "export", "--format", "xml", "--db", db)
    assert done.returncode == 2
    assert "Invalid value for '--format'" in done.stderr


def test_gate_passes_and_writes_junit(db: str, tmp_path: Path) -> None:
    junit = tmp_path / "gate.xml"
    args = ("--domain", "math", "--min-pass-rate", "0.8", "--db", db, "--junit", str(junit))
    done = slopmark("board", "gate", "--model", "strong", *args)
    assert done.returncode == 0, done.stderr
    assert "PASS pass-rate" in done.stdout
    suite = ElementTree.parse(junit).getroot().find("testsuite")
    assert suite is not None and suite.get("failures") == "0"


def test_gate_fails_with_exit_1_and_the_reason(db: str, tmp_path: Path) -> None:
    junit = tmp_path / "gate.xml"
    args = ("--domain", "math", "--min-pass-rate", "0.8", "--db", db, "--junit", str(junit))
    done = slopmark("board", "gate", "--model", "strong", "--use-lower-bound", *args)
    assert done.returncode == 1
    assert "gate failed for strong" in done.stderr and "lower bound" in done.stderr
    suite = ElementTree.parse(junit).getroot().find("testsuite")
    assert suite is not None and suite.get("failures") == "1"


def test_gate_against_a_baseline(db: str) -> None:
    args = ("--domain", "math", "--min-pass-rate", "0.3", "--db", db, "--json")
    done = slopmark("board", "gate", "--model", "weak", "--baseline", "strong", *args)
    assert done.returncode == 1
    result = json.loads(done.stdout)
    assert [check["name"] for check in result["checks"]] == ["runs", "pass-rate", "baseline"]
    assert "significantly negative" in result["reason"]


def test_gate_on_an_unknown_model_exits_2(db: str) -> None:
    args = ("--domain", "math", "--min-pass-rate", "0.8", "--db", db)
    done = slopmark("board", "gate", "--model", "nobody", *args)
    assert done.returncode == 2
    assert "model 'nobody': no runs" in done.stderr


def test_adequacy_json(db: str) -> None:
    done = slopmark("board", "adequacy", "--db", db, "--json")
    assert done.returncode == 0, done.stderr
    rows = {row["domain"]: row for row in json.loads(done.stdout)["domains"]}
    assert len(rows) == 8
    math = rows["math"]
    assert math["scores"] == 24 + 20 + 20 + 3
    assert math["required"] is not None and math["tasks"] > 0
    assert rows["json"]["verdict"] == "unknown"


def test_every_board_command_has_help() -> None:
    done = slopmark("board", "--help")
    assert done.returncode == 0
    for command in ("show", "compare", "export", "gate", "adequacy"):
        assert command in done.stdout
