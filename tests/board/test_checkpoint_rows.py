"""A `code_iterative` board row carries the benchmark's numbers: per test group pass
rates, relative churn, CC>10 callables and time per checkpoint, hand-computed over
checkpoints stored through `ledger.store_result` in a real SQLite file, one of them an
old row (stored before these fields existed), read by every path the board has."""

from __future__ import annotations

import json
import os
from dataclasses import replace
from pathlib import Path

import pytest
from tests.clirun import run_cli

from slopmark.board.checkpoints import (
    CODE_ITERATIVE_DOMAIN,
    CheckpointMeans,
    checkpoint_numbers,
)
from slopmark.board.grouprows import EngineRows, RunFilter, SqliteRows, stream_group_runs
from slopmark.board.leaderboard import Board, boards, leaderboard
from slopmark.board.query import stream_outcomes
from slopmark.code.bench.ledger import DOMAIN, store_result, to_run
from slopmark.code.bench.results import AgentRecord, CaseOutcome, CheckpointResult, Quality
from slopmark.store import Run, insert_run, open_store
from slopmark.store.location import read_sqlite

MODEL = "replay:m-1"
#: per checkpoint of problem p: (status, {group: (passed, total)}, (code +, code -,
#: previous code lines), CC>10 callables, seconds)
CHECKPOINTS = [
    ("scored", {"core": (2, 2), "functionality": (1, 2)}, (10, 0, None), 0, 10.0),
    ("scored", {"core": (1, 2), "error": (0, 1)}, (5, 1, 10), 1, 20.0),  # churn 0.6
    ("agent_failed", {}, (2, 2, 16), 2, 30.0),  # churn 0.25; no group rate (tests did not run)
    ("scored", {"core": (1, 1), "regression": (3, 4)}, (0, 5, 16), 2, 40.0),  # churn 0.3125
    ("scored", {"core": (0, 2)}, (8, 0, 20), 3, 50.0),  # churn 0.4
]
#: problem q's one checkpoint, stored the old way: core 1/4, regression 1/1, CC>10 4, 60 s
#: By hand over the six: core (1 + 0.5 + 1 + 0 + 0.25) / 5 = 0.55; functionality 0.5 (1);
#: error 0 (1); regression (0.75 + 1) / 2; churn (0.6 + 0.25 + 0.3125 + 0.4) / 4 (q's
#: result predates the code churn: undefined); CC>10 (0+1+2+2+3+4) / 6; wall 210 / 6.
EXPECTED = CheckpointMeans(
    group_rates={"core": 0.55, "functionality": 0.5, "error": 0.0, "regression": 0.875},
    group_checkpoints={"core": 5, "functionality": 1, "error": 1, "regression": 2},
    relative_churn=1.5625 / 4, churn_checkpoints=4,
    complex_callables=2.0, measured_checkpoints=6,
    wall_per_checkpoint_s=35.0, timed_checkpoints=6,
)  # fmt: skip


def outcomes_of(groups: dict[str, tuple[int, int]]) -> tuple[CaseOutcome, ...]:
    return tuple(
        CaseOutcome(f"t::{g}{i}", g, "passed" if i < passed else "failed")
        for g, (passed, total) in groups.items()
        for i in range(total)
    )


def checkpoint(problem: str, index: int, spec: tuple, count: int) -> CheckpointResult:
    status, groups, churn, cc, seconds = spec
    return CheckpointResult(
        problem=problem, problem_version=1, checkpoint=f"checkpoint_{index + 1}",
        order=index + 1, index=index, count=count, status=status,
        agent=AgentRecord("ok", seconds / 2, cost_usd=0.01 * (index + 1)),
        tests=outcomes_of(groups) if status == "scored" else (),
        quality=Quality(0.2, 0.1, 50, 2, 5, cc, 12, 9, 9, *churn),
        timings={"total_s": seconds},
    )  # fmt: skip


def old_run() -> Run:
    """q's checkpoint as a harness before this change stored it: no group_rates,
    relative_churn or wall_s, and a quality without the code churn fields."""
    result = checkpoint(
        "q", 0, ("scored", {"core": (1, 4), "regression": (1, 1)}, (3, 0, 30), 4, 60.0), 2
    )
    run = to_run(result, "replay", "m-1", "just-solve")
    details = {
        k: v for k, v in run.details.items() if k not in ("group_rates", "relative_churn", "wall_s")
    }
    for name in ("code_lines_added", "code_lines_removed", "previous_code_lines"):
        del details["quality"][name]
    return replace(run, details=details)


def fill_store(root: Path) -> str:
    """The six checkpoints in a new SQLite store under ``root``; its URL."""
    url = f"sqlite:///{root / 'runs.db'}"
    engine = open_store(url)
    for index, spec in enumerate(CHECKPOINTS):
        result = checkpoint("p", index, spec, len(CHECKPOINTS))
        (root / "run" / "p" / result.checkpoint).mkdir(parents=True)
        assert store_result(engine, root / "run", result, "replay", "m-1", "just-solve")
    insert_run(engine, old_run())
    engine.dispose()
    return url


def the_row(found: tuple[Board, ...] | list[Board]) -> CheckpointMeans:
    (board,) = found
    assert board.group.domain == DOMAIN
    (row,) = board.rows
    assert row.model == MODEL and row.n == 6
    assert row.checkpoints is not None
    return row.checkpoints


def assert_expected(means: CheckpointMeans) -> None:
    assert means.group_rates == pytest.approx(EXPECTED.group_rates)
    assert means.relative_churn == pytest.approx(EXPECTED.relative_churn)
    assert means.complex_callables == pytest.approx(2.0)
    assert means == replace(
        EXPECTED, group_rates=means.group_rates, relative_churn=means.relative_churn
    )


def test_every_board_path_gives_the_checkpoint_numbers(tmp_path: Path) -> None:
    url = fill_store(tmp_path)
    where = RunFilter(domain=DOMAIN)
    engine = open_store(url)
    by_outcomes = leaderboard(stream_outcomes(engine, where))
    assert_expected(the_row(by_outcomes))
    connection = read_sqlite(url)
    assert connection is not None
    for source in (SqliteRows(connection), EngineRows(engine)):
        assert tuple(boards(stream_group_runs(source, where))) == by_outcomes


def test_stored_details_carry_the_new_fields_and_old_rows_stay_readable(tmp_path: Path) -> None:
    assert DOMAIN == CODE_ITERATIVE_DOMAIN  # the ledger's name is the one the board reads
    result = checkpoint("p", 1, CHECKPOINTS[1], 5)
    details = to_run(result, "replay", "m-1", "just-solve").details
    assert details["group_rates"] == {
        "core": 0.5,
        "functionality": None,
        "error": 0.0,
        "regression": None,
    }
    assert details["relative_churn"] == pytest.approx(0.6) and details["wall_s"] == 20.0
    stored = checkpoint_numbers(json.dumps(details))
    old = dict(details)
    for name in ("group_rates", "relative_churn", "wall_s"):
        del old[name]
    assert checkpoint_numbers(old) == stored  # derived from tests, quality and timings
    failed = to_run(checkpoint("p", 2, CHECKPOINTS[2], 5), "replay", "m-1", "just-solve").details
    assert set(failed["group_rates"].values()) == {None}
    assert checkpoint_numbers(None) == checkpoint_numbers({})


@pytest.mark.slow
def test_board_show_prints_the_checkpoint_columns(tmp_path: Path) -> None:
    url = fill_store(tmp_path)
    done = run_cli("board", "show", "--db", url, "--domain", DOMAIN, "--json")
    assert done.returncode == 0, done.stderr
    (board,) = json.loads(done.stdout)["boards"]
    means = board["rows"][0]["checkpoints"]
    assert means["group_rates"]["core"] == pytest.approx(0.55) and means["timed_checkpoints"] == 6
    # as wide as $COLUMNS allows, the table is printed whole (one line per row); a pipe
    # without it gets 80 columns, the table split in parts (tests/cli/test_table_widths.py)
    wide = {k: v for k, v in os.environ.items() if k != "LINES"} | {"COLUMNS": "250"}
    text = run_cli("board", "show", "--db", url, "--domain", DOMAIN, env=wide).stdout
    header = "".join(line for line in text.splitlines() if line.startswith("┃"))
    for column in ("core", "functionality", "error", "regression", "churn", "CC>10", "wall"):
        assert column in header
    (row,) = [line for line in text.splitlines() if MODEL in line]
    cells = [cell.strip() for cell in row.split("│")]
    # core, functionality, error, regression %, churn, CC>10, wall s: the last seven
    assert cells[-8:-1] == ["55.0", "50.0", "0.0", "87.5", "0.39", "2.0", "35.0"]
