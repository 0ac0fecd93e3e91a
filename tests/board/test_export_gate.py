"""Streaming exports, store queries, gate decisions and JUnit XML, on real SQLite stores."""

from __future__ import annotations

import csv
import io
import json
from collections.abc import Iterator
from itertools import count, islice
from pathlib import Path
from typing import Any
from xml.etree import ElementTree

import pytest
from sqlalchemy import Engine

from board.runs import series_run
from slopmark.board.compare import compare
from slopmark.board.export import BATCH, CSV_COLUMNS, csv_lines, json_chunks, spreadsheet_safe
from slopmark.board.gate import gate, junit_xml, latest_group
from slopmark.board.leaderboard import Board, Outcome, leaderboard, stream_boards
from slopmark.board.query import (
    EXPORT_COLUMNS,
    RunFilter,
    models,
    score_spread,
    stream_outcomes,
    stream_records,
)
from slopmark.store import Run, insert_run, open_store


@pytest.fixture
def store(tmp_path: Path) -> Engine:
    return open_store(f"sqlite:///{tmp_path / 'store.db'}")


def a_run(model: str, task: int, passed: bool = True, **values: Any) -> Run:
    outcome = {"passed": passed, "score": 1.0 if passed else 0.0}
    usual = {"output": "a long answer", "latency_ms": 120.0, "cost_usd": None}
    return series_run(model, task, **(outcome | usual | values))


def fill(store: Engine, model: str, passes: list[bool], **values: Any) -> None:
    for task, passed in enumerate(passes):
        assert insert_run(store, a_run(model, task, passed, **values)) is not None


def board_of(store: Engine, *names: str) -> Board:
    (board,) = leaderboard(stream_outcomes(store, RunFilter()), "common", names)
    return board


# --- queries ---------------------------------------------------------------


def test_filters_select_by_every_column(store: Engine) -> None:
    fill(store, "a", [True] * 3)
    fill(store, "b", [True] * 2, source="seed", harness_version="h2")
    assert len(list(stream_outcomes(store, RunFilter(source="seed")))) == 2
    assert len(list(stream_outcomes(store, RunFilter(harness_version="h1")))) == 3
    assert len(list(stream_outcomes(store, RunFilter(models=("a", "b"))))) == 5
    assert list(stream_outcomes(store, RunFilter(domain="json"))) == []
    assert models(store, RunFilter()) == ["a", "b"]
    assert RunFilter(domain="math", models=("a",)).label() == "domain=math, model in (a)"
    assert RunFilter().label() == "all runs"


def test_outcomes_stream_by_group_when_asked(store: Engine) -> None:
    fill(store, "a", [True] * 2, harness_version="h2")
    fill(store, "a", [True] * 2, harness_version="h1", provider="other")
    grouped = [o.harness_version for o in stream_outcomes(store, RunFilter(), by_group=True)]
    assert grouped == ["h1", "h1", "h2", "h2"]
    stored = [o.harness_version for o in stream_outcomes(store, RunFilter())]
    assert stored == ["h2", "h2", "h1", "h1"]


def test_records_hold_the_export_columns_without_output(store: Engine) -> None:
    fill(store, "a", [True, False])
    records = list(stream_records(store, RunFilter()))
    assert [tuple(r) for r in records] == [EXPORT_COLUMNS] * 2
    assert [r["task_id"] for r in records] == ["t0", "t1"]
    assert "output" not in records[0]
    assert records[1]["passed"] is False and records[1]["cost_usd"] is None


def test_score_spread_is_the_sample_sd_of_ok_scores(store: Engine) -> None:
    fill(store, "a", [True, False, True, False])
    insert_run(store, a_run("a", 9, status="error", passed=None, score=None))
    spread = score_spread(store, RunFilter(domain="math"))
    assert spread.n == 4
    assert spread.sigma == pytest.approx((4 * 0.25 / 3) ** 0.5)
    assert score_spread(store, RunFilter(domain="json")).sigma is None


# --- exports ---------------------------------------------------------------


def test_json_export_is_one_document_with_every_run(store: Engine) -> None:
    fill(store, "a", [True, False])
    insert_run(store, a_run("a", 5, status="error", passed=None, score=None, error="HTTP 503"))
    text = "".join(json_chunks(stream_records(store, RunFilter()), {"filter": "all runs"}))
    document = json.loads(text)
    assert document["format"] == "slopmark.runs/1"
    assert document["filter"] == "all runs"
    assert [run["status"] for run in document["runs"]] == ["ok", "ok", "error"]
    assert document["runs"][0]["created_at"].endswith("+00:00")
    assert document["runs"][2]["error"] == "HTTP 503"


def test_json_export_of_nothing_is_valid() -> None:
    assert json.loads("".join(json_chunks([]))) == {"format": "slopmark.runs/1", "runs": []}


def test_json_export_streams_a_batch_at_a_time() -> None:
    endless = ({"id": i} for i in count())
    head, first, second = islice(json_chunks(endless), 3)
    assert head.endswith('"runs":[\n')
    assert first.startswith('{"id":0},{"id":1}') and first.endswith(f'{{"id":{BATCH - 1}}}')
    assert second.startswith(f',\n{{"id":{BATCH}}}')


def test_json_export_refuses_values_json_cannot_hold() -> None:
    with pytest.raises(TypeError, match="cannot export set"):
        "".join(json_chunks([{"id": {1}}]))


def test_csv_export_holds_rows_and_hidden_models(store: Engine) -> None:
    fill(store, "a", [True] * 10)
    fill(store, "b", [True] * 5 + [False] * 5)
    insert_run(store, a_run("few", 0))
    text = "".join(csv_lines(leaderboard(stream_outcomes(store, RunFilter()))))
    rows = list(csv.DictReader(io.StringIO(text)))
    assert tuple(rows[0]) == CSV_COLUMNS
    assert [(r["model"], r["status"], r["rank"]) for r in rows] == [
        ("a", "ranked", "1"),
        ("b", "ranked", "2"),
        ("few", "hidden", ""),
    ]
    assert rows[0]["avg_cost_usd"] == "" and rows[0]["cost_known"] == "0"
    assert rows[1]["pass_rate"] == "0.5" and rows[1]["n"] == "10"


def test_csv_cells_a_spreadsheet_would_run_are_text(store: Engine) -> None:
    """A model name anyone can submit that starts a formula is written with a leading
    apostrophe (OWASP's CSV-injection advice); numbers stay numbers."""
    fill(store, '=HYPERLINK("http://127.0.0.1/x","x")', [True] * 10)
    fill(store, "-cmd", [True] * 5 + [False] * 5)
    text = "".join(csv_lines(leaderboard(stream_outcomes(store, RunFilter()))))
    rows = list(csv.DictReader(io.StringIO(text)))
    assert [r["model"] for r in rows] == ["'=HYPERLINK(\"http://127.0.0.1/x\",\"x\")", "'-cmd"]
    assert rows[1]["pass_rate"] == "0.5"
    assert spreadsheet_safe("@SUM(1)") == "'@SUM(1)" and spreadsheet_safe(-1.5) == -1.5
    assert spreadsheet_safe("gpt-4o") == "gpt-4o"


def test_csv_of_no_boards_is_the_header() -> None:
    assert "".join(csv_lines([])) == ",".join(CSV_COLUMNS) + "\n"


def test_csv_export_streams_one_group_at_a_time(store: Engine) -> None:
    for harness in ("h1", "h2", "h3"):
        fill(store, "a", [True] * 5, harness_version=harness)
    seen: list[str] = []

    def watched() -> Iterator[Outcome]:
        for item in stream_outcomes(store, RunFilter(), by_group=True):
            seen.append(item.harness_version)
            yield item

    lines = csv_lines(stream_boards(watched()))
    next(lines)
    assert set(seen) == {"h1", "h2"}  # read one item past the first group, no further


# --- gates -----------------------------------------------------------------


def test_gate_passes_on_the_estimate(store: Engine) -> None:
    fill(store, "m", [True] * 17 + [False] * 3)
    result = gate(board_of(store, "m"), "m", 0.8)
    assert result.passed
    assert [c.name for c in result.checks] == ["runs", "pass-rate"]
    assert "0.850" in result.reason


def test_gate_fails_under_the_threshold_with_the_reason(store: Engine) -> None:
    fill(store, "m", [True] * 7 + [False] * 3)
    result = gate(board_of(store, "m"), "m", 0.8)
    assert not result.passed
    assert "pass rate 0.700" in result.reason and "< required 0.800" in result.reason


def test_gate_on_the_lower_bound_is_stricter(store: Engine) -> None:
    fill(store, "m", [True] * 17 + [False] * 3)
    board = board_of(store, "m")
    assert gate(board, "m", 0.8).passed
    strict = gate(board, "m", 0.8, use_lower_bound=True)
    assert not strict.passed
    assert "lower bound" in strict.reason


def test_gate_needs_five_runs(store: Engine) -> None:
    fill(store, "m", [True] * 4)
    result = gate(board_of(store, "m"), "m", 0.5)
    assert not result.passed
    assert "4 counted runs" in result.reason


def test_gate_fails_when_significantly_worse_than_the_baseline(store: Engine) -> None:
    fill(store, "m", [True] * 20 + [False] * 20)
    fill(store, "base", [True] * 40)
    items = list(stream_outcomes(store, RunFilter()))
    (comparison,) = compare(items, "m", "base")
    result = gate(board_of(store, "m"), "m", 0.4, baseline=comparison)
    assert not result.passed
    assert [c.passed for c in result.checks] == [True, True, False]
    assert "significantly negative" in result.reason


def test_gate_passes_when_not_significantly_worse(store: Engine) -> None:
    fill(store, "m", [True] * 39 + [False])
    fill(store, "base", [True] * 40)
    (comparison,) = compare(list(stream_outcomes(store, RunFilter())), "m", "base")
    assert gate(board_of(store, "m"), "m", 0.9, baseline=comparison).passed


def test_latest_group_is_where_the_model_last_ran(store: Engine) -> None:
    fill(store, "m", [True] * 3, harness_version="h2")
    fill(store, "m", [True] * 3, harness_version="h1", provider="other")
    items = list(stream_outcomes(store, RunFilter()))
    group = latest_group(items, "m")
    assert group is not None and group.harness_version == "h1"
    assert latest_group(items, "nobody") is None


def test_junit_xml_has_a_case_per_check_and_the_failures(store: Engine) -> None:
    fill(store, "m", [True] * 7 + [False] * 3)
    xml = junit_xml(gate(board_of(store, "m"), "m", 0.8))
    suite = ElementTree.fromstring(xml).find("testsuite")
    assert suite is not None
    assert (suite.get("tests"), suite.get("failures")) == ("2", "1")
    cases = {case.get("name"): case for case in suite.iter("testcase")}
    assert set(cases) == {"runs", "pass-rate"}
    failure = cases["pass-rate"].find("failure")
    assert failure is not None and "0.700" in (failure.get("message") or "")
    assert cases["runs"].find("failure") is None
