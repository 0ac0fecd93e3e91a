"""The standing histogram's geometry (pure): bars from the baseline, the tallest bin full
height, the paper's score marked on the same 0–1 axis."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from slopmark.server.paper_chart import BINS, BOTTOM, HEIGHT, TOP, strip


def test_bars_stand_on_the_baseline_and_the_tallest_fills_the_height() -> None:
    drawn = strip([0, 2, 4, 0, 0, 0, 0, 0, 0, 1], 0.25)
    assert drawn.n == 7 and len(drawn.bars) == BINS
    for bar in drawn.bars:
        assert abs(bar.y + bar.height - drawn.baseline) < 1e-9
    assert drawn.bars[2].height == HEIGHT - TOP - BOTTOM and drawn.bars[0].height == 0
    assert drawn.bars[1].height == drawn.bars[2].height / 2
    assert drawn.bars[2].x < drawn.mark < drawn.bars[3].x


@given(st.floats(0, 1), st.lists(st.integers(0, 9), min_size=BINS, max_size=BINS))
def test_the_mark_lies_on_the_axis(score: float, counts: list[int]) -> None:
    drawn = strip(counts, score)
    assert drawn.left <= drawn.mark <= drawn.right
    assert all(bar.height >= 0 for bar in drawn.bars)
