"""The cost–capability chart's geometry: frontier, log axis, the $0 lane, unknown costs."""

from __future__ import annotations

from dataclasses import replace

from server.conftest import seeded_run
from slopmark.board.leaderboard import Board, leaderboard, outcome
from slopmark.server.chart import Point, chart, pareto


def _point(model: str, cost: float, rate: float) -> Point:
    return Point(model, cost, rate, None, None, 10, None, False)


def test_the_frontier_keeps_models_nobody_beats_on_cost_and_pass_rate() -> None:
    points = [
        _point("cheap", 0.001, 0.5),
        _point("good", 0.01, 0.9),
        _point("dear-and-worse", 0.05, 0.8),
        _point("same-cost-worse", 0.001, 0.4),
        _point("same-rate-dearer", 0.02, 0.9),
    ]
    assert pareto(points) == {"cheap", "good"}
    assert pareto([]) == set()


def _board(costs: dict[str, float | None]) -> Board:
    runs = [
        replace(seeded_run(model, "math", index, index % 3 > 0, 0.0), cost_usd=cost)
        for model, cost in costs.items()
        for index in range(1, 11)
    ]
    outcomes = [outcome(replace(run, id=i)) for i, run in enumerate(runs, start=1)]
    (board,) = leaderboard(outcomes)
    return board


def test_a_free_model_sits_in_the_zero_lane_and_an_unknown_cost_is_listed() -> None:
    drawn = chart(_board({"local": 0.0, "hosted": 0.003, "unpriced": None}))
    placed = {p.point.model: p for p in drawn.placed}
    assert set(placed) == {"local", "hosted"}
    assert drawn.unplaced == ("unpriced",)
    assert drawn.zero_lane is not None and placed["local"].x == drawn.zero_lane
    assert placed["local"].x < min(tick.at for tick in drawn.x_ticks) < placed["hosted"].x
    assert [tick.label for tick in drawn.x_ticks] == ["$0.001", "$0.01"]


def test_points_are_placed_by_log_cost_and_pass_rate_with_the_interval() -> None:
    drawn = chart(_board({"a": 0.001, "b": 0.01, "c": 0.1}))
    xs = [p.x for p in sorted(drawn.placed, key=lambda p: p.point.cost)]
    assert abs((xs[1] - xs[0]) - (xs[2] - xs[1])) < 1e-9  # one decade, one step
    for p in drawn.placed:
        assert p.y_high <= p.y <= p.y_low  # svg y grows downwards
        assert drawn.top <= p.y <= drawn.bottom
    assert drawn.frontier.count(",") == 1  # equal pass rates: only the cheapest is on it
