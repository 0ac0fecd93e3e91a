"""The PDF route against the LaTeX route on the same papers, compiled by pdflatex.

For each paper of the shared corpus and two fixtures (a two-column paper with a
diagonal watermark, line numbers and running headers; a paper whose headings are
set like "1 INTRODUCTION"), the PDF must give the LaTeX route's number of body
sections and, for every deterministic measure, a score within ±0.05 of the LaTeX
route's (or both not applicable). A PDF that is not a paper is refused; a PDF
whose structure is too poor gets "not applicable" with the reason.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from corpus import CORPUS
from paper.pdflatex import compile_paper, compiled_paper_marks
from slopmark.paper.latex import find_main_file
from slopmark.paper.load import load_paper
from slopmark.paper.measures.base import choose_measures
from slopmark.paper.score import PaperScore, score_paper

pytestmark = compiled_paper_marks()
pytest.importorskip("pdfminer")
FIXTURES = Path(__file__).parent / "fixtures" / "pdf"
TOLERANCE = 0.05
CORPUS_PAPERS = sorted(p.name for p in CORPUS.glob("*") if p.is_dir()) if CORPUS.is_dir() else []


def _scores(path: Path) -> tuple[int, PaperScore]:
    document = load_paper(path)
    return len(document.body_sections()), score_paper(document, choose_measures("deterministic"))


def _assert_same_reading(tex: Path, pdf: Path) -> None:
    sections, latex = _scores(tex)
    pdf_sections, from_pdf = _scores(pdf)
    assert pdf_sections == sections
    for ours, theirs in zip(from_pdf.results, latex.results, strict=True):
        if ours.score is None or theirs.score is None:
            assert ours.score is None and theirs.score is None, (ours, theirs)
        else:
            assert abs(ours.score - theirs.score) <= TOLERANCE, (ours.measure, ours, theirs)


@pytest.mark.parametrize("paper", CORPUS_PAPERS)
def test_corpus_paper_reads_the_same_from_its_pdf(paper: str, tmp_path: Path) -> None:
    source = CORPUS / paper
    pdf = compile_paper(source, find_main_file(source).name, tmp_path / paper)
    _assert_same_reading(source, pdf)


@pytest.mark.parametrize("fixture", ["watermarked", "allcaps"])
def test_fixture_reads_the_same_from_its_pdf(fixture: str, tmp_path: Path) -> None:
    pdf = compile_paper(FIXTURES, f"{fixture}.tex", tmp_path)
    _assert_same_reading(FIXTURES / f"{fixture}.tex", pdf)


def _cli(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "slopmark", "paper", "measure", *args],
                          capture_output=True, text=True, timeout=300)  # fmt: skip


def test_a_pdf_that_is_not_a_paper_is_refused(tmp_path: Path) -> None:
    pdf = compile_paper(FIXTURES, "receipt.tex", tmp_path)
    done = _cli(str(pdf))
    assert done.returncode == 2 and done.stdout == ""
    assert done.stderr.count("\n") == 1 and "receipt.pdf: not a paper (1 page," in done.stderr


POOR = r"""\documentclass{article}
\begin{document}
\section{Overview}
""" + " ".join(f"Sentence {i} says that the method works well on the data we used." for i in range(60)) + r"""
\section{Details}
We ran it on the data once more and it worked again, as before, on every run we tried.
\end{document}
"""  # noqa: E501


def test_poor_recovery_makes_measures_not_applicable_and_says_why(tmp_path: Path) -> None:
    (tmp_path / "poor.tex").write_text(POOR)
    pdf = compile_paper(tmp_path, "poor.tex", tmp_path / "out")
    done = _cli(str(pdf), "--measures", "deterministic", "--json")
    assert done.returncode == 0, done.stderr
    data = json.loads(done.stdout)
    assert data["recovery"]["sections"] == 2 and data["recovery"]["bibliography"] == 0
    results = {m["measure"]: m for m in data["measures"]}
    for name in ("macro_redundancy", "cross_section_references", "citation_isolation"):
        assert results[name]["status"] == "not_applicable"
        assert "recovered 2 body sections, fewer than 3" in results[name]["reason"]
