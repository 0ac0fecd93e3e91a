"""The run store on a real PostgreSQL server (CI starts one; set SLOPMARK_TEST_PG_URL to run)."""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Iterator
from dataclasses import replace

import pytest
from sqlalchemy import Engine, create_engine, text

from slopmark.store import (
    Run,
    Series,
    errored_task_ids,
    finished_task_ids,
    get_run,
    insert_run,
    open_store,
)

URL = os.environ.get("SLOPMARK_TEST_PG_URL")
pytestmark = [
    pytest.mark.skipif(not URL, reason="no PostgreSQL: set SLOPMARK_TEST_PG_URL"),
    pytest.mark.slow,  # needs a PostgreSQL server
]
SERIES = Series("m", "openai-compat", "h1", "standard", "ts1")


def a_run(task_id: str, **values: object) -> Run:
    base = Run(
        task_id=task_id,
        domain="math",
        model=SERIES.model,
        provider=SERIES.provider,
        harness_version=SERIES.harness_version,
        mode=SERIES.mode,
        task_set_version=SERIES.task_set_version,
        source="original",
        status="ok",
        output="42",
        passed=True,
        score=1.0,
        details={"checks": [{"name": "value"}]},
        latency_ms=12.5,
        input_tokens=10,
        output_tokens=2,
        cost_usd=None,
    )
    return replace(base, **values)  # type: ignore[arg-type]


@pytest.fixture
def store() -> Iterator[Engine]:
    assert URL is not None
    # A clean slate before the store opens: whatever a previous run (or a newer branch's
    # migrations) left in the database goes, so the migrations always start from nothing.
    bare = create_engine(URL)
    with bare.begin() as connection:
        connection.execute(text("DROP SCHEMA public CASCADE"))
        connection.execute(text("CREATE SCHEMA public"))
    bare.dispose()
    engine = open_store(URL)
    yield engine
    engine.dispose()


def test_a_run_round_trips_with_every_field(store: Engine) -> None:
    stored = insert_run(store, a_run("t1"))
    assert stored is not None and stored.id is not None
    again = get_run(store, stored.id)
    assert again == stored
    assert again.cost_usd is None  # unknown stays unknown on PostgreSQL too


def test_ok_runs_are_never_duplicated_and_errors_are_retryable(store: Engine) -> None:
    assert insert_run(store, a_run("t1")) is not None
    assert insert_run(store, a_run("t1")) is None  # a second ok run of the same series is refused
    failed = insert_run(
        store, a_run("t2", status="error", passed=None, score=None, error="HTTP 500")
    )
    assert failed is not None and failed.attempt == 1
    assert finished_task_ids(store, SERIES) == {"t1"}
    assert errored_task_ids(store, SERIES) == {"t2"}
    retried = insert_run(store, a_run("t2"))
    assert retried is not None and retried.attempt == 2
    assert errored_task_ids(store, SERIES) == set()


def test_paste_cli_writes_to_postgres(store: Engine) -> None:
    done = subprocess.run(
        [
            sys.executable,
            "-m",
            "slopmark",
            "eval",
            "paste",
            "--task",
            "math.ages.0",
            "--db",
            str(URL),
        ],
        input="The answer is 12\n",
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr
    with store.connect() as connection:
        rows = connection.execute(text("SELECT paste, latency_ms, cost_usd FROM runs")).all()
    assert [tuple(row) for row in rows] == [(True, 0.0, 0.0)]


def test_the_boards_fast_read_equals_the_outcome_path(store: Engine) -> None:
    """The group statement's PostgreSQL parts (JSON casts, boolean status) read right."""
    from board.runs import fill
    from slopmark.board.grouprows import EngineRows, RunFilter, stream_group_runs
    from slopmark.board.leaderboard import boards, leaderboard
    from slopmark.board.query import domains, stored_domains, stream_outcomes

    fill(store, 6)
    for where in (RunFilter(), RunFilter(domain="calibration", models=("m1", "m2"))):
        expected = leaderboard(stream_outcomes(store, where), "common")
        assert tuple(boards(stream_group_runs(EngineRows(store), where), "common")) == expected
    (calibrated,) = leaderboard(
        stream_outcomes(store, RunFilter(domain="calibration", harness_version="h1"))
    )
    assert any(row.calibration and row.calibration.n for row in calibrated.rows)
    assert stored_domains(store) == domains(store, RunFilter()) == ["calibration", "math"]


def test_the_change_fingerprint_sees_every_commit_and_only_commits(store: Engine) -> None:
    """The server keeps its boards while the snapshot is the same (`slopmark.store.changes`):
    an insert, update or delete committed by another connection changes it; an open
    transaction does not until it commits."""
    from slopmark.board.query import RunFilter
    from slopmark.server import reads
    from slopmark.server.boardcache import BoardCache
    from slopmark.store.changes import PostgresProbe, change_probe

    insert_run(store, a_run("t1"))
    probe, cache, math = change_probe(store), BoardCache(store), RunFilter(domain="math")
    assert isinstance(probe, PostgresProbe)
    kept = cache.boards(math)
    assert probe.fingerprint() == probe.fingerprint() and cache.boards(math) is kept
    other = create_engine(URL or "")
    changes = ("UPDATE runs SET passed = false", "DELETE FROM runs WHERE task_id = 't1'")
    for change in changes:
        with other.connect() as connection:
            before = probe.fingerprint()
            connection.execute(text(change))  # not committed yet: nothing to see
            assert cache.boards(math) == kept == tuple(reads.boards(store, math))
            connection.commit()
            assert probe.fingerprint() != before
            kept = cache.boards(math)
            assert kept == tuple(reads.boards(store, math))
    other.dispose()
    insert_run(store, a_run("t2"))
    assert cache.boards(math) != kept
    assert cache.boards(math) == tuple(reads.boards(store, math))
