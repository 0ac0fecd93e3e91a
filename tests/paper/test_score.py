"""The aggregate S(p) (Eq. 7) and the findings file, on hand-made measure results."""

from __future__ import annotations

import pytest

from slopmark.paper.document import Span
from slopmark.paper.findings import findings_json, findings_markdown
from slopmark.paper.measures.base import Instance, MeasureResult
from slopmark.paper.score import aggregate, without_planes


def result(measure: str, plane: str, flagged: int, units: int, **rest: object) -> MeasureResult:
    return MeasureResult.of(measure, plane, flagged, units, "units", **rest)  # type: ignore[arg-type]


def test_planes_average_their_applicable_items_then_each_other() -> None:
    score = aggregate([
        result("macro_redundancy", "STRUCTURE", 1, 4),
        result("cross_section_references", "STRUCTURE", 3, 4),
        result("citation_isolation", "ARGUMENT", 1, 10),
        result("evidence_gap", "ARTIFACTS", 0, 0),
        MeasureResult("argument_graph", "ARGUMENT", "not_run", None, 0, 0, "claims", reason="none"),
    ])  # fmt: skip
    assert score.planes == {"STRUCTURE": 0.5, "ARGUMENT": pytest.approx(0.1), "ARTIFACTS": None}
    assert score.aggregate == pytest.approx(0.3)
    assert score.covered == ("STRUCTURE", "ARGUMENT")
    assert score.applied() == ("macro_redundancy", "cross_section_references", "citation_isolation")


def test_nothing_applicable_is_undefined_not_zero() -> None:
    score = aggregate([result("evidence_gap", "ARTIFACTS", 0, 0)])
    assert score.aggregate is None
    assert score.results[0].status == "not_applicable"


def test_findings_list_every_instance_grouped_by_section() -> None:
    instances = tuple(
        Instance("citation_isolation", Span("intro.tex", n), "1 Intro" if n < 9 else "2 Related",
                 f"S{n}.", "relate it")
        for n in range(1, 12)
    )  # fmt: skip
    score = aggregate([result("citation_isolation", "ARGUMENT", 11, 20, instances=instances)])
    text = findings_markdown("paper/", score)
    assert "## Citation isolation (ARGUMENT)" in text
    assert "11 / 20 units flagged" in text
    assert text.count("- repair: relate it") == 11
    assert "### 1 Intro (8)" in text and "### 2 Related (3)" in text
    assert text.index("`intro.tex:8`") < text.index("### 2 Related") < text.index("`intro.tex:9`")
    assert len(findings_json("paper/", score)["measures"][0]["instances"]) == 11


def test_each_plane_says_what_it_rests_on() -> None:
    """Without model measures, ARTIFACTS is evidence gap alone: one 0/1 flag."""
    score = aggregate([
        result("macro_redundancy", "STRUCTURE", 1, 4),
        result("cross_section_references", "STRUCTURE", 3, 4),
        result("citation_isolation", "ARGUMENT", 1, 10),
        MeasureResult("argument_graph", "ARGUMENT", "not_run", None, 0, 0, "claims", reason="x"),
        result("evidence_gap", "ARTIFACTS", 1, 1),
    ])  # fmt: skip
    assert score.rests_on == {
        "STRUCTURE": ["macro_redundancy", "cross_section_references"],
        "ARGUMENT": ["citation_isolation"],
        "ARTIFACTS": ["evidence_gap (0/1)"],
    }
    assert score.flag_planes == ("ARTIFACTS",)
    assert score.aggregate == pytest.approx((0.5 + 0.1 + 1.0) / 3)
    assert without_planes(score, score.flag_planes) == pytest.approx((0.5 + 0.1) / 2)
    report = findings_json("paper/", score)
    assert report["rests_on"]["ARTIFACTS"] == ["evidence_gap (0/1)"]
    assert report["flag_planes"] == ["ARTIFACTS"]


def test_a_flag_beside_a_graded_measure_is_not_a_flag_plane() -> None:
    score = aggregate([
        result("evidence_gap", "ARTIFACTS", 0, 1),
        result("figure_exposition", "ARTIFACTS", 2, 5),
        result("citation_isolation", "ARGUMENT", 0, 0),
    ])  # fmt: skip
    assert score.rests_on["ARTIFACTS"] == ["evidence_gap (0/1)", "figure_exposition"]
    assert score.rests_on["ARGUMENT"] == [] and score.flag_planes == ()
    assert without_planes(score, ("ARTIFACTS",)) is None
