"""Read a paper from a folder, a .tex file or a .pdf (the adapter the CLI and the bench use)."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from slopmark.errors import BadInput
from slopmark.paper.document import Document

if TYPE_CHECKING:
    from slopmark.paper.reference import RefSource


def _require(path: Path) -> None:
    if not path.exists():
        raise BadInput(f"{path}: no such file or folder; pass a paper folder, a .tex or a .pdf")


def load_paper(path: Path, main: str | None = None) -> Document:
    """A `Document` from a LaTeX folder or file, or from a PDF (rebuilt source)."""
    document, _ = load_with_reference(path, main, reference=False)
    return document


def load_with_reference(
    path: Path, main: str | None = None, reference: bool = True
) -> tuple[Document, RefSource | None]:
    """The `Document`, and (with ``reference``) the source as the authors' release expands it."""
    _require(path)
    if path.suffix.lower() == ".pdf":
        return _load_pdf(path, reference)
    from slopmark.paper.latex import load_document, main_file
    from slopmark.paper.latex.files import folder_reader, read_file

    document = load_document(path, main)
    if not reference:
        return document, None
    from slopmark.paper.reference import expand

    chosen = main_file(path, main)
    return document, expand(chosen.name, read_file(chosen), folder_reader(chosen.parent))


def _load_pdf(path: Path, reference: bool) -> tuple[Document, RefSource | None]:
    from slopmark.paper.pdf import document_of, rebuild_pdf

    rebuilt = rebuild_pdf(path)
    document = document_of(rebuilt, path.name)
    if not reference:
        return document, None
    from slopmark.paper.reference import expand

    return document, expand(path.name, rebuilt.source, lambda name: None)
