"""The LaTeX reader on fixture trees: inputs, sections, labels, pointers, floats, sentences."""

from __future__ import annotations

from pathlib import Path

import pytest

from slopmark.paper.document import Document, Span
from slopmark.paper.latex import find_main_file, load_document

FIXTURES = Path(__file__).parent / "fixtures" / "latex"


@pytest.fixture(scope="module")
def multi() -> Document:
    return load_document(FIXTURES / "multi")


def test_inputs_cycle_and_missing_file_leave_notes(multi: Document) -> None:
    assert multi.files == ("main.tex", "sections/intro.tex", "sections/cycle.tex",
                           "sections/method.tex")  # fmt: skip
    messages = {(n.message.split(":")[0], n.at) for n in multi.notes}
    assert ("\\input cycle", Span("sections/cycle.tex", 2)) in messages
    assert ("missing \\input file 'sections/missing' (also tried .tex)", Span("main.tex", 15)) in {
        (n.message, n.at) for n in multi.notes
    }
    assert multi.title == "A Tiny Test Paper"


def test_sections_roles_numbers_and_body(multi: Document) -> None:
    rows = [(s.level, s.title, s.number, s.role, s.in_body, s.in_appendix) for s in multi.sections]
    assert rows == [
        (0, "Abstract", None, "abstract", True, False),
        (1, "Introduction", "1", "introduction", True, False),
        (1, "Our Method", "2", "method", True, False),
        (2, "Results", "2.1", "method", True, False),
        (4, "Ablation.", None, "method", True, False),
        (3, "Notes", None, "method", True, False),
        (1, "Acknowledgements", None, "acknowledgements", False, False),
        (1, "References", None, "references", False, False),
        (1, "Extra Proofs", "A", "appendix", False, True),
        (2, "More", "A.1", "appendix", False, True),
    ]
    assert [s.title for s in multi.body_sections()] == ["Introduction", "Our Method"]
    assert multi.sections[3].top == 2 and multi.sections[5].starred
    assert multi.sections[2].at == Span("sections/method.tex", 1)
    assert multi.sections[2].source.startswith("\\section[Method]{Our Method}")
    assert "\\subsection{Results}" not in multi.sections[2].source


def test_labels_kinds_and_numbers(multi: Document) -> None:
    got = {label.key: (label.kind, label.number, label.section) for label in multi.labels}
    assert got == {
        "sec:intro": ("section", "1", 1), "sec:method": ("section", "2", 2),
        "eq:loss": ("equation", "1", 2), "eq:second": ("equation", "2", 2),
        "thm:main": ("theorem", "1", 2), "lem:aux": ("theorem", "2", 2),
        "sec:results": ("section", "2.1", 3), "fig:overview": ("figure", "1", 3),
        "fig:left": ("figure", "2a", 3), "fig:curve": ("figure", "2", 3),
        "tab:main": ("table", "1", 3), "app:proofs": ("section", "A", 8),
    }  # fmt: skip
    assert multi.labels[0].at == Span("sections/intro.tex", 2)


def test_references_and_citations_per_section(multi: Document) -> None:
    refs = [(r.command, r.keys, r.section) for r in multi.references]
    assert refs == [
        ("ref", ("sec:method",), 1), ("autoref", ("tab:main",), 1),
        ("eqref", ("eq:loss",), 2), ("cref", ("thm:main", "lem:aux"), 2),
        ("ref", ("fig:overview",), 3), ("Cref", ("fig:curve",), 3),
    ]  # fmt: skip
    cites = [(c.command, c.keys, c.section) for c in multi.citations]
    assert cites == [
        ("citet", ("smith2020",), 0), ("citep", ("smith2020", "doe2021"), 1),
        ("citeyear", ("smith2020",), 1), ("cite", ("doe2021",), 3), ("citep", ("doe2021",), 4),
    ]  # fmt: skip
    assert "ghost" not in str(multi.citations)


def test_floats_captions_and_table_cells(multi: Document) -> None:
    kinds = [(f.kind, f.environment, f.caption, f.labels) for f in multi.floats]
    assert kinds == [
        ("figure", "figure", "Overview of the pipeline zzcite.", ("fig:overview",)),
        ("figure", "figure*", "Training curves.", ("fig:left", "fig:curve")),
        ("table", "table", "Main results.", ("tab:main",)),
    ]
    table = multi.floats[2].tables[0]
    assert table.rows[0] == ("Model", "Scores", "")
    assert table.rows[1] == ("Ours", "81.2", "0.93 ± 0.02")
    assert (table.numeric_cells, table.data_rows) == (5, 3)
    assert [e.name for e in multi.environments][-1] == "verbatim"
    assert "raw % not a comment" in multi.environments[-1].source


def test_sentences_respect_abbreviations_and_carry_pointers(multi: Document) -> None:
    intro = [s.text for s in multi.sentences if s.section == 1]
    assert intro == [
        "Prior work zzcite studies cats.",
        "Accuracy rose by 5% in 2020, e.g. on ImageNet.",
        "Smith et al. reported 3.5 points.",
        "See Fig. 2 and Sec. zzref for details; cf. zzref.",
        "J. Smith disagreed in zzcite.",
        "Details are in Appendix A.",
        "We agree.",
        "Cycle text here.",
    ]
    first = next(s for s in multi.sentences if s.section == 1)
    assert first.at == Span("sections/intro.tex", 4)
    assert first.citations[0].keys == ("smith2020", "doe2021")
    assert first.source.startswith("Prior work~\\citep[see][p.~3]")
    pointing = next(s for s in multi.sentences if s.text.startswith("Figure zzref"))
    assert [r.command for r in pointing.references] == ["ref", "Cref"]
    abstract = [s.text for s in multi.sentences if s.section == 0]
    assert abstract == ["We study cats.", "Our FooNet improves accuracy by 5% over zzcite."]


def test_views(multi: Document) -> None:
    assert "zzcite" in multi.prose_view and "Overview of the pipeline" not in multi.prose_view
    assert "We thank the reviewers" not in multi.prose_view
    assert "[label: fig:overview]" not in multi.prose_view
    assert "[figure figure labels: fig:overview] Overview" in multi.structure_view
    assert "[citep: smith2020, doe2021]" in multi.structure_view
    assert "## 2.1 Results  [method, body, sections/method.tex:14]" in multi.structure_view


def test_filecontents_bibliography_does_not_leak() -> None:
    document = load_document(FIXTURES / "filecontents")
    assert [s.title for s in document.sections] == [
        "Introduction", "Experiments", "Conclusion", "References",
    ]  # fmt: skip
    assert "leak2020" in document.bibliography
    assert "Leak" not in document.prose_view
    assert document.main == "paper.tex"


def test_main_file_prefers_documentclass() -> None:
    assert find_main_file(FIXTURES / "filecontents").name == "paper.tex"
    assert find_main_file(FIXTURES / "multi").name == "main.tex"
