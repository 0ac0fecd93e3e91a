"""Rows of a PDF → blocks: headings, paragraphs, captions, table rows, equations, references.

- The body font is the size carrying most characters. Headings and their printed
  numbers are told by `headings` (fonts, numbering, capitals, the number sequence). A
  heading row right below another of the same size and weight, with no number of its
  own, continues it.
- A row of two or more chunks (see `extract`) is a *table row*, or an *equation* when its
  last chunk is a number in parentheses ``(2)``. Consecutive table rows form one block.
  After a References heading, a row whose first chunk is an entry label (``[3]``, ``3.``)
  is text.
- Other rows join into paragraphs; a paragraph ends at a vertical gap over half the body
  size, a change of font size, or an indented first line; it goes on over a page break
  unless the new page starts with a caption. A paragraph whose first row starts
  ``Figure 3:``, ``Fig. 3.``, ``Table 2:``, ``Algorithm 1:`` (or the number then a capital
  letter) is a *caption*.
- Rows that are only a page number are dropped, and so are running headers and footers
  (see `running_lines`). Words hyphenated across rows are rejoined.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterable, Iterator
from dataclasses import dataclass

from slopmark.paper.document import FloatKind
from slopmark.paper.pdf.extract import Chunk, Row, main_size
from slopmark.paper.pdf.headings import (
    HEADING_NUMBER,
    follows,
    is_heading,
    one_text,
    split_number,
    strong,
)

CAPTION = re.compile(
    r"^(?P<kind>Figure|Fig\.|Table|Tab\.|Algorithm)\s*(?P<number>[A-Z]?\d+)"
    r"(?:\s*[:.|]\s*|\s+(?=[A-Z]))(?P<text>.*)$"
)
EQUATION_NUMBER = re.compile(r"^\((?P<number>\d+)\)$")
#: Headings that open the reference list.
REFERENCES = frozenset({"references", "bibliography", "literature cited", "works cited"})
BIB_LABEL = re.compile(r"^(?:\[\d+\]|\d+\.)$")
PAGE_NUMBER = re.compile(r"^(?:\d{1,4}|[ivxlc]{1,6})$", re.IGNORECASE)
_HYPHENATED = re.compile(r"[a-z]-$")
CAPTION_KINDS: dict[str, FloatKind] = {
    "Figure": "figure", "Fig.": "figure", "Table": "table", "Tab.": "table",
    "Algorithm": "algorithm",
}  # fmt: skip


@dataclass(frozen=True)
class Heading:
    title: str
    #: The printed number ("3", "3.1", "A"), or None.
    number: str | None
    size: float
    bold: bool
    page: int

    @property
    def plain(self) -> str:
        """The title lower-cased without a closing ``.`` or ``:`` (``References.`` → references)."""
        return self.title.lower().rstrip(".:")


@dataclass(frozen=True)
class Paragraph:
    text: str
    size: float
    page: int
    #: The left edge and the text of each row, for telling bibliography entries apart.
    starts: tuple[float, ...]
    lines: tuple[str, ...]


@dataclass(frozen=True)
class Caption:
    kind: FloatKind
    number: str
    text: str
    page: int


@dataclass(frozen=True)
class TableRows:
    rows: tuple[tuple[Chunk, ...], ...]
    page: int


@dataclass(frozen=True)
class Equation:
    number: str
    text: str
    page: int


Block = Heading | Paragraph | Caption | TableRows | Equation


def _running_key(row: Row) -> tuple[str, int]:
    return re.sub(r"\d+", "#", row.text), round(row.top)


def running_lines(rows: tuple[Row, ...]) -> set[tuple[str, int]]:
    """Running headers and footers: among the two top or two bottom rows of a page, the same
    text (numbers aside) at the same height on at least half the pages, and on two or more."""
    by_page: dict[int, list[Row]] = {}
    for row in rows:
        by_page.setdefault(row.page, []).append(row)
    seen: Counter[tuple[str, int]] = Counter()
    for page_rows in by_page.values():
        ordered = sorted(page_rows, key=lambda row: row.top)
        seen.update({_running_key(row) for row in ordered[:2] + ordered[-2:]})
    return {key for key, count in seen.items() if count >= max(2, len(by_page) / 2)}


def build_blocks(rows: tuple[Row, ...]) -> tuple[float, tuple[Block, ...]]:
    """The body size and the blocks of ``rows`` in reading order."""
    body = main_size(rows)
    return body, tuple(_Builder(body).run(rows))


class _Builder:
    """Walks the rows once, keeping the row and block still open."""

    def __init__(self, body: float) -> None:
        self.body = body
        self.letters = False
        self.in_references = False
        #: The printed number of the last heading, for checking the sequence.
        self.last: str | None = None
        self.open: list[Row] = []
        self.table: list[Row] = []
        self.heading: list[Row] = []

    def run(self, rows: tuple[Row, ...]) -> Iterator[Block]:
        running = running_lines(rows)
        for row in rows:
            if PAGE_NUMBER.match(row.text) or _running_key(row) in running:
                continue
            yield from self._take(row)
        yield from self._flush()

    def _take(self, row: Row) -> Iterator[Block]:
        if is_heading(row, self.body) and one_text(row):
            yield from self._heading(row)
            return
        if self.heading:
            yield from self._flush()
        if len(row.chunks) >= 2 and not (
            self.in_references and BIB_LABEL.match(row.chunks[0].text)
        ):
            yield from self._multi(row)
        else:
            yield from self._text(row)

    def _heading(self, row: Row) -> Iterator[Block]:
        if self.heading and self._continues_heading(row):
            self.heading.append(row)
            return
        yield from self._flush()
        self.heading = [row]

    def _continues_heading(self, row: Row) -> bool:
        last = self.heading[-1]
        same_style = row.size == last.size and row.bold == last.bold and row.page == last.page
        close = row.top - last.bottom < 0.5 * row.size
        return same_style and close and split_number(row.text, True)[0] is None

    def _multi(self, row: Row) -> Iterator[Block]:
        number = EQUATION_NUMBER.match(row.chunks[-1].text)
        if number is not None:
            yield from self._flush()
            text = " ".join(chunk.text for chunk in row.chunks[:-1])
            yield Equation(number.group("number"), text, row.page)
            return
        if not self.table:
            yield from self._flush()
        self.table.append(row)

    def _text(self, row: Row) -> Iterator[Block]:
        if self.table or (self.open and not self._continues(row)):
            yield from self._flush()
        self.open.append(row)

    def _continues(self, row: Row) -> bool:
        last = self.open[-1]
        same_size = abs(row.size - last.size) <= 0.3
        if row.page != last.page:
            return same_size and not CAPTION.match(row.text)
        if not same_size:
            return False
        gap = row.top - last.bottom
        indented = row.x0 > last.x0 + 0.5 * row.size and not self.in_references
        return -0.5 * row.size < gap < 0.5 * self.body and not indented

    def _flush(self) -> Iterator[Block]:
        if self.heading:
            yield self._heading_block(self.heading)
        if self.table:
            yield TableRows(tuple(row.chunks for row in self.table), self.table[0].page)
        if self.open:
            yield paragraph_block(self.open)
        self.heading, self.table, self.open = [], [], []

    def _heading_block(self, rows: list[Row]) -> Block:
        """The heading the rows print, or a paragraph for a body-size numbered row that
        breaks the number sequence (a list item, not a heading)."""
        text = join_rows(rows)
        number, title = split_number(text, self.letters)
        out_of_sequence = number is not None and not follows(self.last, number)
        if out_of_sequence and not strong(rows[0], self.body):
            return paragraph_block(rows)
        self.last = number or self.last
        heading = Heading(title, number, rows[0].size, rows[0].bold, rows[0].page)
        self.in_references = heading.plain in REFERENCES
        if self.in_references or heading.plain.startswith("appendix"):
            self.letters = True
        if match := HEADING_NUMBER.match(text):
            self.letters = self.letters or bool(match.group("appendix"))
        return heading


def paragraph_block(rows: list[Row]) -> Block:
    """A caption when the first row starts like one, else a paragraph."""
    text = join_rows(rows)
    caption = CAPTION.match(text)
    if caption is not None:
        kind = CAPTION_KINDS[caption.group("kind")]
        return Caption(kind, caption.group("number"), caption.group("text"), rows[0].page)
    starts = tuple(row.x0 for row in rows)
    lines = tuple(row.text for row in rows)
    return Paragraph(text, rows[0].size, rows[0].page, starts, lines)


def join_rows(rows: Iterable[Row]) -> str:
    """Row texts joined by spaces, rejoining words hyphenated across rows."""
    text = ""
    for row in rows:
        text = join_line(text, row.text) if text else row.text
    return text


def join_line(text: str, line: str) -> str:
    """``line`` after ``text`` with a space, or rejoining a word hyphenated across them."""
    if _HYPHENATED.search(text) and line[:1].islower():
        return text[:-1] + line
    return f"{text} {line}"
