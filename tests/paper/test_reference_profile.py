"""`--profile reference` gives the authors' release's units and flagged counts on real papers.

The expected (flagged, units) below were obtained by RUNNING the release's own code
(github.com/yerimoh/ScientificSlop, commit b622df89e96a39ea85385645e2b4726dacb2f440:
``scislop/_common/{views,tables,records}.py`` and the ``measure()`` functions of
``scislop/Structure/macro_redund``, ``scislop/Structure/xsec_ref``,
``scislop/Argument/citation`` (layer M, the paper's v4 score) and
``scislop/Artifacts/evidence_gap``), retyped into a scratch folder outside this
repository and called as ``measure({"corpus": ..., "id": ..., "main_tex": MAIN})[0]``
on each paper's main file; the values are its ``slop_numerator`` and
``slop_denominator`` (``None`` = the release found the measure not applicable).
The release's own code is not in this repository.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from corpus import CORPUS
from slopmark.paper.latex import parse_source
from slopmark.paper.load import load_with_reference
from slopmark.paper.measures.base import choose_measures
from slopmark.paper.reference import MEASURES, expand, reference_results
from slopmark.paper.score import score_paper

#: paper → measure → (flagged, units) from the release; None: not applicable there.
RELEASE: dict[str, dict[str, tuple[int, int] | None]] = {
    "ai-scientist-adaptive_dual_scale_denoising": {
        "macro_redundancy": (14, 158), "cross_section_references": (5, 10),
        "citation_isolation": (9, 10), "evidence_gap": (1, 1),
    },
    "ai-scientist-data_augmentation_grokking": {
        "macro_redundancy": (19, 163), "cross_section_references": (10, 13),
        "citation_isolation": (6, 6), "evidence_gap": (1, 1),
    },
    "ai-scientist-gan_diffusion": {
        "macro_redundancy": (18, 148), "cross_section_references": (14, 14),
        "citation_isolation": (13, 13), "evidence_gap": (1, 1),
    },
    "human-cnn-graph": {
        "macro_redundancy": (0, 166), "cross_section_references": (27, 27),
        "citation_isolation": (12, 17), "evidence_gap": (1, 1),
    },
    "human-stable-nalu": {
        "macro_redundancy": (0, 142), "cross_section_references": (26, 28),
        "citation_isolation": (3, 8), "evidence_gap": None,
    },
}  # fmt: skip

present = pytest.mark.skipif(not CORPUS.is_dir(), reason="the shared paper corpus is absent")


def _counts(paper: Path) -> dict[str, tuple[int, int] | None]:
    document, source = load_with_reference(paper)
    assert source is not None
    score = score_paper(document, choose_measures("deterministic"), None, source)
    return {
        r.measure: (r.flagged, r.units) if r.status == "ok" else None for r in score.results
    }


@present
@pytest.mark.parametrize("paper", sorted(RELEASE))
def test_reference_profile_equals_the_release(paper: str) -> None:
    assert _counts(CORPUS / paper) == RELEASE[paper]


@present
def test_the_scores_are_the_release_scores() -> None:
    """The release rounds its scores to 4 places; ours agree to that precision."""
    document, source = load_with_reference(CORPUS / "human-cnn-graph")
    score = score_paper(document, choose_measures("deterministic"), None, source)
    rounded = {r.measure: round(r.score, 4) for r in score.results if r.score is not None}
    assert rounded == {"macro_redundancy": 0.0, "cross_section_references": 1.0,
                       "citation_isolation": 0.7059, "evidence_gap": 1.0}  # fmt: skip


@present
@pytest.mark.slow
def test_cli_profile_reference_prints_the_release_counts() -> None:
    paper = CORPUS / "ai-scientist-gan_diffusion"
    out = subprocess.run(
        [sys.executable, "-m", "slopmark", "paper", "measure", str(paper), "--json",
         "--measures", "deterministic", "--profile", "reference"],
        capture_output=True, text=True, check=True,
    )  # fmt: skip
    data = json.loads(out.stdout)
    assert data["profile"] == "reference"
    got = {m["measure"]: (m["flagged"], m["units"]) for m in data["measures"]}
    assert got == RELEASE["ai-scientist-gan_diffusion"]


@pytest.mark.slow
def test_unknown_profile_is_one_line_exit_2(tmp_path: Path) -> None:
    (tmp_path / "main.tex").write_text("\\documentclass{article}\\begin{document}x\\end{document}")
    out = subprocess.run(
        [sys.executable, "-m", "slopmark", "paper", "measure", str(tmp_path), "--profile", "x"],
        capture_output=True, text=True,
    )  # fmt: skip
    assert out.returncode == 2
    assert out.stderr.strip().count("\n") == 0 and "--profile" in out.stderr


PAPER = r"""\documentclass{article}
\begin{document}
\begin{abstract}We study a method for sorting numbers quickly and well in practice.\end{abstract}
\section{Introduction}\label{sec:intro}
We study a method for sorting numbers quickly and well in practice. Prior work
\cite{a} sorts slowly. Others \cite{b,c} sort in place. See Section~\ref{sec:method}
and Section~\ref{sec:exp}.
\section{Method}\label{sec:method}
Our method is simple.\label{stray} We define the loss in Eq.~\ref{eq:loss}.
\begin{equation}\label{eq:loss} L = 0 \end{equation}
\section{Experiments}\label{sec:exp}
Table~\ref{tab:main} shows the results of Section~\ref{sec:method}.
\begin{table}\caption{Main results}\label{tab:main}
\begin{tabular}{lcc} Method & Acc & F1 \\ Ours & $81.2_{\pm 0.3}$ & 5.3x \\
Base & 70.1 & 60.2 \\ Old & 60.0 & 50.0 \\ \end{tabular}\end{table}
\end{document}
"""


def test_reference_rules_on_a_small_paper() -> None:
    """Each release rule once: the roadmap, a stray label, first sentence recycled by the
    abstract, a weaving sentence needs two keys, the table is a result table."""
    source = expand("main.tex", PAPER, lambda name: None)
    got = reference_results(source, list(MEASURES))
    xsec = got["cross_section_references"]
    # objects: 3 sections + eq:loss + stray ("other") + tab:main; the roadmap of the
    # introduction (Method, Experiments) does not count, Experiments points to Method
    # and nothing points to the equation (its pointer is local), the stray label or
    # the table (local), nor to the introduction or experiments.
    assert (xsec.flagged, xsec.units) == (5, 6)
    assert xsec.detail["roadmap_pointers"] == 2
    assert "other stray" in [i.text for i in xsec.instances]
    cite = got["citation_isolation"]
    assert (cite.flagged, cite.units) == (1, 2)
    macro = got["macro_redundancy"]
    assert macro.flagged == 1 and macro.instances[0].section == "Introduction"
    assert macro.instances[0].at.line == 5
    gap = got["evidence_gap"]
    assert (gap.flagged, gap.units) == (1, 1)


def test_a_label_right_before_a_heading_names_that_heading() -> None:
    """The release's heading-zone rule: only white space between a label and the next
    heading makes the label another name of that heading (not an object of its own)."""
    moved = PAPER.replace(r"simple.\label{stray}", "simple.").replace(
        r"\section{Experiments}", "\\label{stray}\n\\section{Experiments}"
    )
    got = reference_results(expand("main.tex", moved, lambda name: None), list(MEASURES))
    xsec = got["cross_section_references"]
    assert (xsec.flagged, xsec.units) == (4, 5)


def test_reference_profile_also_reads_in_memory_documents() -> None:
    """The default profile reads the same paper; the two agree where the rules agree
    (the release reads ``5.3x`` as text, so it needs the third data row; we read both)."""
    document = parse_source(PAPER)
    source = expand("main.tex", PAPER, lambda name: None)
    default = score_paper(document, choose_measures("evidence_gap"))
    reference = score_paper(document, choose_measures("evidence_gap"), None, source)
    assert default.results[0].flagged == reference.results[0].flagged == 1
