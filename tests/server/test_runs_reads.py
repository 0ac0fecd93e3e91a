"""The runs browser's reads on a real SQLite store: keyset pages, neighbours, filters,
and query plans that read an index instead of the whole runs table."""

from __future__ import annotations

from datetime import date
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import Engine, select, text, update

from slopmark.board.grouprows import RunFilter
from slopmark.errors import BadInput
from slopmark.server.runs_reads import (
    LISTED,
    RunQuery,
    edge_of,
    neighbours,
    order_key,
    page_statement,
    parse_query,
    runs_page,
)
from slopmark.store import Run, insert_run, open_store
from slopmark.store.schema import runs

MODELS = ("m-a", "m-b", "m-c")


def a_run(model: str, domain: str, index: int) -> Run:
    errored = index % 7 == 6
    return Run(
        task_id=f"{domain}.t{index % 4}.v{index}", domain=domain, model=model,
        provider="openai-compat", harness_version="h2" if index % 5 == 0 else "h1",
        mode="standard", task_set_version="ts1", source=("seed", "original")[index % 2],
        status="error" if errored else "ok", passed=None if errored else index % 3 != 0,
        score=None if errored else 0.5, template_id=f"{domain}.t{index % 4}",
        error="timeout" if errored else None, output=f"answer {index}",
    )  # fmt: skip


@pytest.fixture(scope="module")
def engine(tmp_path_factory: pytest.TempPathFactory) -> Engine:
    path: Path = tmp_path_factory.mktemp("browse") / "runs.db"
    store = open_store(f"sqlite:///{path}")
    for index in range(30):
        for model in MODELS:
            insert_run(store, a_run(model, ("math", "json")[index % 2], index))
    with store.begin() as connection:  # ids 1-40 on one day, 41-45 (a clock step) before it
        day = text("'2026-03-01 10:00:00.000000'")
        connection.execute(update(runs).where(runs.c.id <= 40).values(created_at=day))
        earlier = text("'2026-02-01 10:00:00.000000'")
        connection.execute(update(runs).where(runs.c.id.between(41, 45)).values(created_at=earlier))
    return store


def matching(engine: Engine, query: RunQuery) -> list[int]:
    """Every matching id in listing order (newest first), read without paging."""
    order = [column.desc() for column in order_key(query)]
    statement = select(runs.c.id).where(*query.clauses()).order_by(*order)
    with engine.connect() as connection:
        return list(connection.scalars(statement))


def walk(engine: Engine, query: RunQuery, limit: int) -> list[list[int]]:
    """Each page's ids, following the older links from the newest page."""
    pages, before = [], None
    while True:
        page = runs_page(engine, query, before=before, limit=limit)
        pages.append([row["id"] for row in page.rows])
        if not page.older:
            return pages
        before = page.last_id


QUERIES = [
    RunQuery(),
    RunQuery(model="m-b", domain="math"),
    RunQuery(model="m-a", passed=False),
    RunQuery(errored=True),
    RunQuery(errored=False, source="original"),
    RunQuery(harness="h2", template="json.t1"),
    RunQuery(task="math.t2.v10"),
    RunQuery(since=date(2026, 3, 1), until=date(2026, 3, 1)),
    RunQuery(since=date(2026, 1, 1)),
    RunQuery(model="m-a", since=date(2026, 1, 1), until=date(2026, 3, 1)),
    RunQuery(model="nobody"),
]


@pytest.mark.parametrize("query", QUERIES, ids=str)
def test_keyset_pages_list_every_match_once_newest_first(engine: Engine, query: RunQuery) -> None:
    pages = walk(engine, query, limit=4)
    assert [run_id for page in pages for run_id in page] == matching(engine, query)
    assert all(0 < len(page) <= 4 for page in pages[:-1])


@pytest.mark.parametrize("query", [*QUERIES[:4], QUERIES[-3]], ids=str)
def test_going_back_from_a_page_gives_the_page_before(engine: Engine, query: RunQuery) -> None:
    pages = walk(engine, query, limit=5)
    for newer, older in zip(pages, pages[1:], strict=False):
        back = runs_page(engine, query, after=older[0], limit=5)
        assert [row["id"] for row in back.rows] == newer
        assert back.older and back.newer == (newer is not pages[0])


def test_the_newest_page_has_no_newer_one_and_rows_leave_out_the_long_fields(
    engine: Engine,
) -> None:
    page = runs_page(engine, RunQuery(model="m-c"), limit=3)
    assert not page.newer and page.older
    assert set(page.rows[0]) == {column.name for column in LISTED}
    assert "output" not in page.rows[0] and "details" not in page.rows[0]


def test_filters_mean_what_they_say(engine: Engine) -> None:
    def rows(**given: Any) -> list[dict[str, Any]]:
        return list(runs_page(engine, RunQuery(**given), limit=500).rows)

    assert {row["passed"] for row in rows(passed=False)} == {False}
    assert {row["status"] for row in rows(passed=True)} == {"ok"}
    assert {row["status"] for row in rows(errored=True)} == {"error"}
    assert {row["status"] for row in rows(errored=False)} == {"ok"}
    assert {row["id"] for row in rows(until=date(2026, 3, 1))} == set(range(1, 46))
    assert {row["id"] for row in rows(since=date(2026, 3, 2))}.isdisjoint(range(1, 46))
    led = {row["id"] for row in rows(model="m-a", until=date(2026, 3, 1))}  # dates follow
    assert led and led <= set(range(1, 46))
    by_time = [row["id"] for row in rows(since=date(2026, 1, 1))]
    assert by_time[-45:] == [*range(40, 0, -1), *range(45, 40, -1)]  # stored time, then id
    assert {(r["model"], r["domain"]) for r in rows(model="m-a", domain="json")} == {
        ("m-a", "json")
    }


@pytest.mark.parametrize(
    "query", [RunQuery(model="m-b", passed=True), RunQuery(since=date(2026, 2, 1))], ids=str
)
def test_neighbours_are_the_next_matching_runs_either_side(
    engine: Engine, query: RunQuery
) -> None:
    ids = matching(engine, query)
    middle = ids[len(ids) // 2]
    around = neighbours(engine, query, middle)
    assert (around.newer, around.older) == (ids[ids.index(middle) - 1], ids[ids.index(middle) + 1])
    assert neighbours(engine, query, ids[0]).newer is None
    assert neighbours(engine, query, ids[-1]).older is None


def test_query_parameters_round_trip_and_bad_ones_say_why() -> None:
    given = {"model": "m-a", "passed": "0", "errored": "", "since": "2026-03-01", "x": "y"}
    query = parse_query(given)
    assert query == RunQuery(model="m-a", passed=False, since=date(2026, 3, 1))
    assert query.params() == {"model": "m-a", "passed": "0", "since": "2026-03-01"}
    assert parse_query(query.params()) == query
    for bad, message in (
        ({"passed": "yes"}, "passed 'yes': must be 1, 0 or empty"),
        ({"since": "2026-13-01"}, "since '2026-13-01': give a day as YYYY-MM-DD"),
        ({"model": "m" * 201}, "model: 201 characters"),
    ):
        with pytest.raises(BadInput, match=message):
            parse_query(bad)
    with pytest.raises(BadInput, match="before or after"):
        runs_page(None, RunQuery(), before=3, after=1)  # type: ignore[arg-type]


def plan(engine: Engine, query: RunQuery, before: int | None) -> str:
    """SQLite's plan for a page of ``query`` (each step's detail, joined)."""
    with engine.connect() as connection:
        edge = None if before is None else edge_of(connection, query, before)
    statement = page_statement(query, edge)
    sql = str(statement.compile(engine, compile_kwargs={"literal_binds": True}))
    with engine.connect() as connection:
        return "; ".join(row[3] for row in connection.exec_driver_sql(f"EXPLAIN QUERY PLAN {sql}"))


@pytest.mark.parametrize(
    ("query", "index"),
    [
        (RunQuery(model="m-a", domain="math", passed=False), "ix_runs_model_domain"),
        (RunQuery(model="m-a", errored=False), "ix_runs_model_domain"),
        (RunQuery(model="m-a", template="math.t1"), "ix_runs_template"),
        (RunQuery(source="seed", errored=True), "ix_runs_status"),
        (RunQuery(template="json.t1"), "ix_runs_template"),
        (RunQuery(errored=True), "ix_runs_status"),
        (RunQuery(source="original"), "ix_runs_source"),
        (RunQuery(harness="h2"), "ix_runs_harness"),
        (RunQuery(since=date(2026, 3, 1), until=date(2026, 3, 1)), "ix_runs_created"),
        (RunQuery(domain="json", passed=False), "ix_runs_domain"),
        (RunQuery(domain="json", harness="h1", task_set="ts1", mode="standard"), "ix_runs_domain"),
        (RunQuery(task="math.t2.v10"), "sqlite_autoindex_runs_1"),
    ],
    ids=str,
)
def test_a_selective_filter_reads_its_index_not_the_table(
    engine: Engine, query: RunQuery, index: str
) -> None:
    """A filter that matches few runs must not read the whole table to find a page: its
    first page and a deep page (keyset) search an index."""
    for before in (None, 50):
        found = plan(engine, query, before)
        assert f"INDEX {index}" in found, found
        assert "SCAN runs" not in found, found


def test_the_boards_reads_of_two_models_keep_their_index(engine: Engine) -> None:
    """``board compare`` and ``board gate`` read two models' runs of a domain in store
    order: the browser's ``ix_runs_domain`` (partial) must not draw them to every run of
    the domain."""
    where = RunFilter("math", models=("m-a", "m-b"))
    statement = select(runs.c.id).where(*where.clauses()).order_by(runs.c.id)
    sql = str(statement.compile(engine, compile_kwargs={"literal_binds": True}))
    with engine.connect() as connection:
        found = "; ".join(row[3] for row in connection.exec_driver_sql(f"EXPLAIN QUERY PLAN {sql}"))
    assert "INDEX ix_runs_model_domain" in found, found
