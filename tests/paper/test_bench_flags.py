"""The bench reports S(p) with and without a plane that rests on a single 0/1 measure."""

from __future__ import annotations

from pathlib import Path

from slopmark.paper.bench import AGGREGATE, AGGREGATE_NO_FLAGS, flag_summary, run_folders
from slopmark.paper.measures import choose_measures

FIXTURES = Path(__file__).parent / "fixtures"
AI = [FIXTURES / "artifacts" / name for name in ("gap.tex", "acknowledged.tex")]
HUMAN = [FIXTURES / "artifacts" / name for name in ("exhibit.tex", "caption_exhibit.tex")]


def test_both_aggregates_with_their_intervals() -> None:
    result = run_folders(AI, HUMAN, choose_measures("deterministic"))
    reports = {report.measure: report for report in result.reports}
    assert set(reports) >= {AGGREGATE, AGGREGATE_NO_FLAGS}
    assert flag_summary(result.scores) == {"ARTIFACTS": 4}
    for name in (AGGREGATE, AGGREGATE_NO_FLAGS):
        area = reports[name].auroc
        assert area.value is not None and area.low is not None and area.high is not None
        assert area.low < area.high
    # Every AI paper has the gap and no human paper has: the flag alone separates them.
    assert reports["evidence_gap"].auroc.value == 1.0


def test_no_flag_plane_no_extra_report() -> None:
    specs = choose_measures("cross_section_references")
    result = run_folders(AI, HUMAN, specs)
    assert [r.measure for r in result.reports] == ["cross_section_references", AGGREGATE]
