"""The PDF route of `slopmark paper`: rebuild a LaTeX-like source from a PDF, then read it.

`extract` reads the PDF's text rows with their fonts and positions (pdfminer.six, an
optional dependency: ``pip install 'slopmark[pdf]'``); `blocks` groups them into
headings, paragraphs, captions, table rows and equations; `rebuild` writes those as
LaTeX (its docstring lists the rules), with `inline` turning printed pointers and
citations into ``\\ref`` / ``\\cite`` commands, `tables` cutting table rows into cells and
`bibliography` keying the reference list. `load_pdf` hands the rebuilt source to the
LaTeX reader, so every measure runs on a PDF as on a source tree; a PDF that is not a
paper is refused, and `slopmark.paper.recovery` reports what was recovered and which
measures it is too poor for.
"""

from __future__ import annotations

import dataclasses
from pathlib import Path

from slopmark.errors import BadInput
from slopmark.paper.document import Document, Note, Span
from slopmark.paper.pdf.extract import read_rows
from slopmark.paper.pdf.rebuild import Rebuilt, rebuild
from slopmark.paper.recovery import recovery, refusal
from slopmark.plurals import count

__all__ = ["document_of", "load_pdf", "rebuild_pdf", "rebuild_source"]


def rebuild_pdf(pdf: Path) -> Rebuilt:
    """The rebuilt source of ``pdf`` and the notes on its section numbering."""
    return rebuild(read_rows(pdf), pdf.name)


def rebuild_source(pdf: Path) -> str:
    """A LaTeX source rebuilt from ``pdf``; BadInput for a file that is no readable PDF."""
    return rebuild_pdf(pdf).source


def document_of(rebuilt: Rebuilt, name: str) -> Document:
    """The `Document` of a rebuilt source, read by the LaTeX reader (origin "pdf").

    BadInput when the PDF is not a paper by its content (see `recovery.refusal`): a
    figure, a receipt, a letter."""
    from slopmark.paper.latex import parse_source

    document = parse_source(rebuilt.source, name=name)
    notes = tuple(Note(message, Span(name, 1)) for message in rebuilt.notes)
    document = dataclasses.replace(document, notes=document.notes + notes)
    why = refusal(recovery(document))
    if why is not None:
        pages = count(rebuilt.pages, "page")
        raise BadInput(f"{name}: not a paper ({pages}, {why}); pass the PDF of a paper")
    return dataclasses.replace(document, origin="pdf")


def load_pdf(pdf: Path) -> Document:
    """The `Document` of ``pdf``: its rebuilt source read by the LaTeX reader (origin "pdf")."""
    return document_of(rebuild_pdf(pdf), pdf.name)
