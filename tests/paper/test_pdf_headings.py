"""Headings from a PDF keep their printed numbering; labels and sentences are no headings.

The pages are drawn with matplotlib (see test_pdf), so each row's font, weight and place
is known: a line number set on a heading's baseline, a dotted number, one-letter labels,
a bold sentence, a body-size numbered row out of sequence and theorem-like statements.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from paper.test_pdf import PROSE, Text, flow, write_pdf
from slopmark.paper.pdf import load_pdf, rebuild_source
from slopmark.paper.pdf.headings import follows, sentence_like, split_number, worded
from slopmark.paper.recovery import recovery

pytest.importorskip("pdfminer")


def _bold(page: int, y: float, *parts: tuple[float, str], size: float = 12) -> list[Text]:
    return [Text(page, x, y, text, size, True) for x, text in parts]


def printed_paper() -> list[Text]:
    """Two pages of a paper with dotted numbers and the traps of a real layout."""
    return [
        *_bold(1, 60, (72, "1."), (92, "Introduction")),
        *flow(1, 72, 80, ["Depth from one image is hard; Section 2.2 and Theorem 1 help.",
                          *PROSE[:4]]),
        *_bold(1, 160, (72, "2."), (92, "Method")),
        *flow(1, 72, 180, PROSE[4:8]),
        *_bold(1, 240, (72, "2.1."), (100, "Blur estimation"), size=11),
        *flow(1, 72, 260, PROSE[8:11]),
        Text(1, 72, 300, "N", 12, True),
        Text(1, 72, 320, "S3: He", 12, True),
        *flow(1, 72, 340, ["The blur of each pixel grows with its distance to the plane."]),
        *_bold(1, 370, (40, "7"), (72, "2.2."), (100, "Depth estimation"), size=11),
        *flow(1, 72, 390, PROSE[11:]),
        Text(1, 72, 450, "We then run the model on every image of the test set.", 12, True),
        *flow(1, 72, 470, ["Theorem 1. The depth of a pixel is unique given its blur.",
                           "", "5 Training Details", "", "More text follows here."]),
        *_bold(2, 60, (40, "10"), (72, "3."), (92, "Conclusion")),
        *flow(2, 72, 80, ["Blur is a depth cue; Theorem 1 makes it exact."]),
    ]  # fmt: skip


@pytest.fixture(scope="module")
def printed(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return write_pdf(tmp_path_factory.mktemp("headings") / "printed.pdf", printed_paper(), 2)


def test_headings_follow_the_printed_numbering(printed: Path) -> None:
    document = load_pdf(printed)
    tree = [(s.level, s.number, s.title) for s in document.sections]
    assert tree == [(1, "1", "Introduction"), (1, "2", "Method"), (2, "2.1", "Blur estimation"),
                    (2, "2.2", "Depth estimation"), (1, "3", "Conclusion")]  # fmt: skip
    assert recovery(document).renumbered == 0


def test_labels_sentences_and_out_of_sequence_rows_stay_text(printed: Path) -> None:
    source = rebuild_source(printed)
    for text in ("N", "S3: He", "We then run the model", "5 Training Details"):
        assert f"section{{{text}" not in source and f"section*{{{text}" not in source
    assert "We then run the model on every image of the test set." in source


def test_theorem_statements_and_their_pointers(printed: Path) -> None:
    source = rebuild_source(printed)
    assert "\\begin{theorem}\nThe depth of a pixel is unique given its blur." in source
    assert "\\label{theorem:1}\n\\end{theorem}" in source
    assert "Theorem~\\ref{theorem:1} makes it exact." in source


def test_a_printed_number_latex_would_not_give_is_counted(tmp_path: Path) -> None:
    texts = [*_bold(1, 60, (72, "1"), (92, "Introduction")), *flow(1, 72, 80, PROSE[:7]),
             *_bold(1, 180, (72, "3"), (92, "Method")), *flow(1, 72, 200, PROSE[7:])]  # fmt: skip
    document = load_pdf(write_pdf(tmp_path / "gap.pdf", texts, pages=1))
    assert recovery(document).renumbered == 1


@pytest.mark.parametrize(
    ("text", "number", "title"),
    [("5.2. Depth estimation", "5.2", "Depth estimation"),
     ("7 5.2. Depth estimation", "5.2", "Depth estimation"),
     ("10 6. Conclusion", "6", "Conclusion"),
     ("3 Method", "3", "Method"),
     ("A.1 Proofs", "A.1", "Proofs")],
)  # fmt: skip
def test_split_number_drops_a_line_number_before_the_section_number(
    text: str, number: str, title: str
) -> None:
    assert split_number(text, letters=True) == (number, title)


@pytest.mark.parametrize(
    ("previous", "number", "expected"),
    [(None, "1", True), ("1", "2", True), ("2", "2.1", True), ("2.1", "2.2", True),
     ("2.2", "3", True), ("3.1.2", "4", True), ("A", "A.1", True), ("5", "A", True),
     ("1", "3", False), ("2.1", "2.3", False), ("3", "7", False), ("5.1", "7", False),
     (None, "2.1", False)],
)  # fmt: skip
def test_the_number_sequence(previous: str | None, number: str, expected: bool) -> None:
    assert follows(previous, number) is expected


def test_headings_need_a_word_and_no_sentence() -> None:
    assert not worded("N") and not worded("S3: He") and worded("6 Conclusion")
    assert sentence_like("We then run the model on every image.")
    assert sentence_like("3 results are shown in the table")
    assert not sentence_like("5.2. Depth estimation") and not sentence_like("Abstract.")
