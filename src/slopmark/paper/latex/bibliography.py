r"""Bibliography entries by key: BibTeX from ``filecontents`` blocks and from the files
named by ``\bibliography{..}`` / ``\addbibresource{..}``, and ``\bibitem`` text.

An entry is kept as written (the BibTeX record, or the text after
``\bibitem``), so measures can read its title or authors.
"""

from __future__ import annotations

import re

from slopmark.paper.latex.files import FileReader

_ENTRY = re.compile(r"@\s*([A-Za-z]+)\s*[{(]\s*([^,\s{}()]+)\s*,")
_FILECONTENTS = re.compile(
    r"\\begin\s*\{filecontents\*?\}\s*(?:\[[^\]]*\])?\s*\{([^{}]*)\}(.*?)\\end\s*\{filecontents\*?\}",
    re.S,
)
_BIB_FILES = re.compile(r"\\(?:bibliography|addbibresource)\s*(?:\[[^\]]*\])?\s*\{([^{}]*)\}")
_BIBITEM = re.compile(r"\\bibitem\s*(?:\[[^\]]*\])?\s*\{([^{}]+)\}")
_IGNORED_TYPES = frozenset({"comment", "string", "preamble"})


def bibtex_entries(text: str) -> dict[str, str]:
    """Key → entry text of every BibTeX record in ``text``."""
    matches = [m for m in _ENTRY.finditer(text) if m.group(1).lower() not in _IGNORED_TYPES]
    entries: dict[str, str] = {}
    for match, following in zip(matches, [*matches[1:], None], strict=False):
        stop = following.start() if following else len(text)
        entries.setdefault(match.group(2), text[match.start() : stop].strip())
    return entries


def bibitem_entries(text: str) -> dict[str, str]:
    r"""Key → text of every ``\bibitem`` in ``text``."""
    matches = list(_BIBITEM.finditer(text))
    entries: dict[str, str] = {}
    for match, following in zip(matches, [*matches[1:], None], strict=False):
        stop = following.start() if following else len(text)
        body = re.sub(r"\\end\s*\{thebibliography\}.*", "", text[match.end() : stop], flags=re.S)
        entries.setdefault(match.group(1).strip(), " ".join(body.split()))
    return entries


def _named_files(text: str, reader: FileReader, written: dict[str, str]) -> dict[str, str]:
    entries: dict[str, str] = {}
    for group in _BIB_FILES.findall(text):
        for name in (part.strip() for part in group.split(",") if part.strip()):
            stem = name if name.endswith(".bib") else f"{name}.bib"
            found = reader(stem)
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
