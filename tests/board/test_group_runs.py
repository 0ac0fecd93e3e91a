"""The board's fast read (one statement per group, counted rows) equals the outcome path,
through SQLAlchemy and through the standard library's read-only SQLite connection."""

from __future__ import annotations

import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest
from sqlalchemy import text

from board.runs import fill, series_run
from slopmark.board.grouprows import (
    EngineRows,
    RowSource,
    RunFilter,
    SqliteRows,
    groups,
    stream_group_runs,
)
from slopmark.board.leaderboard import boards, leaderboard
from slopmark.board.query import domains, stored_domains, stream_outcomes
from slopmark.store import insert_run, open_store
from slopmark.store.location import HEAD_REVISION, read_sqlite, sqlite_file

WHERE = (
    RunFilter(),
    RunFilter(domain="calibration"),
    RunFilter(source="seed"),
    RunFilter(harness_version="h2", models=("m1", "m3")),
)


def readers(url: str) -> list[RowSource]:
    connection = read_sqlite(url)
    assert connection is not None
    return [EngineRows(open_store(url)), SqliteRows(connection)]


@pytest.mark.parametrize("seed", [1, 2, 3])
@pytest.mark.parametrize("tasks", ["common", "all"])
def test_fast_boards_equal_outcome_boards(tmp_path: Path, seed: int, tasks: str) -> None:
    url = f"sqlite:///{tmp_path / 'store.db'}"
    engine = open_store(url)
    fill(engine, seed)
    for source in readers(url):
        for where in WHERE:
            expected = leaderboard(stream_outcomes(engine, where), tasks)
            assert tuple(boards(stream_group_runs(source, where), tasks)) == expected
            chosen = ("m2", "m3")
            expected = leaderboard(stream_outcomes(engine, where), tasks, chosen)
            assert tuple(boards(stream_group_runs(source, where), tasks, chosen)) == expected
    calibrated = leaderboard(stream_outcomes(engine, RunFilter(domain="calibration")), tasks)
    assert any(row.calibration and row.calibration.n for b in calibrated for row in b.rows)


def test_groups_are_listed_in_order(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'store.db'}"
    fill(open_store(url), 4)
    expected = [("calibration", "h1"), ("calibration", "h2"), ("math", "h1"), ("math", "h2")]
    for source in readers(url):
        found = [(g.domain, g.harness_version) for g in groups(source, RunFilter())]
        assert found == expected


def test_the_stored_domains_probe_equals_a_distinct_read(tmp_path: Path) -> None:
    """The web pages' domain tabs read the domains one index probe each; the same list
    as a plain DISTINCT, and none from an empty store."""
    engine = open_store(f"sqlite:///{tmp_path / 'store.db'}")
    assert stored_domains(engine) == []
    fill(engine, 4)
    insert_run(engine, series_run("m1", "cx-1", domain="code_iterative", attempt=1))
    found = stored_domains(engine)
    assert found == domains(engine, RunFilter()) == ["calibration", "code_iterative", "math"]


def test_filter_sql_names_every_condition() -> None:
    conditions, params = RunFilter(domain="math", mode="api", models=("a", "b")).sql()
    assert conditions == [
        "domain = :f_domain",
        "mode = :f_mode",
        "model IN (:f_model_0, :f_model_1)",
    ]
    assert params == {"f_domain": "math", "f_mode": "api", "f_model_0": "a", "f_model_1": "b"}
    assert RunFilter().sql() == ([], {})


def test_filter_values_are_bound_not_spliced(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'store.db'}"
    insert_run(open_store(url), series_run("m'; DROP TABLE runs; --", 1))
    for source in readers(url):
        where = RunFilter(models=("m'; DROP TABLE runs; --",))
        ((group, found),) = stream_group_runs(source, where)
        assert found.models == {"m'; DROP TABLE runs; --"}
    assert len(list(stream_outcomes(open_store(url), RunFilter()))) == 1


def test_read_sqlite_takes_only_a_store_at_the_latest_revision(tmp_path: Path) -> None:
    missing = tmp_path / "missing.db"
    assert read_sqlite(f"sqlite:///{missing}") is None
    assert not missing.exists()  # a read never creates the file
    plain = tmp_path / "plain.db"
    sqlite3.connect(plain).execute("CREATE TABLE t (x)").connection.commit()
    assert read_sqlite(f"sqlite:///{plain}") is None  # no alembic_version table
    url = f"sqlite:///{tmp_path / 'store.db'}"
    engine = open_store(url)
    connection = read_sqlite(url)
    assert connection is not None
    with pytest.raises(sqlite3.OperationalError, match="readonly"):
        connection.execute("DELETE FROM runs")
    with engine.begin() as write:
        write.execute(text("UPDATE alembic_version SET version_num = '0001'"))
    assert read_sqlite(url) is None  # an older store is left to open_store to migrate
    assert HEAD_REVISION != "0001"


@pytest.mark.parametrize(
    ("url", "expected"),
    [
        ("sqlite:///store.db", Path("store.db")),
        ("sqlite:////abs/store.db", Path("/abs/store.db")),
        ("sqlite+pysqlite:///a/b.db", Path("a/b.db")),
        ("sqlite://", None),
        ("sqlite:///:memory:", None),
        ("sqlite:///store.db?mode=ro", None),
        ("postgresql+psycopg://u@h/db", None),
    ],
)
def test_sqlite_file_reads_plain_sqlite_urls_only(url: str, expected: Path | None) -> None:
    assert sqlite_file(url) == expected


@pytest.mark.slow
def test_board_show_on_a_sqlite_store_does_not_load_sqlalchemy(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'store.db'}"
    fill(open_store(url), 5)
    program = (
        "import sys\n"
        "from slopmark.cli.main import main\n"
        "sys.argv = ['slopmark', 'board', 'show', '--db', sys.argv[1]]\n"
        "try:\n"
        "    main()\n"
        "except SystemExit as done:\n"
        "    assert not done.code, done.code\n"
        "print('sqlalchemy loaded:', 'sqlalchemy' in sys.modules)\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", program, url], capture_output=True, text=True, timeout=120
    )
    assert done.returncode == 0, done.stderr
    assert "math · harness h1" in done.stdout
    assert done.stdout.rstrip().endswith("sqlalchemy loaded: False")
