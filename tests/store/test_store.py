"""The run store on real SQLite files: round-trips, uniqueness, pragmas, migrations, URLs."""

from __future__ import annotations

import itertools
import sqlite3
from dataclasses import replace
from datetime import UTC, datetime, timedelta, timezone
from pathlib import Path
from typing import Any

import pytest
from alembic.autogenerate import compare_metadata
from alembic.migration import MigrationContext
from hypothesis import given, settings
from hypothesis import strategies as st
from sqlalchemy import Engine, inspect

import slopmark.store as store_package
from slopmark.errors import BadInput
from slopmark.store import (
    Run,
    Series,
    database_url,
    default_url,
    errored_task_ids,
    finished_task_ids,
    get_run,
    insert_run,
    list_runs,
    open_store,
    series_runs,
)
from slopmark.store.location import HEAD_REVISION
from slopmark.store.schema import metadata

SERIES = Series("m", "openai-compat", "h1", "standard", "ts1")


def a_run(task_id: str = "t1", **values: Any) -> Run:
    fields: dict[str, Any] = {
        "task_id": task_id,
        "domain": "math",
        "model": SERIES.model,
        "provider": SERIES.provider,
        "harness_version": SERIES.harness_version,
        "mode": SERIES.mode,
        "task_set_version": SERIES.task_set_version,
        "source": "original",
        "status": "ok",
        "output": "42",
        "passed": True,
        "score": 1.0,
    }
    return Run(**(fields | values))


@pytest.fixture
def store(tmp_path: Path) -> Engine:
    return open_store(f"sqlite:///{tmp_path / 'store.db'}")


# --- round trips -------------------------------------------------------------

_text = st.text(alphabet=st.characters(exclude_categories=["Cs"]), max_size=60)
_short = st.text(alphabet=st.characters(exclude_categories=["Cs"]), min_size=1, max_size=30)
_number = st.floats(min_value=0, max_value=1e9, allow_nan=False)
_json = st.recursive(
    st.none()
    | st.booleans()
    | st.integers(-(2**53), 2**53)
    | st.floats(allow_nan=False, allow_infinity=False)
    | _text,
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(_text, inner, max_size=4),
    max_leaves=12,
)
_stamp = st.datetimes(
    min_value=datetime(2000, 1, 1), max_value=datetime(2100, 1, 1), timezones=st.sampled_from(
        [UTC, timezone(timedelta(hours=5, minutes=30)), timezone(timedelta(hours=-8))]
    )
)
_runs = st.builds(
    Run,
    task_id=_short,
    domain=_short,
    model=_short,
    provider=_short,
    harness_version=_short,
    mode=_short,
    task_set_version=_short,
    source=_short,
    status=st.sampled_from(["ok", "error"]),
    output=_text,
    passed=st.none() | st.booleans(),
    score=st.none() | st.floats(0, 1),
    details=st.dictionaries(_text, _json, max_size=5),
    ambiguous=st.booleans(),
    upstream=st.none() | _short,
    template_id=st.none() | _short,
    latency_first_byte_ms=st.none() | _number,
    latency_ms=st.none() | _number,
    input_tokens=st.none() | st.integers(0, 2**62),
    output_tokens=st.none() | st.integers(0, 2**62),
    finish_reason=st.none() | _short,
    truncated=st.booleans(),
    cost_usd=st.none() | _number,
    paste=st.booleans(),
    error=st.none() | _text,
    created_at=st.none() | _stamp,
)


def test_a_run_round_trips_with_every_field(store: Engine) -> None:
    fresh = itertools.count()

    @settings(max_examples=150, deadline=None)
    @given(generated=_runs)
    def check(generated: Run) -> None:
        # a fresh task id per example: the store refuses a second ok run of a task
        run = replace(generated, task_id=f"{next(fresh)}:{generated.task_id}")
        stored = insert_run(store, run)
        assert stored is not None and stored.id is not None
        assert stored.attempt == 1
        assert stored.created_at is not None and stored.created_at.tzinfo is not None
        assert stored == replace(run, id=stored.id, attempt=1, created_at=stored.created_at)
        if run.created_at is not None:
            assert stored.created_at == run.created_at
        assert get_run(store, stored.id) == stored

    check()


def test_text_that_is_no_valid_unicode_is_stored_with_replacement_characters(store: Engine) -> None:
    stored = insert_run(store, a_run(output="half \ud83d pair", error="x\udfff"))
    assert stored is not None and stored.id is not None
    again = get_run(store, stored.id)
    assert again is not None
    assert (again.output, again.error) == ("half \ufffd pair", "x\ufffd")


def test_a_naive_timestamp_is_refused(store: Engine) -> None:
    with pytest.raises(ValueError, match="no timezone"):
        insert_run(store, a_run(created_at=datetime(2025, 1, 1)))


def test_an_unknown_status_is_refused(store: Engine) -> None:
    with pytest.raises(ValueError, match="must be one of ok, error"):
        insert_run(store, a_run(status="failed"))


# --- uniqueness and resume queries -------------------------------------------


def test_a_second_ok_run_of_a_task_is_refused_and_not_stored(store: Engine) -> None:
    assert insert_run(store, a_run()) is not None
    assert insert_run(store, a_run(output="43")) is None
    assert [r.output for r in list_runs(store, task_id="t1")] == ["42"]


def test_errored_attempts_are_numbered_and_a_retry_finishes_the_task(store: Engine) -> None:
    error = a_run(status="error", passed=None, score=None, error="HTTP 500")
    assert [insert_run(store, error).attempt for _ in range(2)] == [1, 2]  # type: ignore[union-attr]
    assert errored_task_ids(store, SERIES) == {"t1"}
    assert finished_task_ids(store, SERIES) == set()
    assert insert_run(store, a_run()).attempt == 3  # type: ignore[union-attr]
    assert errored_task_ids(store, SERIES) == set()
    assert finished_task_ids(store, SERIES) == {"t1"}


def test_series_are_kept_apart(store: Engine) -> None:
    insert_run(store, a_run())
    for other in (
        replace(SERIES, harness_version="h2"),
        replace(SERIES, mode="zero_context"),
        replace(SERIES, task_set_version="ts2"),
        replace(SERIES, model="m2"),
    ):
        assert finished_task_ids(store, other) == set()
        assert insert_run(store, a_run(**vars(other))) is not None
    assert len(list_runs(store, task_id="t1")) == 5


def test_paste_runs_may_repeat_and_do_not_finish_a_model_series(store: Engine) -> None:
    pasted = a_run(paste=True, latency_ms=0.0, cost_usd=0.0)
    assert [insert_run(store, pasted).attempt for _ in range(2)] == [1, 2]  # type: ignore[union-attr]
    assert finished_task_ids(store, SERIES) == set()
    assert len(series_runs(store, SERIES, paste=True)) == 2
    assert series_runs(store, SERIES) == []


def test_list_runs_names_unknown_columns(store: Engine) -> None:
    with pytest.raises(ValueError, match="unknown run column"):
        list_runs(store, colour="red")


# --- opening the store ---------------------------------------------------------


def test_the_url_comes_from_the_flag_then_the_environment_then_the_default() -> None:
    env = {"SLOPMARK_DB": "sqlite:///env.db"}
    assert database_url("sqlite:///flag.db", env) == "sqlite:///flag.db"
    assert database_url(None, env) == "sqlite:///env.db"
    data = {"XDG_DATA_HOME": "/data", "HOME": "/home/u"}
    assert database_url(None, data) == default_url(data) == "sqlite:////data/slopmark/slopmark.db"


def test_sqlite_connections_use_wal_a_busy_timeout_and_foreign_keys(store: Engine) -> None:
    with store.connect() as connection:
        pragma = {
            name: connection.exec_driver_sql(f"PRAGMA {name}").scalar()
            for name in ("journal_mode", "busy_timeout", "foreign_keys")
        }
    assert pragma == {"journal_mode": "wal", "busy_timeout": 30000, "foreign_keys": 1}


def test_migrations_build_the_schema_and_reopening_is_harmless(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'twice.db'}"
    insert_run(open_store(url), a_run())
    engine = open_store(url)
    assert len(list_runs(engine)) == 1
    with engine.connect() as connection:
        assert connection.exec_driver_sql("SELECT version_num FROM alembic_version").all() == [
            (HEAD_REVISION,)
        ]
        assert compare_metadata(MigrationContext.configure(connection), metadata) == []
    names = {index["name"] for index in inspect(engine).get_indexes("runs")}
    assert {"uq_runs_one_ok", "ix_runs_model_domain", "ix_runs_board"} <= names


def test_the_file_is_readable_by_plain_sqlite(tmp_path: Path) -> None:
    insert_run(open_store(f"sqlite:///{tmp_path / 'plain.db'}"), a_run())
    with sqlite3.connect(tmp_path / "plain.db") as connection:
        assert connection.execute("SELECT task_id, status FROM runs").fetchall() == [("t1", "ok")]


@pytest.mark.parametrize(
    ("url", "message"),
    [
        ("not a url", "not a usable database URL"),
        ("nosuchdb://x/y", "not a usable database URL"),
        ("sqlite:////nonexistent/folder/x.db", "cannot open the store"),
    ],
)
def test_a_bad_url_is_bad_input(url: str, message: str) -> None:
    with pytest.raises(BadInput, match=message):
        open_store(url)



def test_head_revision_constant_is_alembics_head() -> None:
    from alembic.config import Config
    from alembic.script import ScriptDirectory

    from slopmark.store.db import HEAD_REVISION

    here = Path(store_package.__file__).parent
    config = Config(str(here / "alembic.ini"))
    config.set_main_option("script_location", str(here / "migrations"))
    assert ScriptDirectory.from_config(config).get_current_head() == HEAD_REVISION
