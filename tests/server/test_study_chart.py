"""The band chart's geometry (pure): a round y bound from 0, gaps where no repository has a
value, and each repository's trace placed as the summary places it."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from slopmark.code.study.panel import paper_stats
from slopmark.code.study.summary import BandPoint, MetricSummary, Spread
from slopmark.server.study_chart import BOTTOM, HEIGHT, TOP, TraceSource, band_panel, round_bound


def summary(band: list[tuple[float, float | None]]) -> MetricSummary:
    """A metric whose band has ``median`` (and median ± 0.1 as quartiles) at each position."""
    points = tuple(
        BandPoint(x, 0 if m is None else 3, None if m is None else m - 0.1, m,
                  None if m is None else m + 0.1)
        for x, m in band
    )  # fmt: skip
    nothing = Spread.of([])
    return MetricSummary("erosion", 1, 2, nothing, nothing, points, nothing, paper_stats([], []))


@pytest.mark.parametrize(
    ("largest", "bound"),
    [(0.0, 1.0), (-1.0, 1.0), (0.83, 1.0), (1.0, 1.0), (0.3, 0.5), (1.2, 2.0), (0.021, 0.025),
     (3.0, 5.0), (7.0, 10.0), (0.2, 0.2)],
)  # fmt: skip
def test_the_y_axis_ends_at_a_round_bound(largest: float, bound: float) -> None:
    assert round_bound(largest) == pytest.approx(bound)


def test_the_band_breaks_where_no_repository_has_a_value() -> None:
    band = [(0.0, 0.2), (0.5, None), (1.0, 0.4)]
    panel = band_panel(summary(band), [])
    assert len(panel.areas) == 2 and len(panel.medians) == 2
    assert [tick.label for tick in panel.y_ticks] == ["0", "0.125", "0.25", "0.375", "0.5"]
    assert panel.y_ticks[0].at == panel.bottom and panel.x_ticks[-1].at == panel.right


def test_a_trace_places_defined_values_at_their_normalised_position() -> None:
    source = TraceSource("repo", "/studies/s/1", (0.0, None, 0.5, 1.0), ("a", "b", "c", "d"))
    panel = band_panel(summary([(0.0, 0.0), (1.0, 1.0)]), [source], with_dots=True)
    (trace,) = panel.traces
    assert [dot.title for dot in trace.dots] == ["a", "c", "d"]
    xs = [dot.x for dot in trace.dots]
    assert xs[0] == panel.left and xs[-1] == panel.right
    assert xs[1] == pytest.approx(panel.left + (panel.right - panel.left) * 2 / 3)
    assert trace.points.count(",") == 3 and band_panel(summary([]), [source]).traces[0].dots == ()


@given(st.lists(st.one_of(st.none(), st.floats(0, 50)), min_size=1, max_size=40))
def test_every_drawn_point_is_inside_the_panel(values: list[float | None]) -> None:
    source = TraceSource("r", "/", tuple(values), tuple(str(v) for v in values))
    panel = band_panel(summary([(0.0, None)]), [source], with_dots=True)
    for dot in panel.traces[0].dots:
        assert TOP - 1e-9 <= dot.y <= HEIGHT - BOTTOM + 1e-9
        assert panel.left <= dot.x <= panel.right


def test_a_subnormal_value_still_gets_a_bound_above_it() -> None:
    """10 ** floor(log10(5e-324)) underflows to 0: the bound must not run out of steps."""
    assert 5e-324 <= round_bound(5e-324) <= 1e-299
