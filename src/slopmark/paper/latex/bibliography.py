r"""Bibliography entries by key: BibTeX from ``filecontents`` blocks and from the files
named by ``\bibliography{..}`` / ``\addbibresource{..}``, and ``\bibitem`` text.

An entry is kept as written (the BibTeX record, or the text after
``\bibitem``), so measures can read its title or authors.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from slopmark.paper.latex.files import FileReader, OutsideFolder

_ENTRY = re.compile(r"@\s*([A-Za-z]+)\s*[{(]\s*([^,\s{}()]+)\s*,")
_FILECONTENTS = re.compile(
    r"\\begin\s*\{filecontents\*?\}\s*(?:\[[^\]]*\])?\s*\{([^{}]*)\}(.*?)\\end\s*\{filecontents\*?\}",
    re.S,
)
_BIB_FILES = re.compile(r"\\(?:bibliography|addbibresource)\s*(?:\[[^\]]*\])?\s*\{([^{}]*)\}")
_BIBITEM = re.compile(r"\\bibitem\s*(?:\[[^\]]*\])?\s*\{([^{}]+)\}")
_END_BIBLIOGRAPHY = re.compile(r"\\end\s*\{thebibliography\}.*", re.S)
_IGNORED_TYPES = frozenset({"comment", "string", "preamble"})


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


def _named_files(text: str, reader: FileReader, written: dict[str, str]) -> dict[str, str]:
    entries: dict[str, str] = {}
    for group in _BIB_FILES.findall(text):
        for name in (part.strip() for part in group.split(",") if part.strip()):
            stem = name if name.endswith(".bib") else f"{name}.bib"
            try:
                found = reader(stem)
            except OutsideFolder:  # never read; the entries it would define stay unknown
                found = None
            content = found[1] if found else written.get(stem)
            for key, entry in bibtex_entries(content or "").items():
                entries.setdefault(key, entry)
    return entries


def read_bibliography(text: str, reader: FileReader) -> dict[str, str]:
    """Every entry the flattened source defines or names."""
    entries: dict[str, str] = {}
    written: dict[str, str] = {}
    for name, content in _FILECONTENTS.findall(text):
        written[name.strip()] = content
        entries.update(bibtex_entries(content))
    for key, entry in _named_files(text, reader, written).items():
        entries.setdefault(key, entry)
    if "\\bibitem" in text:
        for key, entry in bibitem_entries(text).items():
            entries.setdefault(key, entry)
    return entries
