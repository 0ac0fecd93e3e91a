"""The PDF route: fixture PDFs laid out with matplotlib, rebuilt to LaTeX, read back.

Each fixture is a list of text placements (page, x, baseline y from the top, text, size,
bold) drawn on US-letter pages, so the expected headings, captions, pointers, citations
and table cells are known exactly.
"""

from __future__ import annotations

import random
import shutil
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

import pytest

from slopmark.errors import BadInput
from slopmark.paper.document import Document
from slopmark.paper.pdf import load_pdf, rebuild_pdf, rebuild_source
from slopmark.paper.pdf.bibliography import first_surname
from slopmark.paper.pdf.inline import Context, to_latex

pytest.importorskip("pdfminer")
matplotlib = pytest.importorskip("matplotlib")

WIDTH, HEIGHT = 612.0, 792.0


@dataclass(frozen=True)
class Text:
    page: int
    x: float
    y: float
    text: str
    size: float = 10
    bold: bool = False


def write_pdf(path: Path, texts: list[Text], pages: int) -> Path:
    """Draw the placements on ``pages`` US-letter pages (TrueType fonts embedded)."""
    matplotlib.use("Agg")
    from matplotlib import pyplot
    from matplotlib.backends.backend_pdf import PdfPages

    with matplotlib.rc_context({"pdf.fonttype": 42}), PdfPages(path) as pdf:
        for page in range(1, pages + 1):
            figure = pyplot.figure(figsize=(WIDTH / 72, HEIGHT / 72))
            for item in (t for t in texts if t.page == page):
                weight = "bold" if item.bold else "normal"
                figure.text(item.x / WIDTH, 1 - item.y / HEIGHT, item.text,
                            fontsize=item.size, fontweight=weight)  # fmt: skip
            pdf.savefig(figure)
            pyplot.close(figure)
    return path


def flow(page: int, x: float, y: float, lines: list[str], size: float = 10) -> list[Text]:
    """Lines of running text, 12 pt apart."""
    return [Text(page, x, y + 12 * i, line, size) for i, line in enumerate(lines)]


def heading(
    page: int, y: float, number: str, title: str, size: float = 12, x: float = 72
) -> list[Text]:
    return [Text(page, x, y, number, size, True), Text(page, x + 22, y, title, size, True)]


#: Running text enough for a paper (a PDF with fewer than 150 words of prose is refused).
PROSE = [
    "The proof proceeds by induction on the number of layers that the router has skipped",
    "so far, and the base case holds because a model with no skipped layer is the dense",
    "model itself. For the step, we assume that the claim holds for a model that skips k",
    "layers and show that it holds for one that skips one more layer, since the gate of",
    "that layer is closed only when the score of the token is below the threshold that",
    "we chose before training. The argument uses no property of the data other than the",
    "bound on the norm of the hidden state, which the layer normalisation guarantees for",
    "every token of every sequence we consider. The same reasoning extends to the case in",
    "which several layers are skipped at once, because the gates are applied one after the",
    "other and each of them sees the hidden state that the previous layers have produced.",
    "We checked every step of the argument on small models where the bound can be",
    "computed exactly, and in each case the measured error stayed below the bound we give.",
    "This completes the proof of the claim that the routed model stays close to the dense",
    "model on every input, which the experiments of the main text confirm on real data.",
]


def single_column_paper() -> list[Text]:
    """Two pages, author–year citations, a figure, a table, an equation and an appendix."""
    return [
        *[Text(page, 250, 40, "Preprint, under review", 8) for page in (1, 2)],
        *[Text(page, 300, 760, str(page)) for page in (1, 2)],
        Text(1, 150, 80, "Sparse Routing for Fast Inference", 17, True),
        Text(1, 200, 105, "Ada Lovelace and Alan Turing", 11),
        Text(1, 72, 140, "Abstract", 12, True),
        *flow(1, 72, 160, ["We route tokens sparsely to cut the cost of inference. Our method",
                           "is faster than dense baselines at the same accuracy."]),
        *heading(1, 210, "1", "Introduction"),
        *flow(1, 72, 232, [
            "Dense models are slow (Smith et al., 2020; Lee and Kim, 2019). Vaswani et al.",
            "(2017) introduced attention, and routing was studied by [3, 5–7]. Fig-",
            "ure 1 shows our pipeline and",
            "Section 3 reports results; Table 1 compares the methods.",
        ]),
        Text(1, 72, 320, "Figure 1: Overview of the pipeline. Tokens pass a router.", 9),
        *heading(1, 360, "2", "Method"),
        *flow(1, 72, 382, ["We describe the router here."]),
        *heading(1, 410, "2.1", "Setup", 11),
        *flow(1, 72, 432, ["The router scores each token with Eq. (1) below."]),
        Text(1, 250, 460, "y = W x + b"),
        Text(1, 520, 460, "(1)"),
        *heading(2, 72, "3", "Experiments"),
        *flow(2, 72, 94, ["Table 1 shows that our router beats the baseline, as Section",
                          "2.1 predicts and Figure 1 illustrates."]),
        Text(2, 72, 140, "Table 1: Results on the test set.", 9),
        Text(2, 150, 160, "Method"), Text(2, 300, 160, "Acc"), Text(2, 400, 160, "F1"),
        Text(2, 150, 174, "Dense"), Text(2, 300, 174, "78.4"), Text(2, 400, 174, "0.71"),
        Text(2, 150, 188, "Routed (ours)"), Text(2, 300, 188, "81.2"), Text(2, 400, 188, "0.76"),
        *heading(2, 230, "4", "Conclusion"),
        *flow(2, 72, 252, ["Routing helps (Smith et al., 2020)."]),
        Text(2, 72, 290, "References", 12, True),
        Text(2, 72, 312, "Lee, J. and Kim, S. 2019. Fast routing. In Proc. of the X Workshop."),
        Text(2, 72, 324, "Smith, A., Jones, B., and Brown, C. 2020. Sparse models for"),
        Text(2, 84, 336, "everything. Journal of Y."),
        Text(2, 72, 348, "Vaswani, A. et al. 2017. Attention is all you need."),
        *heading(2, 390, "A", "Proofs"),
        *flow(2, 72, 412, ["The bound of Section 2 holds; Appendix A gives the proof."]),
        *flow(2, 72, 440, PROSE),
    ]  # fmt: skip


def two_column_paper() -> list[Text]:
    """One page in two columns with numeric citations and a narrow table on the right."""
    left, right = 54, 320
    return [
        Text(1, 180, 70, "Graph Filters at Scale", 16, True),
        Text(1, left, 110, "Abstract", 10, True),
        *flow(1, left, 126, ["We filter graphs with fast localized", "spectral filters."]),
        *heading(1, 166, "1", "Introduction", x=left),
        *flow(1, left, 186, ["Graphs are common [1]. Prior work",
                             "[2, 3] uses spectral filters, see",
                             "Figure 2. Section 2 gives details."]),
        Text(1, left, 240, "Figure 2: Model architecture.", 9),
        *heading(1, 110, "2", "Method", x=right),
        *flow(1, right, 130, ["We extend [1] with pooling; Table 3", "lists the accuracy."]),
        Text(1, right, 170, "Table 3: Accuracy.", 9),
        Text(1, right + 20, 188, "Model"), Text(1, right + 120, 188, "Acc"),
        Text(1, right + 20, 202, "Ours"), Text(1, right + 120, 202, "91.5"),
        Text(1, right + 20, 216, "Base"), Text(1, right + 120, 216, "88.0"),
        Text(1, right, 250, "References", 12, True),
        *flow(1, right, 270, ["[1] Defferrard, M. Graph networks. 2016.",
                              "[2] Bruna, J. Spectral networks. 2014.",
                              "[3] Kipf, T. Graph convolutions. 2017."]),
    ]  # fmt: skip


@pytest.fixture(scope="module")
def single(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = tmp_path_factory.mktemp("pdf")
    return write_pdf(folder / "single.pdf", single_column_paper(), pages=2)


@pytest.fixture(scope="module")
def double(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = tmp_path_factory.mktemp("pdf")
    return write_pdf(folder / "double.pdf", two_column_paper(), pages=1)


def test_headings_title_abstract_and_appendix(single: Path) -> None:
    source = rebuild_source(single)
    assert r"\title{Sparse Routing for Fast Inference}" in source
    assert r"\author{Ada Lovelace and Alan Turing}" in source
    assert "\\begin{abstract}\nWe route tokens sparsely to cut the cost of inference." in source
    expected = [("section", "Introduction", "1"), ("section", "Method", "2"),
                ("subsection", "Setup", "2.1"), ("section", "Experiments", "3"),
                ("section", "Conclusion", "4"), ("section", "Proofs", "A")]  # fmt: skip
    for command, title, number in expected:
        assert f"\\{command}{{{title}}}\n\\label{{sec:{number}}}" in source
    assert source.index(r"\begin{thebibliography}") < source.index(r"\appendix")
    assert source.index(r"\appendix") < source.index(r"\section{Proofs}")
    assert source.count(r"\section") == 5
    assert "Preprint" not in source


def test_captions_become_labelled_floats(single: Path) -> None:
    source = rebuild_source(single)
    assert ("\\begin{figure}\n\\caption{Overview of the pipeline. Tokens pass a router.}\n"
            "\\label{fig:1}\n\\end{figure}") in source  # fmt: skip
    assert "\\caption{Results on the test set.}\n\\label{tab:1}\n\\begin{tabular}{lll}" in source
    rows = ["Method & Acc & F1", "Dense & 78.4 & 0.71", "Routed (ours) & 81.2 & 0.76"]
    assert "".join(f"{row} \\\\\n" for row in rows) in source
    assert "\\begin{equation}\ny = W x + b\n\\label{eq:1}\n\\end{equation}" in source


def test_printed_pointers_become_refs(single: Path) -> None:
    source = rebuild_source(single)
    for pointer in [r"Figure~\ref{fig:1} shows", r"Section~\ref{sec:3} reports",
                    r"Table~\ref{tab:1} compares", r"Eq.~\eqref{eq:1} below",
                    r"Section~\ref{sec:2.1} predicts", r"Appendix~\ref{sec:A} gives"]:  # fmt: skip
        assert pointer in source


def test_citations_and_bibliography_keys_agree(single: Path) -> None:
    source = rebuild_source(single)
    assert r"slow \citep{smith2020,lee2019}. \citet{vaswani2017} introduced" in source
    # In a paper whose reference list is author–year, bracketed numbers are no citations.
    assert r"studied by [3, 5–7]." in source
    assert r"\bibitem{lee2019} Lee, J. and Kim, S. 2019." in source
    assert (
        r"\bibitem{smith2020} Smith, A., Jones, B., and Brown, C. 2020. Sparse models for e"
        in source
    )
    assert r"\bibitem{vaswani2017}" in source
    assert "Routing helps \\citep{smith2020}." in source


def test_two_columns_are_read_left_then_right(double: Path) -> None:
    source = rebuild_source(double)
    order = [r"\title{Graph Filters at Scale}", r"\begin{abstract}", r"\section{Introduction}",
             r"\label{fig:2}", r"\section{Method}", r"\label{tab:3}",
             r"\begin{thebibliography}"]  # fmt: skip
    positions = [source.index(marker) for marker in order]
    assert positions == sorted(positions)
    assert r"Graphs are common \cite{ref1}. Prior work \cite{ref2,ref3} uses spectral" in source
    assert r"see Figure~\ref{fig:2}. Section~\ref{sec:2} gives details." in source
    assert "Model & Acc \\\\\nOurs & 91.5 \\\\\nBase & 88.0 \\\\" in source
    assert r"\bibitem{ref3} Kipf, T. Graph convolutions. 2017." in source


def test_numbered_citations_past_the_bibliography_stay_text() -> None:
    assert to_latex("see [4] and [2]", Context(numeric_entries=3)) == r"see [4] and \cite{ref2}"


def test_section_numbers_latex_would_not_give_are_noted(tmp_path: Path) -> None:
    texts = [*heading(1, 80, "1", "Introduction"), *flow(1, 72, 100, ["Some text here."]),
             *heading(1, 140, "3", "Method"), *flow(1, 72, 160, ["More text here."])]  # fmt: skip
    rebuilt = rebuild_pdf(write_pdf(tmp_path / "gap.pdf", texts, pages=1))
    assert rebuilt.notes == ("the PDF prints section 3 where LaTeX would number it 2",)
    assert "\\section{Method}\n\\label{sec:3}" in rebuilt.source


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("Figs. 2 and 3", r"Figs.~\ref{fig:2} and \ref{fig:3}"),
        ("§4 and Sec. 5", r"§\ref{sec:4} and Sec.~\ref{sec:5}"),
        ("Equation 3", r"Equation~\eqref{eq:3}"),
        ("Algorithm 1 runs", r"Algorithm~\ref{alg:1} runs"),
        ("(e.g., Smith, 2019, 2020)", r"\citep[e.g.,][]{smith2019,smith2020}"),
        ("(van der Berg & Ng, 2021b)", r"\citep{berg2021b}"),
        ("in [0, 1] at 50% (in 2020)", r"in [0, 1] at 50\% (in 2020)"),
        ("a_b & {c} # $d", r"a\_b \& \{c\} \# \$d"),
    ],
)
def test_inline_rules(text: str, expected: str) -> None:
    assert to_latex(text) == expected


@pytest.mark.parametrize(
    ("entry", "surname"),
    [
        ("Smith, J. and Lee, K. 2020.", "Smith"),
        ("Jacob Devlin, Ming-Wei Chang. 2019.", "Devlin"),
        ("J. Smith and K. Lee (2020)", "Smith"),
    ],  # fmt: skip
)
def test_first_surname(entry: str, surname: str) -> None:
    assert first_surname(entry) == surname


ENCRYPTED_OBJECTS = [
    b"<< /Type /Catalog /Pages 2 0 R >>",
    b"<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
    b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] >>",
    b"<< /Filter /Standard /V 1 /R 2 /P -4 /O <" + b"41" * 32 + b"> /U <" + b"42" * 32 + b"> >>",
]


def encrypted_pdf(path: Path) -> Path:
    """A one-page PDF under the standard security handler whose password is not empty."""
    out = bytearray(b"%PDF-1.4\n")
    offsets = []
    for number, body in enumerate(ENCRYPTED_OBJECTS, start=1):
        offsets.append(len(out))
        out += b"%d 0 obj\n" % number + body + b"\nendobj\n"
    start = len(out)
    out += b"xref\n0 5\n0000000000 65535 f \n"
    out += b"".join(b"%010d 00000 n \n" % offset for offset in offsets)
    out += b"trailer\n<< /Size 5 /Root 1 0 R /Encrypt 4 0 R /ID [<" + b"ab" * 16 + b"> <"
    out += b"ab" * 16 + b">] >>\nstartxref\n%d\n%%%%EOF\n" % start
    path.write_bytes(bytes(out))
    return path


def test_encrypted_pdf_is_bad_input(tmp_path: Path) -> None:
    with pytest.raises(BadInput, match=r"locked\.pdf: not a readable PDF \(it is encrypted"):
        rebuild_source(encrypted_pdf(tmp_path / "locked.pdf"))


def test_files_that_are_no_pdf_are_bad_input(tmp_path: Path, single: Path) -> None:
    text = tmp_path / "notes.pdf"
    text.write_text("just some notes, not a PDF\n")
    cut = tmp_path / "cut.pdf"
    cut.write_bytes(single.read_bytes()[:300])
    for path in (text, cut, tmp_path / "missing.pdf"):
        with pytest.raises(BadInput, match=rf"^{path}: "):
            rebuild_source(path)


def test_pdf_without_text_is_bad_input(tmp_path: Path) -> None:
    blank = write_pdf(tmp_path / "scan.pdf", [], pages=1)
    with pytest.raises(BadInput, match="scan.pdf: the PDF has no text layer"):
        rebuild_source(blank)


@pytest.mark.slow
def test_missing_pdfminer_names_the_extra(single: Path) -> None:
    code = (
        "import sys; sys.modules['pdfminer.high_level'] = None\n"
        "from pathlib import Path\n"
        "from slopmark.errors import BadInput\n"
        "from slopmark.paper.pdf import rebuild_source\n"
        "try:\n    rebuild_source(Path(sys.argv[1]))\n"
        "except BadInput as error:\n    print(error)\n"
    )
    done = subprocess.run([sys.executable, "-c", code, str(single)],
                          capture_output=True, text=True, check=True)  # fmt: skip
    assert done.stdout.strip() == f"{single}: reading PDFs needs: pip install 'slopmark[pdf]'"


def needs_reader() -> None:
    """Skip until the LaTeX reader (``slopmark.paper.latex.parse_source``) has landed."""
    latex = pytest.importorskip("slopmark.paper.latex")
    if not hasattr(latex, "parse_source"):
        pytest.skip("slopmark.paper.latex.parse_source is not there yet")


def test_load_pdf_reads_the_rebuilt_source(single: Path) -> None:
    needs_reader()
    document = load_pdf(single)
    assert document.origin == "pdf"
    assert document.main == "single.pdf"
    body = [(s.title, s.number) for s in document.body_sections()]
    assert body == [("Introduction", "1"), ("Method", "2"), ("Experiments", "3"),
                    ("Conclusion", "4")]  # fmt: skip
    assert [(s.title, s.number, s.in_appendix) for s in document.sections if s.in_appendix] == [
        ("Proofs", "A", True)
    ]
    assert [s.title for s in document.sections if s.level == 2] == ["Setup"]
    kinds = {label.key: label.kind for label in document.labels}
    assert kinds == {"sec:1": "section", "sec:2": "section", "sec:2.1": "section",
                     "sec:3": "section", "sec:4": "section", "sec:A": "section",
                     "fig:1": "figure", "tab:1": "table", "eq:1": "equation"}  # fmt: skip
    pointed = {key for reference in document.references for key in reference.keys}
    assert pointed == {"fig:1", "tab:1", "sec:3", "sec:2.1", "sec:2", "sec:A", "eq:1"}
    cited = {key for citation in document.citations for key in citation.keys}
    assert cited == {"smith2020", "lee2019", "vaswani2017"}
    (table,) = [float_ for float_ in document.floats if float_.kind == "table"]
    (cells,) = table.tables
    assert cells.rows[1] == ("Dense", "78.4", "0.71")
    assert (cells.numeric_cells, cells.data_rows) == (4, 2)
    assert [f.caption for f in document.floats if f.kind == "figure"] == [
        "Overview of the pipeline. Tokens pass a router."
    ]


def test_load_pdf_notes_numbering_differences(tmp_path: Path) -> None:
    needs_reader()
    texts = [*heading(1, 80, "1", "Introduction"), *flow(1, 72, 100, ["See Section 3."]),
             *heading(1, 140, "3", "Method"),
             *flow(1, 72, 160, ["More text here.", *PROSE])]  # fmt: skip
    document = load_pdf(write_pdf(tmp_path / "gap.pdf", texts, pages=1))
    assert [note.message for note in document.notes if "prints" in note.message] == [
        "the PDF prints section 3 where LaTeX would number it 2"
    ]
    assert {key for reference in document.references for key in reference.keys} == {"sec:3"}


def test_floats_move_to_their_first_mention(tmp_path: Path) -> None:
    texts = [
        *heading(1, 80, "1", "Introduction"),
        Text(1, 72, 110, "Figure 1: A float set before the text naming it.", 9),
        Text(1, 72, 140, "Table 2: A table no sentence names.", 9),
        *flow(1, 72, 170, ["Nothing to see here."]),
        *heading(1, 210, "2", "Method"),
        *flow(1, 72, 232, ["Figure 1 shows the method."]),
    ]
    source = rebuild_source(write_pdf(tmp_path / "drift.pdf", texts, pages=1))
    order = [r"\label{tab:2}", r"\section{Method}", "Figure~\\ref{fig:1} shows", r"\label{fig:1}"]
    positions = [source.index(marker) for marker in order]
    assert positions == sorted(positions)


REAL_PAPER = r"""\documentclass[twocolumn,10pt]{article}
\usepackage{amsmath}
\title{Sparse Token Routing for Efficient Transformer Inference}
\author{Ada Lovelace \and Alan Turing}
\date{}
\begin{document}
\maketitle
\begin{abstract}
Transformers spend the same computation on every token. We propose a sparse router that skips
computation for easy tokens and keeps accuracy on standard benchmarks.
\end{abstract}
\section{Introduction}\label{sec:intro}
Large language models are expensive to run~\cite{a,b}. Prior work on conditional
computation~\cite{c} routes tokens to experts, and early exiting~\cite{b,c,d} stops computation
for confident tokens. However, these methods need a separate training stage.
Figure~\ref{fig:pipe} shows our pipeline, Section~\ref{sec:exp} reports our results and
Table~\ref{tab:res} compares the methods.
\begin{figure}[t]
\centering
\fbox{\rule{0pt}{2cm}\rule{4cm}{0pt}}
\caption{Overview of the pipeline. Tokens pass a learned router.}\label{fig:pipe}
\end{figure}
\section{Method}\label{sec:method}
Our router assigns each token a score and skips the layer when the score falls below a
threshold, as in Equation~\eqref{eq:score}:
\begin{equation}\label{eq:score}
s_i = w h_i + b
\end{equation}
\subsection{Training}\label{sec:train}
We train the router jointly with the model using a straight-through estimator.
\section{Experiments}\label{sec:exp}
We evaluate on three benchmarks. As discussed in Section~\ref{sec:train}, the threshold
controls the trade-off. Table~\ref{tab:res} lists accuracy and speed.
\begin{table}[t]
\centering
\caption{Results on the test sets.}\label{tab:res}
\begin{tabular}{lcc}
Method & Accuracy & Speedup \\
Dense & 78.4 & 1.0 \\
Early exit & 76.9 & 1.4 \\
Ours & 78.1 & 2.3 \\
\end{tabular}
\end{table}
Our router keeps accuracy within 0.3 points of the dense model, as the analysis of
Section~\ref{sec:method} predicts.
\section{Conclusion}
Sparse routing makes inference cheaper with little loss in accuracy.
\begin{thebibliography}{9}
\bibitem{a} A. Author. Large models. In Proc. of NeurIPS, 2020.
\bibitem{b} B. Writer and C. Scribe. Early exits for transformers. In Proc. of ACL, 2020.
\bibitem{c} N. Shazeer et al. Outrageously large neural networks. In Proc. of ICLR, 2017.
\bibitem{d} D. Dev. Confident adaptive language modeling. In Proc. of NeurIPS, 2022.
\end{thebibliography}
\end{document}
"""


@pytest.mark.slow
def test_a_pdflatex_paper_reads_like_its_source(tmp_path: Path) -> None:
    """The same paper through pdflatex and the PDF route, and through the LaTeX reader."""
    needs_reader()
    if shutil.which("pdflatex") is None:
        pytest.skip("pdflatex is not installed")
    from slopmark.paper.latex import load_document

    tex = tmp_path / "paper.tex"
    tex.write_text(REAL_PAPER)
    for _ in range(2):
        subprocess.run(["pdflatex", "-interaction=nonstopmode", "-halt-on-error", tex.name],
                       cwd=tmp_path, capture_output=True, check=True, timeout=120)  # fmt: skip
    from_pdf, from_tex = load_pdf(tmp_path / "paper.pdf"), load_document(tex)

    def shape(document: Document) -> tuple[object, ...]:
        tables = [cells.rows for f in document.floats for cells in f.tables]
        return (
            [(s.title, s.number, s.in_body) for s in document.sections],
            sorted(label.kind for label in document.labels if label.kind != "section"),
            sorted((len(r.keys), r.section) for r in document.references),
            sorted((len(c.keys), c.section) for c in document.citations),
            sorted((f.kind, f.caption) for f in document.floats),
            tables,
        )

    assert shape(from_pdf) == shape(from_tex)
    assert (
        from_pdf.title
        == from_tex.title
        == ("Sparse Token Routing for Efficient Transformer Inference")
    )
    # Floats sit at their first mention: the table, named first in the introduction, moves
    # there from the experiments section that holds it in the source.
    assert sorted((f.kind, f.section) for f in from_tex.floats) == [("figure", 1), ("table", 4)]
    assert sorted((f.kind, f.section) for f in from_pdf.floats) == [("figure", 1), ("table", 1)]


def test_corrupted_pdfs_rebuild_or_are_bad_input(tmp_path: Path, single: Path) -> None:
    """Truncated, overwritten and cut PDFs never escape as anything but BadInput."""
    data = single.read_bytes()
    rng = random.Random(7)
    broken = tmp_path / "broken.pdf"
    outcomes = set()
    for trial in range(60):
        damaged = bytearray(data)
        if trial % 3 == 0:
            damaged = damaged[: rng.randrange(len(damaged))]
        elif trial % 3 == 1:
            for _ in range(20):
                damaged[rng.randrange(len(damaged))] = rng.randrange(256)
        else:
            start = rng.randrange(len(damaged))
            del damaged[start : start + 500]
        broken.write_bytes(bytes(damaged))
        try:
            rebuild_source(broken)
            outcomes.add("rebuilt")
        except BadInput as error:
            assert str(error).startswith(f"{broken}: ")
            outcomes.add("bad input")
    assert outcomes == {"rebuilt", "bad input"}
