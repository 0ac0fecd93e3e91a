r"""Bibliography entries by key: BibTeX from ``filecontents`` blocks and from the files
named by ``\bibliography{..}`` / ``\addbibresource{..}``, and ``\bibitem`` text.

An entry is kept as written (the BibTeX record, or the text after
``\bibitem``), so measures can read its title or authors. A named file that
leaves the paper's folder, or is no regular file (a FIFO, a device), is never
read: a `Note` names the command and the file.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator

from slopmark.paper.document import Note, Span
from slopmark.paper.latex.files import FileReader, OutsideFolder, refusal
from slopmark.regular import Unreadable

_ENTRY = re.compile(r"@\s*([A-Za-z]+)\s*[{(]\s*([^,\s{}()]+)\s*,")
_FILECONTENTS = re.compile(
    r"\\begin\s*\{filecontents\*?\}\s*(?:\[[^\]]*\])?\s*\{([^{}]*)\}(.*?)\\end\s*\{filecontents\*?\}",
    re.S,
)
_BIB_FILES = re.compile(r"\\(bibliography|addbibresource)\s*(?:\[[^\]]*\])?\s*\{([^{}]*)\}")
_BIBITEM = re.compile(r"\\bibitem\s*(?:\[[^\]]*\])?\s*\{([^{}]+)\}")
_END_BIBLIOGRAPHY = re.compile(r"\\end\s*\{thebibliography\}.*", re.S)
_IGNORED_TYPES = frozenset({"comment", "string", "preamble"})
#: Where a position of the flattened text came from (`Flat.span`).
Spans = Callable[[int], "Span | None"]


def _with_stops(matches: list[re.Match[str]], text: str) -> Iterator[tuple[re.Match[str], int]]:
    """Each match with where its entry stops: the next match, or the end of ``text``."""
    return zip(matches, [*(m.start() for m in matches[1:]), len(text)], strict=False)


def bibtex_entries(text: str) -> dict[str, str]:
    """Key → entry text of every BibTeX record in ``text``."""
    matches = [m for m in _ENTRY.finditer(text) if m.group(1).lower() not in _IGNORED_TYPES]
    entries: dict[str, str] = {}
    for match, stop in _with_stops(matches, text):
        entries.setdefault(match.group(2), text[match.start() : stop].strip())
    return entries


def bibitem_entries(text: str) -> dict[str, str]:
    r"""Key → text of every ``\bibitem`` in ``text``."""
    entries: dict[str, str] = {}
    for match, stop in _with_stops(list(_BIBITEM.finditer(text)), text):
        body = _END_BIBLIOGRAPHY.sub("", text[match.end() : stop])
        entries.setdefault(match.group(1).strip(), " ".join(body.split()))
    return entries


class _Named:
    """The entries of the files ``\\bibliography`` / ``\\addbibresource`` name, and a note
    for each file that is not read (it leaves the paper folder, or is no regular file)."""

    def __init__(self, reader: FileReader, written: dict[str, str], span: Spans) -> None:
        self.reader, self.written, self.span = reader, written, span
        self.entries: dict[str, str] = {}
        self.notes: list[Note] = []

    def read(self, text: str) -> None:
        for match in _BIB_FILES.finditer(text):
            for name in (part.strip() for part in match.group(2).split(",") if part.strip()):
                self._file(f"\\{match.group(1)}", name, match.start())

    def _file(self, command: str, name: str, pos: int) -> None:
        stem = name if name.endswith(".bib") else f"{name}.bib"
        try:
            found = self.reader(stem)
        except (OutsideFolder, Unreadable) as error:  # never read; its entries stay unknown
            found = None
            if stem not in self.written:
                self.notes.append(Note(refusal(command, name, error), self.span(pos)))
        content = found[1] if found else self.written.get(stem)
        for key, entry in bibtex_entries(content or "").items():
            self.entries.setdefault(key, entry)


def read_bibliography(
    text: str, reader: FileReader, span: Spans | None = None
) -> tuple[dict[str, str], tuple[Note, ...]]:
    """Every entry the flattened source defines or names, and a note for each named file
    that was not read (``span`` places a position of ``text``)."""
    entries: dict[str, str] = {}
    written: dict[str, str] = {}
    for name, content in _FILECONTENTS.findall(text):
        written[name.strip()] = content
        entries.update(bibtex_entries(content))
    named = _Named(reader, written, span or (lambda _: None))
    named.read(text)
    for key, entry in named.entries.items():
        entries.setdefault(key, entry)
    if "\\bibitem" in text:
        for key, entry in bibitem_entries(text).items():
            entries.setdefault(key, entry)
    return entries, tuple(named.notes)
