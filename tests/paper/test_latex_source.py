"""The LaTeX reader on in-memory sources: comments, regions, pointers, tables, bad input."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest

from slopmark.errors import BadInput
from slopmark.paper.latex import load_document, parse_source
from slopmark.paper.latex.sentences import split
from slopmark.paper.latex.tables import is_numeric


def _doc(body: str, preamble: str = "") -> str:
    return f"\\documentclass{{article}}\n{preamble}\\begin{{document}}\n{body}\n\\end{{document}}\n"


def test_escaped_percent_is_not_a_comment() -> None:
    document = parse_source(_doc("\\section{Intro}\nWe gain 5\\% here. % not this\nDone."))
    assert [s.text for s in document.sentences] == ["We gain 5% here.", "Done."]


def test_every_reference_command_is_found() -> None:
    body = ("\\section{A}\n\\ref{a} \\autoref{b} \\cref{c,d} \\Cref{e} \\crefrange{f}{g} "
            "\\eqref{h} \\pageref{i} \\nameref{j} \\vref{k} \\Vref{l} \\subref{m} "
            "\\hyperref[n]{text}.")  # fmt: skip
    refs = [(r.command, r.keys) for r in parse_source(_doc(body)).references]
    assert refs == [
        ("ref", ("a",)), ("autoref", ("b",)), ("cref", ("c", "d")), ("Cref", ("e",)),
        ("crefrange", ("f", "g")), ("eqref", ("h",)), ("pageref", ("i",)),
        ("nameref", ("j",)), ("vref", ("k",)), ("Vref", ("l",)), ("subref", ("m",)),
        ("hyperref", ("n",)),
    ]  # fmt: skip


def test_every_citation_command_and_nocite_outside_sentences() -> None:
    body = ("\\section{A}\nWe cite \\cite{a} \\citep[e.g.][]{b, c} \\citet*{d} \\citealp{e} "
            "\\citealt{f} \\citeauthor{g} \\citeyear{h} \\parencite{i} \\textcite{j} "
            "\\autocite{k} \\footcite{l}.\\nocite{m}")  # fmt: skip
    document = parse_source(_doc(body))
    commands = [(c.command, c.keys) for c in document.citations]
    assert commands[1] == ("citep", ("b", "c"))
    assert [c for c, _ in commands] == [
        "cite", "citep", "citet", "citealp", "citealt", "citeauthor", "citeyear",
        "parencite", "textcite", "autocite", "footcite", "nocite",
    ]  # fmt: skip
    (sentence,) = document.sentences
    assert len(sentence.citations) == 11
    assert sentence.text.count("zzcite") == 11


def test_math_becomes_sentinel_and_display_math_keeps_the_sentence() -> None:
    body = (
        "\\section{A}\nLet $x$ be \\(y\\) as in\n"
        "\\begin{equation}\nz=1\n\\end{equation}\nwhere z is."
    )
    (sentence,) = parse_source(_doc(body)).sentences
    assert sentence.text == "Let zzmath be zzmath as in zzmath where z is."


def test_missing_end_document_and_begin_document() -> None:
    no_end = parse_source("\\documentclass{article}\n\\begin{document}\n\\section{A}\nHi.")
    assert any("no \\end{document}" in n.message for n in no_end.notes)
    assert no_end.sections[0].title == "A"
    no_begin = parse_source("\\section{B}\nText here.")
    assert any("no \\begin{document}" in n.message for n in no_begin.notes)
    assert [s.text for s in no_begin.sentences] == ["Text here."]


def test_unbalanced_braces_recover_at_the_paragraph() -> None:
    body = "\\section{Intro\n\nBroken \\textbf{bold text.\n\n\\section{Next}\nFine \\cite{k}."
    document = parse_source(_doc(body))
    assert [s.title for s in document.sections] == ["Intro", "Next"]
    assert any("unbalanced braces after \\section" in n.message for n in document.notes)
    assert document.citations[0].keys == ("k",)


def test_section_titled_appendix_starts_the_appendix() -> None:
    body = "\\section{Introduction}\nA.\n\\section{Appendix: Proofs}\nB.\n\\section{More}\nC."
    document = parse_source(_doc(body))
    assert [(s.in_body, s.in_appendix, s.role) for s in document.sections] == [
        (True, False, "introduction"), (False, True, "appendix"), (False, True, "appendix"),
    ]  # fmt: skip


@pytest.mark.parametrize(
    ("cell", "numeric"),
    [("81.2", True), ("-3", True), ("1e-4", True), ("12\\%", True), ("$0.93 \\pm 0.02$", True),
     ("\\textbf{81.2}", True), ("0.93±0.02", True), ("n/a", False), ("Ours", False), ("", False)],
)  # fmt: skip
def test_numeric_cells(cell: str, numeric: bool) -> None:
    assert is_numeric(cell) is numeric


def test_sentence_splitting_abbreviations() -> None:
    text = "Eqs. 1 and 2 hold, resp. for Dr. Who. It is approx. 3. Then Tab. 2 shows it. End!"
    assert [text[a:b] for a, b in split(text)] == [
        "Eqs. 1 and 2 hold, resp. for Dr. Who.", "It is approx. 3.", "Then Tab. 2 shows it.",
        "End!",
    ]  # fmt: skip


@pytest.mark.parametrize(
    ("content", "message"),
    [(b"", "empty"), (b"\x00\x01\x02garbage\x00" * 10, "not text"),
     (b"just words, no commands", "no LaTeX")],
)  # fmt: skip
def test_bad_files_raise_bad_input_naming_the_file(
    make_tree: Callable[[dict[str, str | bytes]], Path], content: bytes, message: str
) -> None:
    root = make_tree({"paper.tex": content})
    with pytest.raises(BadInput, match=message) as caught:
        load_document(root / "paper.tex")
    assert "paper.tex" in str(caught.value)


def test_folder_without_main_file(make_tree: Callable[[dict[str, str | bytes]], Path]) -> None:
    root = make_tree({"part.tex": "\\section{A} text"})
    with pytest.raises(BadInput, match="documentclass"):
        load_document(root)
    with pytest.raises(BadInput, match="no such file"):
        load_document(root / "absent")
