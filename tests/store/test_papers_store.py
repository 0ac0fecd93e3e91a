"""Papers in the run store: a findings report round-trips, standings among human papers,
and the pages' reads run on the indexes of migration 0005 (real SQLite files)."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st
from sqlalchemy import Engine

from slopmark.errors import BadInput
from slopmark.paper.document import Span
from slopmark.paper.findings import findings_json
from slopmark.paper.measures.base import Instance, MeasureResult
from slopmark.paper.score import aggregate
from slopmark.paper.sweep import PaperJob, score_one
from slopmark.server import paper_reads
from slopmark.store import open_store
from slopmark.store.papers import choose_label, store_paper

NINE = Path(__file__).parents[1] / "paper" / "fixtures" / "structure" / "cross_nine_objects.tex"


@pytest.fixture
def store(tmp_path: Path) -> Engine:
    return open_store(f"sqlite:///{tmp_path / 'papers.db'}")


def report(paper: str, flagged: int, units: int = 10) -> dict[str, object]:
    """A findings report with one scored measure holding ``flagged`` instances."""
    instances = tuple(
        Instance("macro_redundancy", Span("main.tex", 10 + i), "2 Method", f"s{i} <b>x</b>", "r")
        for i in range(flagged)
    )
    result = MeasureResult.of("macro_redundancy", "STRUCTURE", flagged, units, "sentences",
                              instances=instances)  # fmt: skip
    return findings_json(paper, aggregate([result]))


def test_a_real_report_round_trips_with_every_instance(store: Engine) -> None:
    scored = score_one(NINE, PaperJob("deterministic"))
    written = findings_json(str(NINE), scored.score)
    pid = store_paper(store, written, "ai", "default", ["a note"])
    view = paper_reads.paper_view(store, pid)
    assert view is not None
    assert (view.row.paper, view.row.label, view.notes) == (str(NINE), "ai", ["a note"])
    assert view.row.aggregate == written["aggregate"] and view.planes == written["planes"]
    stored = [(m.measure, m.status, m.score, m.flagged, m.units) for m in view.measures]
    assert stored == [(m["measure"], m["status"], m["score"], m["flagged"], m["units"])
                      for m in written["measures"]]  # fmt: skip
    expected = [(i["measure"], i["section"], i["at"]["file"], i["at"]["line"], i["text"],
                 i["repair"]) for m in written["measures"] for i in m["instances"]]  # fmt: skip
    found = paper_reads.findings(store, pid)
    assert [(f.measure, f.section, f.file, f.line, f.text, f.repair) for f in found] == expected
    assert view.row.findings == len(expected) > 0
    assert view.rests_on == written["rests_on"] and list(view.flag_planes) == written["flag_planes"]


def test_the_page_says_a_plane_rests_on_one_flag(store: Engine) -> None:
    gap = NINE.parents[1] / "artifacts" / "gap.tex"
    written = findings_json(str(gap), score_one(gap, PaperJob("deterministic")).score)
    view = paper_reads.paper_view(store, store_paper(store, written))
    assert view is not None
    assert view.rests_on["ARTIFACTS"] == ["evidence_gap (0/1)"]
    assert view.flag_planes == ("ARTIFACTS",)


def _rank(standing: paper_reads.Standing) -> tuple[float | None, int]:
    return standing.percentile, standing.n


def test_standing_is_the_mid_rank_among_the_other_human_papers(store: Engine) -> None:
    humans = [store_paper(store, report(f"h{k}", k), "human") for k in (1, 2, 3)]
    ai = store_paper(store, report("ai", 2), "ai")
    unlabelled = store_paper(store, report("u", 9))
    ai_view = paper_reads.paper_view(store, ai)
    assert ai_view is not None
    assert _rank(ai_view.measures[0].standing) == (50.0, 3)
    strip = ai_view.measures[0].standing.strip
    assert strip is not None and [bar.count for bar in strip.bars][:4] == [0, 1, 1, 1]
    top = paper_reads.paper_view(store, humans[2])
    assert top is not None and _rank(top.measures[0].standing) == (100.0, 2)
    assert _rank(top.standing) == (100.0, 2)  # the aggregate, among the others
    strip = top.measures[0].standing.strip
    assert strip is not None and sum(bar.count for bar in strip.bars) == 2  # itself left out
    lone = paper_reads.paper_view(store, unlabelled)
    assert lone is not None and lone.measures[0].standing.n == 3


def test_no_other_human_paper_leaves_the_standing_undefined(store: Engine) -> None:
    only = store_paper(store, report("h", 1), "human")
    view = paper_reads.paper_view(store, only)
    assert view is not None
    assert _rank(view.measures[0].standing) == (None, 0)
    assert _rank(view.standing) == (None, 0)


@given(st.integers(0, 50), st.integers(0, 50), st.integers(1, 50))
def test_a_percentile_lies_between_0_and_100(lower: int, same: int, more: int) -> None:
    value = paper_reads.percentile(lower, same, lower + same + more)
    assert value is not None and 0 <= value < 100


def test_filters_by_measure_and_section_and_refuses_unknown_ones(store: Engine) -> None:
    pid = store_paper(store, report("p", 3), None)
    view = paper_reads.paper_view(store, pid)
    assert view is not None and view.sections == [("2 Method", 3)]
    assert len(paper_reads.findings(store, pid, "macro_redundancy", "2 Method")) == 3
    assert paper_reads.findings(store, pid, "evidence_gap") == []
    with pytest.raises(BadInput, match="measure 'nope'"):
        paper_reads.check_filter(view, "nope", None)
    with pytest.raises(BadInput, match="section '9 Nowhere'"):
        paper_reads.check_filter(view, None, "9 Nowhere")


def test_the_list_is_newest_first_a_page_at_a_time(store: Engine) -> None:
    ids = [store_paper(store, report(f"p{k}", 1)) for k in range(paper_reads.PAGE + 3)]
    first = paper_reads.list_papers(store)
    assert [row.id for row in first] == ids[::-1][: paper_reads.PAGE]
    rest = paper_reads.list_papers(store, first[-1].id)
    assert [row.id for row in rest] == ids[:3][::-1]
    assert first[0].scores == {"macro_redundancy": 0.1}
    human = store_paper(store, report("h", 1), "human")
    assert [row.id for row in paper_reads.list_papers(store, label="human")] == [human]
    assert paper_reads.list_papers(store, human, "human") == []


@pytest.mark.parametrize(
    ("sql", "index"),
    [
        ("SELECT count(score) FROM paper_measures WHERE measure = 'm' AND label = 'human' "
         "AND score IS NOT NULL AND score < 0.5", "ix_paper_measures_rank"),
        ("SELECT count(aggregate) FROM papers WHERE label = 'human' AND aggregate < 0.5",
         "ix_papers_rank"),
        ("SELECT * FROM papers WHERE label = 'human' ORDER BY id DESC LIMIT 50",
         "ix_papers_label"),
        ("SELECT * FROM paper_findings WHERE paper_id = 1 AND measure = 'm'",
         "ix_paper_findings_filter"),
        ("SELECT * FROM paper_measures WHERE paper_id = 1", "sqlite_autoindex_paper_measures"),
    ],
)  # fmt: skip
def test_the_pages_reads_use_an_index(store: Engine, sql: str, index: str) -> None:
    with store.connect() as connection:
        plan = " ".join(str(row) for row in connection.exec_driver_sql(f"EXPLAIN QUERY PLAN {sql}"))
    assert f"INDEX {index}" in plan, plan


@pytest.mark.parametrize(("value", "label"), [(None, None), ("human", "human"), ("ai", "ai")])
def test_labels(value: str | None, label: str | None) -> None:
    assert choose_label(value) == label


def test_an_unknown_label_is_bad_input() -> None:
    with pytest.raises(BadInput, match="--label 'Human': must be one of human, ai"):
        choose_label("Human")
