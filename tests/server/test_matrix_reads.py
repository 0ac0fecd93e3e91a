"""The matrix's store reads against a reference computed from every run in Python.

A mixed store (`board.runs.fill`: two domains, two harness versions, retried errors,
pastes, tasks without a template or with an empty one) plus repeated pastes and tasks
whose runs all errored. Read page by page through the cursor at several page sizes, the
matrix must be exactly the reference: per (task, model) the latest ok run, else the
latest errored one, with the number of runs, in template-then-task order.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import Engine, inspect

from board.runs import fill, series_run
from slopmark.board.counted import Group
from slopmark.board.matrix import ERRORED, FAIL, PASS, Cell, Filters, Row
from slopmark.server.matrix_reads import (
    MatrixQuery,
    domain_groups,
    group_models,
    read_page,
    stream_rows,
)
from slopmark.store import Run, insert_run, list_runs, open_store

GROUP = Group("math", "h1", "ts1", "standard")


@pytest.fixture(scope="module")
def store(tmp_path_factory: pytest.TempPathFactory) -> Engine:
    engine = open_store(f"sqlite:///{tmp_path_factory.mktemp('matrix') / 'runs.db'}")
    fill(engine, 20261205)
    for passed in (True, False, True):  # three pastes: the last one counts
        insert_run(engine, series_run("m1", "pasted", template_id="tpl-p", passed=passed,
                                      score=float(passed), paste=True))  # fmt: skip
    for model in ("m1", "m2"):  # a task whose every run errored
        for attempt in (1, 2):
            insert_run(engine, series_run(model, "down", template_id="tpl-p", attempt=attempt,
                                          status="error", error="HTTP 503"))  # fmt: skip
    return engine


def _verdict(run: Run) -> str:
    if run.status != "ok":
        return ERRORED
    return PASS if run.passed else FAIL


def reference(engine: Engine, group: Group, models: tuple[str, ...]) -> list[Row]:
    """The matrix of ``group`` computed from every run in Python."""
    mine = [r for r in list_runs(engine, domain=group.domain, harness_version=group.harness_version,
                                 task_set_version=group.task_set_version, mode=group.mode)
            if r.model in models]  # fmt: skip
    cells: defaultdict[tuple[str | None, str], dict[str, list[Run]]] = defaultdict(dict)
    for run in sorted(mine, key=lambda r: r.id or 0):
        cells[run.template_id, run.task_id].setdefault(run.model, []).append(run)
    rows = []
    for (template, task), by_model in cells.items():
        shown = {}
        for model, found in by_model.items():
            ok = [r for r in found if r.status == "ok"]
            chosen = (ok or found)[-1]
            shown[model] = Cell(_verdict(chosen), chosen.id or 0, len(found))
        rows.append(Row(template, task, shown))
    return sorted(rows, key=lambda r: (r.template_id is not None, r.template_id or "", r.task_id))


def every_page(engine: Engine, query: MatrixQuery) -> Iterator[Row]:
    while True:
        page = read_page(engine, query)
        assert len(page.rows) <= query.limit
        yield from page.rows
        if page.next is None:
            return
        query = replace(query, after=page.next)


def view(engine: Engine, group: Group = GROUP, **values: Any) -> MatrixQuery:
    models = tuple(group_models(engine, group))
    return replace(MatrixQuery(group, models, True), **values)


def test_the_matrix_reads_through_its_own_index(store: Engine) -> None:
    names = {index["name"] for index in inspect(store).get_indexes("runs")}
    assert "ix_runs_matrix" in names
    groups = domain_groups(store, "math")
    assert groups == [GROUP, replace(GROUP, harness_version="h2")]
    for group in groups:
        stored = {run.model for run in list_runs(store, **vars(group))}
        assert group_models(store, group) == sorted(stored)


@pytest.mark.parametrize("limit", [1, 4, 7, 1000])
def test_every_page_in_turn_is_the_whole_matrix(store: Engine, limit: int) -> None:
    query = view(store, limit=limit)
    expected = reference(store, GROUP, query.models)
    assert any(row.template_id is None for row in expected)  # the cursor crosses NULL
    assert any(row.template_id == "" for row in expected)
    assert list(every_page(store, query)) == expected
    assert list(stream_rows(store, query)) == expected


def test_repeated_and_errored_runs_show_as_the_leaderboard_counts(store: Engine) -> None:
    rows = {row.task_id: row for row in stream_rows(store, view(store))}
    pasted, down = rows["tpasted"].cells["m1"], rows["tdown"].cells
    assert (pasted.verdict, pasted.runs) == (PASS, 3)
    assert pasted.run_id == max(r.id or 0 for r in list_runs(store, task_id="tpasted"))
    assert {model: (c.verdict, c.runs) for model, c in down.items()} == {
        "m1": (ERRORED, 2), "m2": (ERRORED, 2)
    }  # fmt: skip


@pytest.mark.parametrize("models", [("m1",), ("m2", "m4"), ("m1", "m3", "tiny")])
def test_picked_models_are_the_only_columns(store: Engine, models: tuple[str, ...]) -> None:
    query = replace(view(store, limit=5), models=models, every_model=False)
    expected = reference(store, GROUP, models)
    assert list(every_page(store, query)) == expected


@pytest.mark.parametrize(
    ("filters", "keep"),
    [
        (Filters(failures=True), lambda verdicts: FAIL in verdicts),
        (Filters(differ=True), lambda verdicts: {PASS, FAIL} <= verdicts),
        (Filters(failures=True, differ=True), lambda verdicts: {PASS, FAIL} <= verdicts),
    ],
)
def test_filtered_pages_hold_exactly_the_rows_of_the_filter(
    store: Engine, filters: Filters, keep: Any
) -> None:
    query = view(store, filters=filters, limit=3)
    expected = [
        row for row in reference(store, GROUP, query.models)
        if keep({cell.verdict for cell in row.cells.values()})
    ]  # fmt: skip
    assert expected and list(every_page(store, query)) == expected


def test_the_template_filter_reads_only_those_templates(store: Engine) -> None:
    query = view(store, filters=Filters(templates=frozenset({"tpl-p", "tpl3"})), limit=2)
    found = list(every_page(store, query))
    assert {row.template_id for row in found} == {"tpl-p", "tpl3"}
    assert read_page(store, view(store, filters=Filters(templates=frozenset()))).rows == []


def test_a_store_with_no_runs_has_no_groups(tmp_path: Path) -> None:
    engine = open_store(f"sqlite:///{tmp_path / 'empty.db'}")
    assert domain_groups(engine, "math") == []
    engine.dispose()
