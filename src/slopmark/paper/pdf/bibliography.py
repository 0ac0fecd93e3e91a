"""The reference list of a PDF → ``\\bibitem`` entries whose keys match the rebuilt citations.

Entries are split where a row starts with ``[N]`` or ``N.`` (a numbered list), else where a
row starts at the left edge while the rows before it hang indented (author–year lists),
else at paragraph breaks; in an author–year list a piece that cannot start an entry (a
year, a URL, a lower-case word) continues the one before. A numbered entry gets the key
``refN``; an author–year entry gets `citation_key` of its first author's surname and its
first year (``smith2020``; a second entry with the same key gets ``smith2020x2``), and
`author_index` resolves the text's ``(Smith et al., 2020)`` to it.

The first author's surname: the text before the first comma, ``and``, ``&`` or ``(``; of
its words of two letters or more not ending in a period, the last one (``Smith, J.`` →
Smith; ``Jacob Devlin, Ming-Wei Chang`` → Devlin).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from slopmark.paper.pdf.authoryear import YEAR, AuthorIndex, citation_key, unique_keys
from slopmark.paper.pdf.blocks import Paragraph, join_line

NUMBERED = re.compile(r"^(?:\[(?P<bracket>\d+)\]|(?P<dot>\d+)\.)\s+(?P<text>.*)$")


@dataclass(frozen=True)
class Entry:
    key: str
    text: str


def numbered(paragraphs: list[Paragraph]) -> bool:
    """Does the list number its entries (``[1] ...`` or ``1. ...``)?"""
    return bool(paragraphs) and NUMBERED.match(paragraphs[0].text) is not None


def entries(paragraphs: list[Paragraph]) -> tuple[Entry, ...]:
    """The bibliography entries held in the paragraphs after a References heading."""
    texts = [text for paragraph in paragraphs for text in _split(paragraph)]
    if numbered(paragraphs):
        return tuple(_numbered_entry(text) for text in texts if NUMBERED.match(text))
    texts = _continued(texts)
    keys = unique_keys(map(_author_year_key, texts))
    return tuple(Entry(key, text) for key, text in zip(keys, texts, strict=True))


def author_index(found: tuple[Entry, ...]) -> AuthorIndex:
    """The author–year entries indexed by first author's surname and year."""
    return AuthorIndex((entry.key, entry.text) for entry in found)


def _split(paragraph: Paragraph) -> list[str]:
    starts = paragraph.starts
    left = min(starts)
    hanging = any(start > left + 3 for start in starts)
    texts: list[str] = []
    for line, start in zip(paragraph.lines, starts, strict=True):
        new = NUMBERED.match(line) is not None or (hanging and start <= left + 1)
        if new or not texts:
            texts.append(line)
        else:
            texts[-1] = join_line(texts[-1], line)
    return texts


#: How the rest of an entry may start after a column or page break (never an author).
CONTINUATION = re.compile(r"^(?:[^\w\\{]|\d|[a-z]|URL\b|doi\b|DOI\b|https?:|arXiv\b|In\s)")


def _continued(texts: list[str]) -> list[str]:
    """Author–year entries, a piece that cannot start one (``2022. URL ...`` after a page
    break, a lower-case word) joined to the entry before it."""
    joined: list[str] = []
    for text in texts:
        if joined and CONTINUATION.match(text):
            joined[-1] = join_line(joined[-1], text)
        else:
            joined.append(text)
    return joined


def _numbered_entry(text: str) -> Entry:
    match = NUMBERED.match(text)
    assert match is not None
    number = match.group("bracket") or match.group("dot")
    return Entry(f"ref{number}", match.group("text"))


def first_surname(text: str) -> str:
    head = re.split(r",|\s+and\s+|\s+&\s+|\(", text, maxsplit=1)[0]
    words = [w for w in re.findall(r"[^\W\d_][\w'’\-.]*", head) if len(w) > 1 and w[-1] != "."]
    return words[-1] if words else head


def _author_year_key(text: str) -> str:
    year = re.search(rf"(?<![\w.:/]){YEAR}\b", text)
    return citation_key(first_surname(text), year.group(0) if year else "")
