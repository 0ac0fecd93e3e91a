"""The history trajectory's geometry (`slopmark.server.code_chart`)."""

from __future__ import annotations

from typing import Any

from slopmark.server.code_chart import MAX_MARKS, trajectory


def commits(*values: tuple[float | None, float | None]) -> list[dict[str, Any]]:
    return [
        {"position": i, "sha": f"{i:040x}", "erosion": e, "verbosity": v}
        for i, (e, v) in enumerate(values)
    ]


def test_axis_runs_from_zero_to_a_round_step_above_the_largest_value() -> None:
    chart = trajectory(commits((0.12, 0.31), (0.2, 0.33)))
    assert [t.label for t in chart.y_ticks] == ["0", "0.1", "0.2", "0.3", "0.4"]
    assert chart.y_ticks[0].at == chart.bottom and chart.y_ticks[-1].at == chart.top
    high = trajectory(commits((0.876, 0.0)))
    assert [t.label for t in high.y_ticks] == ["0", "0.2", "0.4", "0.6", "0.8", "1"]


def test_an_undefined_value_breaks_the_line_instead_of_dropping_to_zero() -> None:
    chart = trajectory(commits((0.1, 0.2), (0.2, None), (None, 0.3), (0.3, 0.4), (0.35, 0.1)))
    erosion, verbosity = chart.lines
    assert [m.position for m in erosion.marks] == [0, 1, 3, 4]
    assert len(erosion.segments) == 2 and len(verbosity.segments) == 1
    assert all(m.y <= chart.bottom for m in erosion.marks)


def test_one_commit_sits_in_the_middle_and_none_draws_nothing() -> None:
    one = trajectory(commits((0.0, 0.0)))
    assert one.lines[0].marks[0].x == (one.left + one.right) / 2
    assert one.lines[0].segments == () and one.y_ticks[-1].label == "0.1"
    empty = trajectory([])
    assert empty.n == 0 and empty.x_ticks == () and empty.lines[0].marks == ()


def test_x_ticks_include_the_first_and_last_commit() -> None:
    chart = trajectory(commits(*[(0.1, 0.1)] * 23))
    labels = [t.label for t in chart.x_ticks]
    assert labels[0] == "0" and labels[-1] == "22" and len(labels) <= 7


def test_a_long_history_draws_its_lines_without_a_dot_per_commit() -> None:
    chart = trajectory(commits(*[(0.1, 0.2)] * (MAX_MARKS + 1)))
    assert not chart.marked and all(line.marks == () for line in chart.lines)
    assert all(len(line.segments) == 1 for line in chart.lines)
    assert len(chart.lines[0].segments[0].split()) == MAX_MARKS + 1
