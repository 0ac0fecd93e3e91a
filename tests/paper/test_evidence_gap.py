"""Evidence gap: result tables, exhibits anywhere, acknowledged gaps (hand-built and parsed)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from corpus import CORPUS
from paper.expected import expected_counts
from slopmark.paper.document import (
    Document,
    Environment,
    Float,
    Label,
    Role,
    Section,
    Sentence,
    Span,
    TableCells,
)
from slopmark.paper.latex import load_document
from slopmark.paper.measures import evidence_gap as eg
from slopmark.paper.measures import measure_specs

FIXTURES = Path(__file__).parent / "fixtures" / "artifacts"
NUMBER = re.compile(r"-?\d+(?:\.\d+)?%?")

SECTIONS: tuple[tuple[str, Role, bool], ...] = (
    ("Abstract", "abstract", True),
    ("Introduction", "introduction", True),
    ("Related Work", "related_work", True),
    ("Experiments", "experiments", True),
    ("Prompts", "appendix", False),
)


def section(index: int, source: str = "") -> Section:
    title, role, body = SECTIONS[index]
    number = str(index) if body else "A"
    return Section(
        index, 1, title, False, number if index else None, role, index, body, not body,
        Span("main.tex", index * 100 + 1), source,
    )  # fmt: skip


def cells(*rows: tuple[str, ...]) -> TableCells:
    numeric = tuple(tuple(bool(NUMBER.fullmatch(c)) for c in row) for row in rows)
    return TableCells(rows, numeric)


RESULTS = cells(("Model", "Acc", "F1"), ("Ours", "81.2", "0.79"), ("Base", "77.0", "0.71"))
SMALL = cells(("Model", "Acc"), ("Ours", "81.2"), ("Base", "77.0"))


def table(where: int, tables: tuple[TableCells, ...], caption: str = "Accuracy on the test set.",
          line: int = 310) -> Float:  # fmt: skip
    return Float("table", "table", caption, ("tab:main",), where, Span("main.tex", line), "",
                 tables)  # fmt: skip


def figure(where: int, caption: str) -> Float:
    return Float("figure", "figure", caption, (), where, Span("main.tex", where * 100 + 50), "")


def environment(name: str, where: int, source: str = "") -> Environment:
    text = source or f"\\begin{{{name}}}\nInput: 2+2\nOutput: 4\n\\end{{{name}}}"
    return Environment(name, where, Span("main.tex", where * 100 + 60), text)


def said(text: str, where: int = 3) -> Sentence:
    return Sentence(text, where, Span("main.tex", where * 100 + 70), source=text)


def document(
    floats: tuple[Float, ...] = (),
    environments: tuple[Environment, ...] = (),
    sentences: tuple[Sentence, ...] = (),
    sources: dict[int, str] | None = None,
) -> Document:
    sources = sources or {}
    sections = tuple(section(i, sources.get(i, "")) for i in range(len(SECTIONS)))
    labels = (Label("tab:main", "table", 3, "1", Span("main.tex", 311)),)
    return Document(
        "main.tex", ("main.tex",), None, sections, labels, (), (), floats, environments,
        sentences,
    )  # fmt: skip


def test_result_table_without_any_exhibit_is_a_gap() -> None:
    result = eg.evidence_gap(document((table(3, (RESULTS,)),)))
    assert (result.status, result.score, result.flagged, result.units) == ("ok", 1.0, 1, 1)
    (instance,) = result.instances
    assert instance.at == Span("main.tex", 310)
    assert instance.section == "3 Experiments"
    assert instance.text.startswith("Table 1: Accuracy on the test set.")
    assert "no example" in instance.text
    assert instance.repair == "show one concrete input/output or failure case from the records"
    assert result.detail["result_tables"] == ["Table 1: Accuracy on the test set."]


def test_an_exhibit_in_the_body_closes_the_gap() -> None:
    result = eg.evidence_gap(document((table(3, (RESULTS,)),), (environment("verbatim", 3),)))
    assert (result.score, result.flagged, result.units, result.instances) == (0.0, 0, 1, ())
    assert result.detail["exhibits"] == [
        {"kind": "environment", "what": "verbatim", "at": {"file": "main.tex", "line": 360}}
    ]


def test_an_exhibit_only_in_the_appendix_closes_the_gap() -> None:
    paper = document((table(3, (RESULTS,)),), (environment("lstlisting", 4),))
    assert eg.evidence_gap(paper).score == 0.0


def test_too_few_numeric_cells_is_not_applicable_with_the_reason() -> None:
    result = eg.evidence_gap(document((table(3, (SMALL,)),)))
    assert result.status == "not_applicable" and result.score is None
    assert result.reason is not None and "≥ 4 numeric cells" in result.reason


def test_a_result_table_only_in_the_appendix_is_not_applicable() -> None:
    assert eg.evidence_gap(document((table(4, (RESULTS,)),))).status == "not_applicable"


BARE = "\\begin{tabular}{lcc}\nOurs & 81.2 & 0.79 \\\\\nBase & 77.0 & 0.71 \\\\\n\\end{tabular}"


def test_a_bare_tabular_outside_floats_is_a_result_table() -> None:
    result = eg.evidence_gap(document(environments=(environment("tabular", 3, BARE),)))
    assert (result.status, result.score) == ("ok", 1.0)
    assert result.detail["result_tables"] == ["Tabular outside a float (main.tex:360)"]


@pytest.mark.parametrize("name", ["array", "tabular"])
def test_math_arrays_and_tabulars_inside_floats_are_not_bare_tables(name: str) -> None:
    inside = Float("table", "table", "Settings.", (), 3, Span("main.tex", 358), "\n\n\n", ())
    paper = document((inside,), (environment(name, 3, BARE),))
    assert eg.evidence_gap(paper).status == "not_applicable"


ACKNOWLEDGED = (
    said("We did not inspect individual model outputs."),
    said("All conclusions rest on aggregate metrics over five seeds."),
)


def test_an_acknowledged_gap_still_scores_one_and_quotes_the_statements() -> None:
    result = eg.evidence_gap(document((table(3, (RESULTS,)),), sentences=ACKNOWLEDGED))
    assert (result.score, result.flagged, result.units) == (1.0, 1, 1)
    assert result.detail["acknowledged_gap"] == {
        "no_case_inspected": "We did not inspect individual model outputs.",
        "aggregate_only": "All conclusions rest on aggregate metrics over five seeds.",
    }


def test_half_an_acknowledgement_is_quoted_nowhere() -> None:
    paper = document((table(3, (RESULTS,)),), sentences=ACKNOWLEDGED[1:])
    result = eg.evidence_gap(paper)
    assert result.score == 1.0 and "acknowledged_gap" not in result.detail


def test_an_exhibit_beats_an_acknowledgement() -> None:
    paper = document((table(3, (RESULTS,)),), (environment("minted", 3),), ACKNOWLEDGED)
    assert eg.evidence_gap(paper).score == 0.0


@pytest.mark.parametrize(
    ("caption", "announces"),
    [
        ("Examples of generated captions.", True),
        ("Case study: a failed proof.", True),
        ("Failure cases of the planner.", True),
        ("Generated samples for each dataset.", True),
        ("Qualitative comparison on three images.", True),
        ("Accuracy for each dataset, for example CIFAR.", False),
        ("Accuracy against the number of training examples.", False),
        ("Training loss over time.", False),
    ],
)
def test_captions_that_announce_an_exhibit(caption: str, announces: bool) -> None:
    assert eg.announces_exhibit(caption) is announces
    paper = document((table(3, (RESULTS,)), figure(3, caption)))
    assert eg.evidence_gap(paper).score == (0.0 if announces else 1.0)


@pytest.mark.parametrize(
    ("name", "where", "source", "exhibit"),
    [
        ("quote", 3, "", True),
        ("quotation", 2, "", False),
        ("promptbox", 4, "", True),
        ("tcolorbox", 3, "", True),
        ("verbatim", 3, "\\begin{verbatim}\n\\end{verbatim}", False),
        ("itemize", 3, "", False),
        ("lrbox", 3, "", False),
    ],
)
def test_display_environments(name: str, where: int, source: str, exhibit: bool) -> None:
    paper = document((table(3, (RESULTS,)),), (environment(name, where, source),))
    assert eg.evidence_gap(paper).score == (0.0 if exhibit else 1.0)


def _quoted(words: int) -> str:
    return "The annotator wrote ``" + " ".join(["word"] * words) + "'' in the log."


@pytest.mark.parametrize(
    ("where", "words", "exhibit"), [(3, 40, True), (3, 39, False), (2, 60, False), (4, 45, True)]
)
def test_long_quotations_outside_related_work(where: int, words: int, exhibit: bool) -> None:
    paper = document((table(3, (RESULTS,)),), sources={where: _quoted(words)})
    assert eg.evidence_gap(paper).score == (0.0 if exhibit else 1.0)


def test_quotation_forms() -> None:
    body = " ".join(["word"] * 40)
    for text in (f"“{body}”", f'"{body}"', f"\\enquote{{{body}}}"):
        assert eg.long_quotations(text) == [body]


def test_the_registered_measure_computes_the_same_result() -> None:
    paper = document((table(3, (RESULTS,)),))
    spec = measure_specs()["evidence_gap"]
    assert spec.build is eg.EvidenceGap
    assert spec.name == "evidence_gap" and spec.plane == "ARTIFACTS"
    assert not spec.needs_model
    assert spec.build().measure(paper, None) == eg.evidence_gap(paper)


@pytest.mark.parametrize("path", sorted(FIXTURES.glob("*.tex")), ids=lambda p: p.stem)
def test_fixture_papers_parse_to_their_expected_result(path: Path) -> None:
    expected = expected_counts(path)
    result = eg.evidence_gap(load_document(path))
    assert result.status == expected["status"]
    assert result.score == (None if expected["score"] == "none" else float(expected["score"]))


@pytest.mark.skipif(not CORPUS.is_dir(), reason="the shared corpus is absent")
@pytest.mark.parametrize("paper", sorted(p.name for p in CORPUS.glob("*") if p.is_dir()))
def test_corpus_papers_are_measured_without_error(paper: str) -> None:
    result = eg.evidence_gap(load_document(CORPUS / paper))
    assert result.status in ("ok", "not_applicable")
    assert result.units == (1 if result.status == "ok" else 0)
