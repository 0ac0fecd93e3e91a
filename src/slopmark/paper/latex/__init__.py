"""The LaTeX reader: a source tree (or text) → a `Document` with both views.

`load_document` reads a folder (finding the main file) or a ``.tex`` file;
`parse_source` parses text in memory. Unusable input raises `BadInput` naming
the file and what is wrong; anything the reader could not follow (a missing
``\\input``, a cycle, unbalanced braces, no ``\\end{document}``) is a `Note`
on the Document and the rest is read.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from pathlib import Path

from slopmark.confine import inside
from slopmark.errors import BadInput
from slopmark.paper.document import Document
from slopmark.paper.latex.build import build_document
from slopmark.paper.latex.files import (
    FileReader,
    find_main_file,
    folder_reader,
    read_file,
    require_latex,
    tex_files,
)  # fmt: skip
from slopmark.paper.latex.source import flatten

__all__ = ["find_main_file", "load_document", "main_file", "parse_source"]


def _memory_reader(files: Mapping[str, str]) -> FileReader:
    def read(name: str) -> tuple[str, str] | None:
        for found in (name, f"{name}.tex"):
            if found in files:
                return found, files[found]
        return None

    return read


def parse_source(
    text: str, name: str = "main.tex", files: Mapping[str, str] | None = None
) -> Document:
    """The Document of LaTeX ``text``; ``files`` holds what its ``\\input``s may name."""
    if not text.strip():
        raise BadInput(f"{name}: the file is empty; pass a LaTeX source")
    require_latex(text, name)
    reader = _memory_reader(files or {})
    return build_document(flatten(name, text, reader), name, reader)


def main_file(path: Path, main: str | None) -> Path:
    """The main file of a paper folder (found, or ``main``), or the .tex file given."""
    if not path.exists():
        raise BadInput(f"{path}: no such file or folder; pass a paper folder or a .tex file")
    if path.is_dir():
        chosen = path / main if main else find_main_file(path)
        if not inside(path, chosen):
            raise BadInput(f"--main {main!r}: resolves outside {path}; name a file in the folder")
        if not chosen.exists():
            raise BadInput(f"{chosen}: --main names no file in {path}")
        return chosen
    if path.suffix.lower() == ".pdf":
        raise BadInput(f"{path}: a PDF; read it with slopmark.paper.pdf, not the LaTeX reader")
    return path


def load_document(path: Path, main: str | None = None) -> Document:
    """The Document of a paper folder (its main file found, or ``main``) or a ``.tex`` file."""
    main_path = main_file(path, main)
    root = main_path.parent
    text = read_file(main_path)
    require_latex(text, str(main_path))
    reader = folder_reader(root, path if path.is_dir() else root)
    name = main_path.name
    document = build_document(flatten(name, text, reader), name, reader)
    skipped = tex_files(path)[1] if path.is_dir() and main is None else []
    return replace(document, root=str(root.resolve()), notes=(*skipped, *document.notes))
