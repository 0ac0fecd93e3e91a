"""Reading paper files from disk: the main-file search and text decoding (the IO edge).

Everything else in `slopmark.paper.latex` is pure: it reads text through a
`FileReader` (a relative name in, the decoded text or None out), so tests can
parse in-memory sources and the CLI reads a folder.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path

from slopmark.confine import inside
from slopmark.errors import BadInput
from slopmark.paper.document import Note
from slopmark.regular import Unreadable, read_regular, unusable

#: A name as written in ``\\input`` → (the file name found, its text), or None when missing.
FileReader = Callable[[str], "tuple[str, str] | None"]

_DOCUMENTCLASS = re.compile(r"^[^%\n]*\\documentclass", re.M)
_BEGIN_DOCUMENT = re.compile(r"^[^%\n]*\\begin\s*\{document\}", re.M)
_INPUTS = re.compile(r"^[^%\n]*\\(?:input|include|subfile)(?![A-Za-z@])", re.M)
_LATEX_COMMAND = re.compile(r"\\[A-Za-z@]{2,}")
#: Control characters that never occur in a text file (tab, newlines and form feed excepted).
_CONTROL = re.compile(r"[\x00-\x08\x0b\x0e-\x1f]")
_MAX_BYTES = 20 * 2**20


def decode(data: bytes, name: str, blank_ok: bool = False) -> str:
    """The text of a file, or `BadInput` naming the file when it is empty or not text.

    With ``blank_ok`` (an ``\\input`` file) an empty or blank file is read as "".
    """
    if not data.strip():
        if blank_ok:
            return ""
        raise BadInput(f"{name}: the file is empty; pass a LaTeX source")
    if b"\x00" in data[:65536]:
        raise BadInput(f"{name}: not text (binary content); pass a LaTeX source")
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        text = data.decode("latin-1")
    if len(_CONTROL.findall(text[:65536])) > max(8, len(text[:65536]) // 100):
        raise BadInput(f"{name}: not text (control characters); pass a LaTeX source")
    return text.lstrip("\ufeff")


def require_latex(text: str, name: str) -> None:
    """`BadInput` when the text holds no LaTeX command at all."""
    if not _LATEX_COMMAND.search(text):
        raise BadInput(f"{name}: no LaTeX found (no \\commands); pass a LaTeX source")


def read_file(path: Path, blank_ok: bool = False) -> str:
    """The decoded text of ``path`` (`BadInput` when empty or not text; `Unreadable` when
    not a regular file, over the size limit or refused by the system)."""
    return decode(read_regular(path, _MAX_BYTES, advice="pass a LaTeX source"), str(path), blank_ok)


class OutsideFolder(BadInput):
    """A file name that resolves outside the paper's folder (absolute, ``..``, a symlink out)."""


def refusal(command: str, target: str, error: OutsideFolder | Unreadable) -> str:
    """The note on a file ``command{target}`` names that is not read: it leaves the
    paper folder, or is no regular file (a FIFO, a device) or is over the size limit."""
    if isinstance(error, OutsideFolder):
        return f"refused {command} '{target}': it leaves the paper folder; measured without it"
    return f"skipped {command} '{target}': {error.reason}; measured without it"


def folder_reader(base: Path, root: Path | None = None) -> FileReader:
    """A `FileReader` resolving names relative to ``base`` (with and without ``.tex``).

    A name that resolves outside ``root`` (default: ``base``) raises `OutsideFolder`
    whether or not the file exists; one that is not a regular file (a FIFO, a device) or
    is over the size limit raises `Unreadable` (it is never read from).
    """
    root = base if root is None else root

    def read(name: str) -> tuple[str, str] | None:
        for found in (name, f"{name}.tex"):
            candidate = base / found
            if not inside(root, candidate):
                raise OutsideFolder(f"'{name}' resolves outside the paper folder {root}")
            if candidate.exists() and not candidate.is_dir():
                try:
                    return found, read_file(candidate, blank_ok=True)
                except Unreadable:
                    raise
                except BadInput:
                    return None
        return None

    return read


def _rank(path: Path) -> tuple[bool, int, int] | None:
    try:
        text = read_file(path)
    except BadInput:
        return None
    if not _DOCUMENTCLASS.search(text):
        return None
    return (bool(_BEGIN_DOCUMENT.search(text)), len(_INPUTS.findall(text)), len(text))


def tex_files(folder: Path) -> tuple[list[Path], list[Note]]:
    """The ``.tex`` files a main file is chosen from (the folder's own, else all below it)
    that lie inside it, and a note for each one that is not a regular file (a FIFO would
    block the reader) or is over the size limit: it is never opened."""
    found = sorted(folder.glob("*.tex")) or sorted(folder.rglob("*.tex"))
    files, notes = [], []
    for path in (path for path in found if inside(folder, path) and not path.is_dir()):
        try:
            reason = unusable(path.stat(), _MAX_BYTES)
        except OSError as error:
            reason = f"unreadable: {error.strerror or error}"
        if reason is None:
            files.append(path)
        else:
            shown = path.relative_to(folder).as_posix()
            notes.append(Note(f"skipped '{shown}': {reason}; measured without it"))
    return files, notes


def find_main_file(folder: Path) -> Path:
    """The main ``.tex`` of a folder: one with ``\\documentclass``, preferring one with
    ``\\begin{document}``, then more ``\\input``s, then the longer one."""
    if not folder.is_dir():
        raise BadInput(f"{folder}: not a folder")
    candidates = tex_files(folder)[0]
    if not candidates:
        raise BadInput(f"{folder}: no .tex file found; pass a LaTeX source folder or file")
    ranked = [(rank, path) for path in candidates if (rank := _rank(path)) is not None]
    if not ranked:
        raise BadInput(
            f"{folder}: no .tex file has \\documentclass; pass the main file with --main"
        )
    return max(ranked, key=lambda item: item[0])[1]
