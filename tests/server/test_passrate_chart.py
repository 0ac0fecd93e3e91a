"""The chart a board gets when cost is unknown: its view, its reasons and its geometry."""

from __future__ import annotations

from dataclasses import replace

from server.conftest import seeded_run
from slopmark.board.leaderboard import Board, leaderboard, outcome
from slopmark.board.passrates import PASTED, UNPRICED, cost_unknown, left_off, pass_rates
from slopmark.server.passrate_chart import board_chart, passrate_chart

LONG = "a-model-with-a-name-far-longer-than-any-margin-would-guess"


def _board(costs: dict[str, float | None], pasted: tuple[str, ...] = ()) -> Board:
    """A math board: a model per entry, 10 runs each (index % 3 > 0 passes); the models
    in ``pasted`` answered by paste (paste runs carry no cost)."""
    runs = [
        replace(seeded_run(model, "math", index, index % 3 > 0, 0.0), cost_usd=cost,
                paste=model in pasted)  # fmt: skip
        for model, cost in costs.items()
        for index in range(1, 11)
    ]
    outcomes = [outcome(replace(run, id=i)) for i, run in enumerate(runs, start=1)]
    (board,) = leaderboard(outcomes)
    return board


def test_every_model_without_cost_gets_a_mark_and_its_reason() -> None:
    board = _board({"pasted": None, "local": None}, pasted=("pasted",))
    assert {u.model: u.reason for u in cost_unknown(board)} == {
        "pasted": PASTED, "local": UNPRICED,
    }  # fmt: skip
    view = pass_rates(board)
    assert [m.model for m in view.marks] == [row.model for row in board.rows]
    for mark in view.marks:
        assert mark.low is not None and mark.high is not None
        assert mark.low <= mark.rate <= mark.high
    assert "cost is unknown for all 2 models" in view.reason
    assert f"{PASTED} (pasted)" in view.reason and f"{UNPRICED} (local)" in view.reason
    assert left_off(board) is None  # nothing is left off a cost view that is not drawn


def test_a_partial_cost_view_names_the_models_it_leaves_off() -> None:
    board = _board({"hosted": 0.003, "unpriced": None})
    drawn = board_chart(board)
    assert [p.point.model for p in drawn.placed] == ["hosted"]
    assert drawn.passrates is None
    assert drawn.left_off == f"Left off the cost view, cost unknown: {UNPRICED} (unpriced)."
    assert board_chart(_board({"a": 0.001, "b": 0.01})).left_off is None


def test_the_chart_without_cost_places_a_row_per_model_and_cuts_no_name() -> None:
    board = _board({"short": None, LONG: None})
    drawn = board_chart(board)
    assert not drawn.placed and drawn.passrates is not None
    chart = drawn.passrates
    assert [m.mark.model for m in chart.marks] == [row.model for row in board.rows]
    ys = [m.y for m in chart.marks]
    assert ys == sorted(ys) and len(set(ys)) == 2
    for m in chart.marks:
        assert chart.left <= m.x_low <= m.x <= m.x_high <= chart.right
        assert chart.top < m.y < chart.bottom
    assert chart.left >= 7 * len(LONG)  # room for the whole name left of the axis
    assert [t.label for t in chart.ticks] == ["0%", "25%", "50%", "75%", "100%"]
    assert chart.ticks[0].at == chart.left and chart.ticks[-1].at == chart.right


def test_a_board_without_a_shown_model_has_no_pass_rate_chart() -> None:
    runs = [seeded_run("few", "math", index, True, 0.0) for index in range(1, 4)]
    (board,) = leaderboard([outcome(replace(r, id=i, cost_usd=None)) for i, r in
                            enumerate(runs, start=1)])  # fmt: skip
    assert not board.rows
    assert passrate_chart(board) is None
