"""A paper citing with biblatex: compiled by pdflatex and biber, and read by the LaTeX
route with its bibliography (the file ``\\addbibresource`` names) and every biblatex
citation command (``\\parencite``, ``\\textcite``, ``\\autocite``, ``\\citeauthor``)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from paper.pdflatex import biblatex_available, compile_paper
from slopmark.paper.latex import load_document
from slopmark.paper.load import load_paper
from slopmark.paper.measures import choose_measures
from slopmark.paper.measures.citation_isolation import citation_isolation
from slopmark.paper.score import score_paper

FIXTURE = Path(__file__).parent / "fixtures" / "biblatex"
KEYS = {"shazeer2017", "fedus2022", "lepikhin2021", "vaswani2017", "zhou2022", "kaplan2020"}


def test_the_latex_route_reads_the_bibliography_and_every_citation() -> None:
    document = load_document(FIXTURE)
    assert set(document.bibliography) == KEYS and document.notes == ()
    assert "Switch Transformers" in document.bibliography["fedus2022"]
    commands = {citation.command for citation in document.citations}
    assert commands == {"parencite", "textcite", "autocite", "citeauthor"}
    assert {key for citation in document.citations for key in citation.keys} == KEYS
    # Six citing sentences; the two citing two works weave, the other four are isolated.
    result = citation_isolation(document)
    assert (result.flagged, result.units) == (4, 6)


@pytest.mark.slow  # starts pdflatex and biber
@pytest.mark.skipif(not biblatex_available(), reason="pdflatex, biblatex or biber missing")
def test_a_biblatex_paper_compiles_with_its_citations_resolved(tmp_path: Path) -> None:
    pdfminer = pytest.importorskip("pdfminer.high_level")
    pdf = compile_paper(FIXTURE, "main.tex", tmp_path)
    text = " ".join(pdfminer.extract_text(str(pdf)).split())
    assert "Fedus et al. (2022) simplify" in text  # \textcite, author-year, maxcitenames=2
    assert "(Lepikhin et al. 2021; Fedus et al. 2022)" in text  # \autocite of two works
    assert "References" in text and "Switch Transformers" in text
    assert not re.search(r"\b(?:fedus2022|shazeer2017)\b", text)  # no key printed unresolved
    # The PDF route reads the compiled paper as the LaTeX route reads its source (±1).
    specs = choose_measures("deterministic")
    latex, rebuilt = score_paper(load_document(FIXTURE), specs), score_paper(load_paper(pdf), specs)
    for theirs, ours in zip(latex.results, rebuilt.results, strict=True):
        assert abs(ours.units - theirs.units) <= 1 and abs(ours.flagged - theirs.flagged) <= 1, (
            ours.measure, ours.flagged, ours.units, theirs.flagged, theirs.units,
        )  # fmt: skip
