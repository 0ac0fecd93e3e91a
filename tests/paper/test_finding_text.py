"""What findings show a person: symbols kept, references as the numbers the paper
prints, no sentinel, and a repair that asks for a pointer that counts."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from slopmark.paper.latex import load_document
from slopmark.paper.latex.convert import plain_text
from slopmark.paper.latex.readable import readable
from slopmark.paper.load import load_with_reference
from slopmark.paper.measures import choose_measures
from slopmark.paper.measures.base import shown
from slopmark.paper.score import score_paper

PAPER = r"""\documentclass{article}
\begin{document}
\section{Introduction}
We study losses.
\section{Method}
\begin{equation}
a = b \label{eq:a}
\end{equation}
\begin{align}
c &= d \label{eq:b} \\
e &= f \nonumber \\
g &= h \label{eq:c}
\end{align}
\begin{figure}
\caption{A $3 \times 3$ grid maps $A \rightarrow B$ and $C \Rightarrow D$
as in~\cite{foo}, by Eq.~\eqref{eq:c}.}
\label{fig:one}
\end{figure}
\section{Conclusion}
Done.
\end{document}
"""


@pytest.mark.parametrize(
    ("latex", "shown"),
    [
        (r"a $3 \times 4$ grid", "a 3 × 4 grid"),
        (r"maps $A \to B$ and $B \leftarrow C$", "maps A → B and B ← C"),
        (r"$p \Rightarrow q$, $x \rightarrow y$", "p ⇒ q, x → y"),
        (r"a 2\texttimes{} speed-up", "a 2× speed-up"),
        (r"$\alpha \leq 0.5$", "α ≤ 0.5"),
        (r"$\tof$ stays a command", "tof stays a command"),
    ],
)
def test_symbols_survive_in_findings_and_captions(latex: str, shown: str) -> None:
    assert readable(latex) == shown


def test_plain_captions_keep_math_symbols() -> None:
    assert plain_text(r"Inputs $x \times y$ map $A \to B$.") == "Inputs x × y map A → B."


def _xsec_texts(path: Path, profile: str) -> list[str]:
    document, source = load_with_reference(path, None, profile == "reference")
    score = score_paper(document, choose_measures("cross_section_references"), None, source)
    return [item.text for item in score.results[0].instances]


@pytest.mark.parametrize("profile", ["default", "reference"])
def test_objects_are_named_by_the_numbers_the_paper_prints(tmp_path: Path, profile: str) -> None:
    path = tmp_path / "paper.tex"
    path.write_text(PAPER)
    texts = _xsec_texts(path, profile)
    assert not any(key in text for text in texts for key in ("eq:a", "eq:c", "fig:one"))
    assert any(text.startswith("Equation (1)") for text in texts)
    assert any(text.startswith("Equation (3)") for text in texts)  # the \nonumber line skipped
    assert any(text.startswith("Section 2") for text in texts)


def test_a_caption_in_a_finding_has_no_sentinel(tmp_path: Path) -> None:
    path = tmp_path / "paper.tex"
    path.write_text(PAPER)
    figure = next(t for t in _xsec_texts(path, "default") if t.startswith("Figure 1"))
    assert figure == "Figure 1: A 3 × 3 grid maps A → B and C ⇒ D as in [foo], by Eq. (3)."
    assert "zz" not in figure
    labels = {label.key: label.number for label in load_document(path).labels}
    assert labels["eq:c"] == "3"


def test_the_repair_asks_for_a_pointer_that_counts(tmp_path: Path) -> None:
    path = tmp_path / "paper.tex"
    path.write_text(PAPER)
    document, _ = load_with_reference(path, None, False)
    score = score_paper(document, choose_measures("cross_section_references"))
    repairs = {item.text.split(":")[0]: item.repair for item in score.results[0].instances}
    assert repairs["Equation (1)"].startswith(
        "if a body section other than 2 Method uses Equation (1), point to Equation (1) from there"
    )
    assert "from 2 Method itself" in repairs["Equation (1)"]
    assert repairs["Section 3"].startswith("if another body section builds on Section 3")


EQUATIONS = r"""\documentclass{article}
\begin{document}
\section{Intro}
We use \eqref{eq:g}, \eqref{eq:t}, \eqref{eq:s1}, \eqref{eq:s2}, \eqref{eq:sub} and \eqref{eq:e}.
\section{Method}
\begin{gather}
a = b \label{eq:g}
\end{gather}
\begin{equation}
x = y \tag{A1} \label{eq:t}
\end{equation}
\begin{subequations}\label{eq:sub}
\begin{align}
p &= q \label{eq:s1}\\
r &= s \label{eq:s2}
\end{align}
\end{subequations}
\begin{eqnarray}
e &=& f \label{eq:e}
\end{eqnarray}
\end{document}
"""


def test_equations_are_shown_with_the_numbers_latex_prints(tmp_path: Path) -> None:
    """amsmath's subequations: one number for the group, a letter per row, and the
    counter goes on after it."""
    path = tmp_path / "paper.tex"
    path.write_text(EQUATIONS)
    document = load_document(path)
    numbers = {label.key: label.number for label in document.labels}
    assert numbers == {"eq:g": "1", "eq:t": "A1", "eq:sub": "2",
                       "eq:s1": "2a", "eq:s2": "2b", "eq:e": "3"}  # fmt: skip
    assert shown(document, document.sentences[0]) == "We use (1), (A1), (2a), (2b), (2) and (3)."


def test_labels_and_environment_wrappers_print_nothing() -> None:
    sentence = r"a \begin{equation}\label{eq:f} g_\theta(\Lambda) = B\theta, \end{equation} here"
    assert readable(sentence) == "a g_θ(Λ) = Bθ, here"
    assert readable(r"\label{tab:res}Comparison of rates") == "Comparison of rates"


REPEATED = r"""\documentclass{article}
\begin{document}
\begin{abstract}
Diffusion models achieve remarkable success across many domains of modern machine
learning research today \cite{ho2020}.
\end{abstract}
\section{Introduction}
Diffusion models achieve remarkable success across many domains of modern machine
learning research today \cite{ho2020}.
The loss $L$ is simple, as shown in Figure~\ref{fig:a} and discussed by \cite{song2021}.
\section{Related Work}
Score models were studied by \cite{song2021}.
\end{document}
"""


def test_reference_findings_show_no_placeholder(tmp_path: Path) -> None:
    path = tmp_path / "paper.tex"
    path.write_text(REPEATED)
    document, source = load_with_reference(path, None, True)
    score = score_paper(document, choose_measures("deterministic"), None, source)
    texts = [item.text for result in score.results for item in result.instances]
    assert any(text.startswith("Diffusion models achieve") for text in texts)
    assert not [text for text in texts if re.search(r"xx\w+xx|zz(?:cite|ref|math)", text)]
    assert any("[cite]" in text or "[ho2020]" in text for text in texts)


WITHIN = r"""\documentclass{article}
\usepackage{amsmath}
\numberwithin{equation}{section}
\begin{document}
\section{Intro}
\begin{equation} a = b \label{eq:one} \end{equation}
\begin{figure}\caption{One.}\label{fig:one}\end{figure}
\section{Method}
\begin{align} c &= d \label{eq:two} \\ e &= f \label{eq:three} \end{align}
\begin{figure}\caption{Two.}\label{fig:two}\end{figure}
\appendix
\section{Proofs}
\begin{equation} g = h \label{eq:four} \end{equation}
\end{document}
"""


def test_equations_numbered_within_sections(tmp_path: Path) -> None:
    r"""``\numberwithin{equation}{section}`` prints (2.1) and starts again per section;
    figures, not named, stay numbered through the paper."""
    path = tmp_path / "paper.tex"
    path.write_text(WITHIN)
    numbers = {label.key: label.number for label in load_document(path).labels}
    assert numbers == {"eq:one": "1.1", "fig:one": "1", "eq:two": "2.1", "eq:three": "2.2",
                       "fig:two": "2", "eq:four": "A.1"}  # fmt: skip
