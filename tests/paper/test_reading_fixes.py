"""Readings that were wrong: result-table cells, twice-defined labels, blank inputs, findings."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from slopmark.paper.latex import load_document, parse_source
from slopmark.paper.latex.readable import readable
from slopmark.paper.latex.tables import is_numeric, parse_tabular
from slopmark.paper.measures.evidence_gap import evidence_gap


@pytest.mark.parametrize(
    "cell",
    ["$-55.4_{\\pm 0.2}$", "5.3x", "2×", "\\textbf{81.2}", "12\\%", "$0.93 \\pm 0.02$",
     "5.3$\\times$", "1e-4", "$81.2_{\\pm 0.3}$"],
)  # fmt: skip
def test_numeric_cells(cell: str) -> None:
    assert is_numeric(cell)


@pytest.mark.parametrize("cell", ["Ours", "x", "GPT-4", "ResNet-50", "$\\pm$", ""])
def test_non_numeric_cells(cell: str) -> None:
    assert not is_numeric(cell)


TABLE = r"""\documentclass{article}\begin{document}
\section{Results}
\begin{table}\caption{Speed-ups}\label{tab:s}
\begin{tabular}{lcc} Method & Gap & Speed-up \\
Ours & $-55.4_{\pm 0.2}$ & 5.3x \\ Base & $-60.1_{\pm 0.4}$ & 1.0x \\
\end{tabular}\end{table}
\end{document}
"""


def test_a_table_of_such_cells_is_a_result_table() -> None:
    cells = parse_tabular("tabular", "{lcc} Ours & $-55.4_{\\pm 0.2}$ & 5.3x \\\\")
    assert cells.numeric == ((False, True, True),)
    result = evidence_gap(parse_source(TABLE))
    assert result.status == "ok" and (result.flagged, result.units) == (1, 1)


TWICE = r"""\documentclass{article}\begin{document}
\section{Method}\label{sec:m}
\begin{figure}\caption{Old}\label{fig:x}\end{figure}
\section{Results}
\begin{table}\caption{New}\label{fig:x}\end{table}
See \ref{fig:x}.
\end{document}
"""


def test_a_label_defined_twice_resolves_to_its_last_definition() -> None:
    document = parse_source(TWICE)
    (label,) = [lab for lab in document.labels if lab.key == "fig:x"]
    assert label.kind == "table" and label.section == 1
    assert [f.labels for f in document.floats] == [(), ("fig:x",)]
    assert any("defined again at main.tex:5" in n.message for n in document.notes)


def test_a_blank_input_file_is_read_not_missing(tmp_path: Path) -> None:
    (tmp_path / "main.tex").write_text(
        "\\documentclass{article}\\begin{document}\\section{A} Hi \\input{empty} there."
        "\\input{blank}\\input{gone}\\end{document}"
    )
    (tmp_path / "empty.tex").write_text("")
    (tmp_path / "blank.tex").write_text("  \n\n")
    notes = [n.message for n in load_document(tmp_path).notes]
    assert notes == ["missing \\input file 'gone' (also tried .tex)"]


def test_findings_text_has_no_raw_latex() -> None:
    latex = r"We reach 0\% error~\citep{a,b} in Table~\ref{tab:x} and \textbf{Eq.}~\eqref{e}."
    assert readable(latex, {"tab:x": "2", "e": "3"}) == (
        "We reach 0% error [a, b] in Table 2 and Eq. (3)."
    )


PAPER = r"""\documentclass{article}\begin{document}
\begin{abstract}Our method reaches 0\% error on every benchmark we tried here today.\end{abstract}
\section{Introduction}
Our method reaches 0\% error on every benchmark we tried here today.
""" + "\n".join(
    f"Work {i} \\cite{{k{i}}} studies topic {i} in some depth and detail." for i in range(12)
) + r"""
\section{Method}
We do things.
\section{Results}
Nothing.
\end{document}
"""


@pytest.mark.slow
def test_findings_file_holds_every_instance(tmp_path: Path) -> None:
    (tmp_path / "main.tex").write_text(PAPER)
    md, js = tmp_path / "F.md", tmp_path / "F.json"
    for out in (md, js):
        subprocess.run(
            [sys.executable, "-m", "slopmark", "paper", "measure", str(tmp_path),
             "--measures", "deterministic", "--findings", str(out)],
            check=True, capture_output=True,
        )  # fmt: skip
    data = json.loads(js.read_text())
    cite = next(m for m in data["measures"] if m["measure"] == "citation_isolation")
    assert cite["flagged"] == len(cite["instances"]) == 12
    text = md.read_text()
    assert text.count("relates to the other works") == 12
    assert "### 1 Introduction (12)" in text
    assert "0\\%" not in text and "0% error" in text
