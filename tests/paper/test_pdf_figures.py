"""Figure PDFs are not papers: each standalone figure is refused with exit 2 and the reason.

Thirteen figures as papers ship them beside their source: six drawn by LaTeX (an
architecture diagram, a Pareto plot, a bar chart, a flowchart of sentences, a results
table, a figure page with its caption; see fixtures/pdf/figures) and seven by matplotlib
(curves with a legend, two panels, an annotated heat map, a confusion matrix, a histogram,
an annotated scatter plot, a chart titled like a caption).
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from paper.pdflatex import available, compile_paper

pytest.importorskip("pdfminer")
matplotlib = pytest.importorskip("matplotlib")
pytestmark = [pytest.mark.slow]  # starts pdflatex and the CLI

FIGURES = Path(__file__).parent / "fixtures" / "pdf" / "figures"
LATEX_FIGURES = sorted(path.stem for path in FIGURES.glob("*.tex"))


def _curves(axes: Any) -> None:
    for name, slope in (("Dense", 1.0), ("Early exit", 0.8), ("Routed (ours)", 1.3)):
        axes.plot(range(10), [slope * x**0.5 for x in range(10)], label=name)
    axes.set_xlabel("Training steps (thousands)")
    axes.set_ylabel("Validation accuracy")
    axes.legend()


def _grid(axes: Any, size: int, labels: list[str]) -> None:
    values = [[(3 * i + 5 * j) % 11 / 10 for j in range(size)] for i in range(size)]
    axes.imshow(values)
    for i in range(size):
        for j in range(size):
            axes.text(j, i, f"{values[i][j]:.2f}", ha="center", va="center", fontsize=7)
    axes.set_xticks(range(size), labels)
    axes.set_yticks(range(size), labels)


def _draw(kind: str, figure: Any) -> None:
    """One matplotlib figure of the given kind on ``figure``."""
    axes = figure.add_subplot(1, 2 if kind == "panels" else 1, 1)
    if kind in ("curves", "panels"):
        _curves(axes)
        axes.set_title("Accuracy during training")
        if kind == "panels":
            _curves(figure.add_subplot(1, 2, 2))
    elif kind == "heatmap":
        _grid(axes, 6, ["layer 1", "layer 2", "layer 3", "layer 4", "layer 5", "layer 6"])
    elif kind == "confusion":
        _grid(axes, 4, ["cat", "dog", "bird", "fish"])
        axes.set_title("Confusion matrix on the test set")
    elif kind == "histogram":
        axes.hist([((7 * i) % 23) / 3 for i in range(200)], bins=12)
        axes.set_xlabel("Layers run per token")
    elif kind == "scatter":
        for x, y, name in ((1, 2, "BERT"), (2, 3.5, "RoBERTa"), (3, 3.9, "Ours"), (4, 4.1, "T5")):
            axes.scatter([x], [y])
            axes.annotate(name, (x, y))
    else:
        axes.bar(["MNLI", "QNLI", "SST-2"], [84.1, 90.2, 92.8])
        figure.suptitle("Figure 3: Results of the routed model on three GLUE tasks.")


MATPLOTLIB_FIGURES = ["curves", "panels", "heatmap", "confusion", "histogram", "scatter", "titled"]


def matplotlib_figure(kind: str, folder: Path) -> Path:
    """A one-page figure PDF drawn by matplotlib (TrueType fonts embedded)."""
    matplotlib.use("Agg")
    from matplotlib import pyplot

    figure = pyplot.figure(figsize=(8, 5))
    _draw(kind, figure)
    path = folder / f"{kind}.pdf"
    with matplotlib.rc_context({"pdf.fonttype": 42}):
        figure.savefig(path)
    pyplot.close(figure)
    return path


def _measure(pdf: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "slopmark", "paper", "measure", str(pdf)],
        capture_output=True, text=True, timeout=300,
    )  # fmt: skip


def _assert_refused(pdf: Path) -> None:
    done = _measure(pdf)
    assert done.returncode == 2, (pdf.name, done.stdout[:400])
    assert done.stdout == "" and done.stderr.count("\n") == 1, done.stderr
    assert f"{pdf.name}: not a paper (1 page, " in done.stderr, done.stderr
    assert "words of running text where a paper has 150 or more" in done.stderr
    assert "pass the PDF of a paper" in done.stderr


@pytest.mark.skipif(not available(), reason="pdflatex, bibtex or texlive-latex-extra missing")
@pytest.mark.parametrize("figure", LATEX_FIGURES)
def test_a_latex_figure_pdf_is_refused(figure: str, tmp_path: Path) -> None:
    _assert_refused(compile_paper(FIGURES, f"{figure}.tex", tmp_path))


@pytest.mark.parametrize("kind", MATPLOTLIB_FIGURES)
def test_a_matplotlib_figure_pdf_is_refused(kind: str, tmp_path: Path) -> None:
    _assert_refused(matplotlib_figure(kind, tmp_path))


def test_there_are_thirteen_figures() -> None:
    assert len(LATEX_FIGURES) + len(MATPLOTLIB_FIGURES) == 13
