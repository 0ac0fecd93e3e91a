"""The PDF route on NeurIPS- and ICCV-like papers compiled by pdflatex, one per citation style.

Each fixture (fixtures/pdf) is compiled in the test; its PDF must give the LaTeX route's
body sections, and for macro redundancy, cross-section references and citation isolation
units and flagged counts within ±1 of the LaTeX route's. Author–year citations (square
brackets as in NeurIPS' natbib default, or parentheses) resolve to the entries they name,
theorem-like statements come back, and ``paper views --structure`` prints the section tree
the PDF prints (dotted ``5.2.`` numbers at their depth, line numbers in the margin).
"""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

import pytest

from paper.pdflatex import compile_paper, compiled_paper_marks
from slopmark.paper.document import Document
from slopmark.paper.load import load_paper
from slopmark.paper.measures.base import choose_measures
from slopmark.paper.score import score_paper

pytestmark = compiled_paper_marks()
pytest.importorskip("pdfminer")
FIXTURES = Path(__file__).parent / "fixtures" / "pdf"
STYLES = ["neurips_bracketed", "neurips_parenthetical", "neurips_numeric", "iccv_dotted"]
WITHIN_ONE = ("macro_redundancy", "cross_section_references", "citation_isolation")


@pytest.fixture(scope="module")
def pdfs(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    folder = tmp_path_factory.mktemp("styles")
    return {name: compile_paper(FIXTURES, f"{name}.tex", folder / name) for name in STYLES}


def _counts(document: Document) -> dict[str, tuple[int, int]]:
    scored = score_paper(document, choose_measures("deterministic"))
    return {r.measure: (r.units, r.flagged) for r in scored.results if r.measure in WITHIN_ONE}


@pytest.mark.parametrize("name", STYLES)
def test_units_and_flagged_counts_are_within_one(name: str, pdfs: dict[str, Path]) -> None:
    latex, pdf = load_paper(FIXTURES / f"{name}.tex"), load_paper(pdfs[name])
    assert len(pdf.body_sections()) == len(latex.body_sections())
    ours, theirs = _counts(pdf), _counts(latex)
    assert set(ours) == set(WITHIN_ONE)
    for measure in WITHIN_ONE:
        (units, flagged), (their_units, their_flagged) = ours[measure], theirs[measure]
        assert abs(units - their_units) <= 1 and abs(flagged - their_flagged) <= 1, (
            measure, ours[measure], theirs[measure])  # fmt: skip
        assert their_units > 0


@pytest.mark.parametrize("name", ["neurips_bracketed", "neurips_parenthetical"])
def test_author_year_citations_resolve_to_their_entries(name: str, pdfs: dict[str, Path]) -> None:
    latex, pdf = load_paper(FIXTURES / f"{name}.tex"), load_paper(pdfs[name])
    cited = [key for citation in pdf.citations for key in citation.keys]
    assert cited and set(cited) <= set(pdf.bibliography)
    assert not [key for key in cited if re.fullmatch(r"(?:ref)?\d{4}[a-z]?", key)]
    assert len(cited) == sum(len(citation.keys) for citation in latex.citations)
    assert len(set(cited)) == len(latex.bibliography) == 8
    # The two 2018 papers of the same first author stay two entries (2018a, 2018b).
    assert len({key for key in cited if key.startswith("weiler2018")}) == 2


def _theorem_labels(document: Document) -> int:
    return sum(label.kind == "theorem" for label in document.labels)


@pytest.mark.parametrize(("name", "statements"), [("neurips_numeric", 2), ("iccv_dotted", 4)])
def test_theorem_like_statements_are_recovered(
    name: str, statements: int, pdfs: dict[str, Path]
) -> None:
    latex, pdf = load_paper(FIXTURES / f"{name}.tex"), load_paper(pdfs[name])
    assert _theorem_labels(latex) == statements
    assert _theorem_labels(pdf) == statements


def _tree(path: Path) -> list[str]:
    done = subprocess.run(
        [sys.executable, "-m", "slopmark", "paper", "views", str(path), "--structure"],
        capture_output=True, text=True, timeout=300, check=True,
    )  # fmt: skip
    return [line.split("  [")[0] for line in done.stdout.splitlines() if line.startswith("#")]


@pytest.mark.parametrize("name", ["neurips_bracketed", "iccv_dotted"])
def test_the_structure_view_is_the_printed_tree(name: str, pdfs: dict[str, Path]) -> None:
    tree = _tree(pdfs[name])
    assert tree == _tree(FIXTURES / f"{name}.tex")
    if name == "iccv_dotted":
        assert "## 4.2 Depth estimation" in tree and tree[-2] == "# 6 Conclusion"


def test_the_recovery_summary_counts_no_renumbered_section(pdfs: dict[str, Path]) -> None:
    done = subprocess.run(
        [sys.executable, "-m", "slopmark", "paper", "measure", str(pdfs["iccv_dotted"]),
         "--measures", "deterministic", "--json"],
        capture_output=True, text=True, timeout=300, check=True,
    )  # fmt: skip
    recovered = json.loads(done.stdout)["recovery"]
    assert recovered["renumbered"] == 0 and recovered["abstract"] == 1
    assert recovered["sections"] == 6 and recovered["bibliography"] == 4
