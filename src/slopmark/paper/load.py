"""Read a paper from a folder, a .tex file or a .pdf (the adapter the CLI and the bench use)."""

from __future__ import annotations

from pathlib import Path

from slopmark.errors import BadInput
from slopmark.paper.document import Document


def load_paper(path: Path, main: str | None = None) -> Document:
    """A `Document` from a LaTeX folder or file, or from a PDF (rebuilt source)."""
    if not path.exists():
        raise BadInput(f"{path}: no such file or folder; pass a paper folder, a .tex or a .pdf")
    if path.suffix.lower() == ".pdf":
        from slopmark.paper.pdf import load_pdf

        return load_pdf(path)
    from slopmark.paper.latex import load_document

    return load_document(path, main)
