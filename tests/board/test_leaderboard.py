"""The leaderboard rules, pinned on real SQLite stores filled with `insert_run`."""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from sqlalchemy import Engine

from board.runs import series_run
from slopmark.board.leaderboard import (
    Board,
    Outcome,
    Row,
    adequacy,
    leaderboard,
    outcome,
    rank_bands,
    required_tasks,
    stream_boards,
)
from slopmark.board.query import RunFilter, stream_outcomes
from slopmark.errors import BadInput
from slopmark.store import Run, insert_run, open_store


@pytest.fixture
def store(tmp_path: Path) -> Engine:
    return open_store(f"sqlite:///{tmp_path / 'store.db'}")


def a_run(model: str, task: int | str, passed: bool = True, **values: Any) -> Run:
    fields: dict[str, Any] = {"passed": passed, "score": 1.0 if passed else 0.0}
    fields |= {"latency_ms": 100.0, "cost_usd": 0.001}
    if values.get("status") == "error":
        fields |= {"passed": None, "score": None, "error": "HTTP 503"}
    return series_run(model, task, **(fields | values))


def fill(store: Engine, model: str, passes: list[bool], start: int = 0, **values: Any) -> None:
    for offset, passed in enumerate(passes):
        assert insert_run(store, a_run(model, start + offset, passed, **values)) is not None


def boards(store: Engine, tasks: str = "common", **where: Any) -> tuple[Board, ...]:
    return leaderboard(stream_outcomes(store, RunFilter(**where)), tasks)


def only(store: Engine, tasks: str = "common", **where: Any) -> Board:
    found = boards(store, tasks, **where)
    assert len(found) == 1
    return found[0]


def row_of(board: Board, model: str) -> Row:
    return next(row for row in board.rows if row.model == model)


def test_pass_rate_and_score_with_intervals_and_templates(store: Engine) -> None:
    passes = [True] * 7 + [False] * 3
    for task, passed in enumerate(passes):
        template = f"tpl{task % 4}"
        insert_run(
            store, a_run("m", task, passed, score=0.5 if passed else 0.1, template_id=template)
        )
    row = row_of(only(store), "m")
    assert (row.n, row.passed, row.templates) == (10, 7, 4)
    assert row.pass_rate.estimate == pytest.approx(0.7)
    assert row.avg_score.estimate == pytest.approx((7 * 0.5 + 3 * 0.1) / 10)
    for interval in (row.pass_rate, row.avg_score):
        assert interval.low is not None and interval.high is not None
        assert interval.low <= interval.estimate <= interval.high
        assert (interval.n, interval.clusters) == (10, 4)


def test_a_task_without_template_is_its_own_cluster(store: Engine) -> None:
    fill(store, "m", [True] * 4, template_id="shared")
    fill(store, "m", [False] * 6, start=4)
    row = row_of(only(store), "m")
    assert row.templates == 7
    assert row.pass_rate.clusters == 7


@pytest.mark.parametrize(
    ("runs", "shown", "provisional", "rank"),
    [(4, False, None, None), (5, True, True, None), (9, True, True, None), (10, True, False, "1")],
)
def test_threshold_edges(
    store: Engine, runs: int, shown: bool, provisional: bool | None, rank: str | None
) -> None:
    fill(store, "m", [True] * runs)
    board = only(store)
    if not shown:
        assert board.rows == ()
        assert [(h.model, h.n) for h in board.hidden] == [("m", runs)]
        return
    row = row_of(board, "m")
    assert (row.provisional, row.rank) == (provisional, rank)
    assert board.hidden == ()


def test_paste_runs_count_in_pass_rate_but_not_latency_or_cost(store: Engine) -> None:
    fill(store, "m", [False] * 7, latency_ms=200.0, cost_usd=0.01)
    fill(store, "m", [True] * 3, start=7, paste=True, latency_ms=0.0, cost_usd=0.0)
    row = row_of(only(store), "m")
    assert row.n == 10 and row.passed == 3
    assert row.avg_latency_ms == pytest.approx(200.0)
    assert row.avg_cost_usd == pytest.approx(0.01)
    assert (row.priced_runs, row.paste_runs, row.cost_known, row.latency_known) == (7, 3, 7, 7)


def test_errored_runs_count_in_no_statistic_but_are_shown(store: Engine) -> None:
    fill(store, "m", [True] * 10, latency_ms=50.0)
    fill(store, "m", [False] * 3, start=10, status="error", latency_ms=9000.0)
    row = row_of(only(store), "m")
    assert (row.n, row.passed, row.errors) == (10, 10, 3)
    assert row.pass_rate.estimate == 1.0
    assert row.avg_latency_ms == pytest.approx(50.0)
    assert row.coverage.of == 10


def test_a_model_with_only_errors_is_hidden_with_its_error_count(store: Engine) -> None:
    fill(store, "down", [False] * 6, status="error")
    board = only(store)
    assert board.rows == ()
    assert [(h.model, h.n, h.errors) for h in board.hidden] == [("down", 0, 6)]


def test_unknown_cost_stays_unknown(store: Engine) -> None:
    fill(store, "m", [True] * 10, cost_usd=None)
    row = row_of(only(store), "m")
    assert row.avg_cost_usd is None
    assert (row.cost_known, row.priced_runs) == (0, 10)


def test_partly_known_cost_is_the_mean_of_the_known_with_their_count(store: Engine) -> None:
    fill(store, "m", [True] * 4, cost_usd=0.002)
    fill(store, "m", [True] * 6, start=4, cost_usd=None)
    row = row_of(only(store), "m")
    assert row.avg_cost_usd == pytest.approx(0.002)
    assert (row.cost_known, row.priced_runs) == (4, 10)


def test_paste_only_model_has_unknown_latency_and_cost(store: Engine) -> None:
    fill(store, "pasted", [True] * 5, paste=True, latency_ms=0.0, cost_usd=0.0)
    row = row_of(only(store), "pasted")
    assert (row.avg_latency_ms, row.avg_cost_usd, row.priced_runs) == (None, None, 0)


def test_common_tasks_only_by_default(store: Engine) -> None:
    fill(store, "a", [True] * 10 + [False] * 2)
    fill(store, "b", [False] * 10)
    board = only(store)
    assert board.comparable
    assert (board.tasks_seen, board.tasks_used, board.tasks_dropped) == (12, 10, 2)
    a = row_of(board, "a")
    assert (a.n, a.pass_rate.estimate) == (10, 1.0)
    assert (a.coverage.tasks, a.coverage.of, a.coverage.dropped) == (12, 12, 2)
    assert row_of(board, "b").coverage.dropped == 0


def test_all_tasks_gives_raw_aggregates_labelled_not_comparable(store: Engine) -> None:
    fill(store, "a", [True] * 10 + [False] * 2)
    fill(store, "b", [False] * 10)
    board = only(store, tasks="all")
    assert not board.comparable
    a = row_of(board, "a")
    assert (a.n, a.passed, a.rank) == (12, 10, None)
    assert all(row.rank is None for row in board.rows)


def test_a_sparse_model_is_hidden_and_does_not_shrink_the_common_set(store: Engine) -> None:
    fill(store, "a", [True] * 10)
    fill(store, "b", [True] * 10)
    fill(store, "sparse", [True] * 3, start=20)
    board = only(store)
    assert board.tasks_used == 10
    assert [h.model for h in board.hidden] == ["sparse"]


def test_a_model_falls_below_five_on_the_common_set_and_is_hidden(store: Engine) -> None:
    fill(store, "a", [True] * 10)
    fill(store, "b", [True] * 6, start=7)
    board = only(store)
    assert board.tasks_used == 3
    assert board.rows == ()
    assert sorted((h.model, h.n) for h in board.hidden) == [("a", 3), ("b", 3)]


def test_model_selection_limits_the_common_set(store: Engine) -> None:
    fill(store, "a", [True] * 12)
    fill(store, "b", [True] * 6)
    fill(store, "b", [True] * 6, harness_version="h2")
    found = leaderboard(stream_outcomes(store, RunFilter()), "common", ["a"])
    assert len(found) == 1  # no board for h2, where a never ran
    assert [row.model for row in found[0].rows] == ["a"]
    assert found[0].rows[0].n == 12


@pytest.mark.parametrize(
    "column", [{"harness_version": "h2"}, {"task_set_version": "ts2"}, {"mode": "zero_context"}]
)
def test_groups_are_never_merged(store: Engine, column: dict[str, str]) -> None:
    fill(store, "m", [True] * 10)
    fill(store, "m", [False] * 10, **column)
    found = boards(store)
    assert len(found) == 2
    assert sorted(board.rows[0].pass_rate.estimate or 0 for board in found) == [0.0, 1.0]
    labels = {board.group.label() for board in found}
    assert any(next(iter(column.values())) in label for label in labels)


def test_domains_get_separate_boards(store: Engine) -> None:
    fill(store, "m", [True] * 10)
    fill(store, "m", [False] * 10, start=100, domain="json")
    assert [board.group.domain for board in boards(store)] == ["json", "math"]


def test_source_filter_and_label(store: Engine) -> None:
    fill(store, "m", [True] * 10, source="seed")
    fill(store, "m", [False] * 10, start=10, source="original")
    board = only(store, source="seed")
    row = row_of(board, "m")
    assert (row.n, row.sources) == (10, ("seed",))
    assert row_of(only(store), "m").sources == ("original", "seed")


def test_the_latest_ok_run_of_a_task_counts(store: Engine) -> None:
    fill(store, "m", [True] * 9, start=1)
    insert_run(store, a_run("m", 0, False))
    insert_run(store, a_run("m", 0, True, provider="other"))  # a later re-run of t0
    insert_run(store, a_run("m", 0, False, status="error", provider="third"))
    row = row_of(only(store), "m")
    assert (row.n, row.passed, row.errors) == (10, 10, 1)


def test_sort_by_pass_rate_then_score(store: Engine) -> None:
    fill(store, "low", [True] * 5 + [False] * 5)
    fill(store, "top", [True] * 9 + [False])
    for task in range(10):
        insert_run(store, a_run("partial", task, task < 5, score=0.9 if task < 5 else 0.5))
    order = [row.model for row in only(store).rows]
    assert order == ["top", "partial", "low"]


def test_tie_bands_on_paired_differences(store: Engine) -> None:
    fill(store, "a", [True] * 30)
    fill(store, "b", [True] * 29 + [False])
    fill(store, "c", [False] * 28 + [True] * 2)
    board = only(store)
    assert [(row.model, row.rank) for row in board.rows] == [("a", "1–2"), ("b", "1–2"), ("c", "3")]


def test_provisional_rows_get_no_rank(store: Engine) -> None:
    fill(store, "a", [True] * 7)
    fill(store, "b", [False] * 7)
    assert [(row.rank, row.provisional) for row in only(store).rows] == [(None, True)] * 2


@pytest.mark.parametrize(
    ("ties", "bands"),
    [
        ([], ["1"]),
        ([False], ["1", "2"]),
        ([True], ["1–2", "1–2"]),
        ([True, False], ["1–2", "1–2", "3"]),
        ([False, True], ["1", "2–3", "2–3"]),
        ([True, True, False, True], ["1–3", "1–3", "1–3", "4–5", "4–5"]),
    ],
)
def test_rank_bands_chain_adjacent_ties(ties: list[bool], bands: list[str]) -> None:
    assert rank_bands(ties) == bands


def test_calibration_rows_carry_ece_brier_and_overconfidence(store: Engine) -> None:
    for task in range(10):
        correct = task < 5
        details = {"confidence": 0.9, "correct": correct}
        insert_run(store, a_run("m", task, correct, domain="calibration", details=details))
    insert_run(store, a_run("m", 10, False, domain="calibration", details={"confidence": None}))
    row = row_of(only(store), "m")
    assert row.calibration is not None
    assert row.calibration.n == 10
    assert row.calibration.overconfidence == pytest.approx(0.9 - 0.5)
    assert row.calibration.brier == pytest.approx((5 * 0.1**2 + 5 * 0.9**2) / 10)
    assert row_of(only(store, domain="calibration"), "m").n == 11


def test_non_calibration_rows_have_no_calibration(store: Engine) -> None:
    fill(store, "m", [True] * 5)
    assert row_of(only(store), "m").calibration is None


@pytest.mark.parametrize("domain", ["calibration", "math"])
def test_outcome_of_a_stored_run_matches_the_query(store: Engine, domain: str) -> None:
    details = {"confidence": 0.25, "correct": False}
    run = insert_run(store, a_run("m", 1, domain=domain, details=details))
    assert run is not None
    assert list(stream_outcomes(store, RunFilter())) == [outcome(run)]
    assert (outcome(run).confidence is None) == (domain != "calibration")
    with pytest.raises(ValueError, match="no store id"):
        outcome(a_run("m", 2))


def test_store_rows_in_any_order_give_the_same_board(store: Engine) -> None:
    rng = random.Random(7)
    for model in ("a", "b", "c"):
        fill(store, model, [rng.random() < 0.6 for _ in range(15)], template_id=None)
    items = list(stream_outcomes(store, RunFilter()))
    expected = leaderboard(items)
    for _ in range(5):
        rng.shuffle(items)
        assert leaderboard(items) == expected


def _outcomes() -> st.SearchStrategy[list[Outcome]]:
    item = st.tuples(
        st.sampled_from(["a", "b", "c"]),
        st.integers(0, 14),
        st.sampled_from(["ok", "ok", "ok", "error"]),
        st.booleans(),
        st.booleans(),
        st.sampled_from(["h1", "h2"]),
        st.one_of(st.none(), st.sampled_from(["x", "y", "z"])),
    )

    def build(rows: list[tuple[Any, ...]]) -> list[Outcome]:
        return [
            Outcome("math", harness, "ts1", "standard", model, f"t{task}", template, "seed",
                    status, passed if status == "ok" else None,
                    (1.0 if passed else 0.25) if status == "ok" else None,
                    100.0, None if paste else 0.01, paste, order)
            for order, (model, task, status, passed, paste, harness, template) in enumerate(rows)
        ]  # fmt: skip

    return st.lists(item, max_size=120).map(build)


@settings(max_examples=60, deadline=None)
@given(_outcomes(), st.randoms(use_true_random=False), st.sampled_from(["common", "all"]))
def test_the_board_does_not_depend_on_row_order(
    items: list[Outcome], rng: random.Random, tasks: str
) -> None:
    expected = leaderboard(items, tasks)
    shuffled = list(items)
    rng.shuffle(shuffled)
    assert leaderboard(shuffled, tasks) == expected
    for board in expected:
        for row in board.rows:
            rate = row.pass_rate
            assert rate.low is not None and rate.high is not None and rate.estimate is not None
            assert 0.0 <= rate.low <= rate.estimate <= rate.high <= 1.0


@settings(max_examples=30, deadline=None)
@given(_outcomes())
def test_streaming_by_group_equals_the_whole_board(items: list[Outcome]) -> None:
    def key(item: Outcome) -> tuple[str, str, str, str]:
        return (item.domain, item.harness_version, item.task_set_version, item.mode)

    assert tuple(stream_boards(sorted(items, key=key))) == leaderboard(items)


def test_unknown_task_set_choice_is_refused() -> None:
    with pytest.raises(BadInput, match="common, all"):
        leaderboard([], "some")


@pytest.mark.parametrize(("sigma", "n"), [(0.2, 171), (0.5, 1068), (0.0, 1)])
def test_required_tasks(sigma: float, n: int) -> None:
    assert required_tasks(sigma) == n


@pytest.mark.parametrize(
    ("tasks", "templates", "sigma", "verdict"),
    [
        (200, 180, 0.2, "adequate"),
        (200, 50, 0.2, "tasks only"),
        (100, 50, 0.2, "short"),
        (100, 50, None, "unknown"),
    ],
)
def test_adequacy_verdicts(tasks: int, templates: int, sigma: float | None, verdict: str) -> None:
    result = adequacy("math", tasks, templates, 40, sigma)
    assert result.verdict == verdict
    assert result.required == (None if sigma is None else required_tasks(sigma))



def test_score_interval_is_clipped_to_the_unit_range(store: Engine) -> None:
    fill(store, "m", [True] * 5 + [False])  # a t interval on these would pass 1.0
    score = row_of(only(store), "m").avg_score
    assert score.low is not None and score.high is not None and score.estimate is not None
    assert 0.0 <= score.low <= score.estimate <= score.high == 1.0
