"""The study list's reads on a real SQLite store: progress per study, newest first a page
at a time, and the checks on what an address names."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest
from sqlalchemy import Engine, update

from slopmark.code.study.records import CommitPoint, RepoRecord, StudySettings
from slopmark.code.study.stored import ensure_study, store_repo
from slopmark.errors import BadInput
from slopmark.server.study_reads import (
    PAGE_SIZE,
    check_study_id,
    study_page,
    study_row,
    whole_number,
)
from slopmark.store import open_store
from slopmark.store.schema import studies


@pytest.fixture
def engine(tmp_path: Path) -> Engine:
    return open_store(f"sqlite:///{tmp_path / 'studies.db'}")


def test_progress_counts_stored_and_failed_repositories_of_the_total(engine: Engine) -> None:
    ensure_study(engine, "s-1", "/r/REPOS.txt", StudySettings(), total=3)
    store_repo(engine, "s-1", RepoRecord("/r/a", 1, "ok"))
    store_repo(engine, "s-1", RepoRecord("/r/b", 2, "failed", error="boom"))
    row = study_row(engine, "s-1")
    assert row is not None and (row.stored, row.ok, row.failed, row.total) == (2, 1, 1, 3)
    assert row.status == "running"
    store_repo(engine, "s-1", RepoRecord("/r/c", 3, "ok"))
    assert study_row(engine, "s-1").status == "finished"  # type: ignore[union-attr]
    assert study_row(engine, "nope") is None


def test_a_resumed_study_records_its_new_total(engine: Engine) -> None:
    ensure_study(engine, "s-1", "/r/REPOS.txt", StudySettings(), total=3)
    ensure_study(engine, "s-1", "/r/REPOS.txt", StudySettings(), total=4)
    assert study_row(engine, "s-1").total == 4  # type: ignore[union-attr]
    with engine.begin() as connection:  # a study stored before its total was recorded
        connection.execute(update(studies).values(repos_total=None))
    assert study_row(engine, "s-1").status == "unknown"  # type: ignore[union-attr]


def test_the_list_is_newest_first_a_page_at_a_time(engine: Engine) -> None:
    start = datetime(2024, 1, 1, tzinfo=UTC)
    for index in range(PAGE_SIZE + 3):
        ensure_study(engine, f"s-{index:03d}", "/r/REPOS.txt", StudySettings(), total=1)
        with engine.begin() as connection:
            when = start + timedelta(minutes=(index * 7) % (PAGE_SIZE + 3))
            connection.execute(update(studies).where(studies.c.study_id == f"s-{index:03d}")
                               .values(created_at=when))  # fmt: skip
    first, last = study_page(engine, 1), study_page(engine, 2)
    assert (first.count, first.pages) == (PAGE_SIZE + 3, 2)
    assert (len(first.rows), len(last.rows)) == (PAGE_SIZE, 3)
    listed = [row.created_at for row in first.rows + last.rows]
    assert listed == sorted(listed, reverse=True) and len(set(listed)) == PAGE_SIZE + 3
    assert study_page(engine, 3).rows == ()


@pytest.mark.parametrize("text", ["0", "-1", "x", "1.5", " 2", "1000000001", "9" * 40, "²"])
def test_a_page_number_is_a_whole_number_from_one(text: str) -> None:
    with pytest.raises(BadInput, match="must be a whole number from 1 to 1000000000"):
        whole_number(text, "page", 1)
    assert whole_number(None, "page", 7) == 7 and whole_number("12", "page", 1) == 12


@pytest.mark.parametrize("text", ["a b", "x/y", "", "a" * 81, "é"])
def test_a_study_id_is_shaped_as_the_cli_makes_them(text: str) -> None:
    with pytest.raises(BadInput, match="is not a study id"):
        check_study_id(text)
    assert check_study_id("REPOS-e0cd4fcc21") == "REPOS-e0cd4fcc21"


def test_a_study_regrouped_by_a_rerun_is_read_again(engine: Engine) -> None:
    from slopmark.server.study_reads import StudyCache

    ensure_study(engine, "s-1", "/r/REPOS.txt", StudySettings(), total=1)
    points = tuple(
        CommitPoint(i, f"{i:040x}", "2021-01-01", "c", 3, 600, 2, 0, 0.1 * i, 0.2)
        for i in range(5)
    )  # fmt: skip
    store_repo(engine, "s-1", RepoRecord("/r/a", 1, "ok", commits=points))
    cache = StudyCache()
    row = study_row(engine, "s-1")
    assert row is not None and (found := cache.study(engine, row, 5)) is not None
    assert found.summary.groups == ()
    ensure_study(engine, "s-1", "/r/REPOS.txt", StudySettings(), total=1, groups={"/r/a": "t1"})
    row = study_row(engine, "s-1")
    assert row is not None and (found := cache.study(engine, row, 5)) is not None
    assert [(g.group, g.used) for g in found.summary.groups] == [("t1", 1)]
