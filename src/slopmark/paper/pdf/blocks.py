"""Rows of a PDF → blocks: headings, paragraphs, captions, table rows, equations, references.

- The body font is the size carrying most characters. A *heading* is a short row (≤ 15
  words, not ending in ``,``/``;``, holding a letter) set larger than the body (by ≥ 1 pt)
  or wholly bold, or a row that is just ``Abstract`` (often set small), or, at body size,
  a row in capitals (``1 INTRODUCTION``) or a numbered row in title case (``3.2 Training
  Details``, see `numbered_title`); a leading ``3``,
  ``3.1`` or (in the appendix, or after ``Appendix``) ``A``, ``A.2`` is its printed number.
  A heading row right below another of the same size and weight, with no number of its
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

CAPTION = re.compile(
    r"^(?P<kind>Figure|Fig\.|Table|Tab\.|Algorithm)\s*(?P<number>[A-Z]?\d+)"
    r"(?:\s*[:.|]\s*|\s+(?=[A-Z]))(?P<text>.*)$"
)
CAPTION_START = re.compile(r"^(?:Figure|Fig\.|Table|Tab\.|Algorithm)\s*[A-Z]?\d+\b")
EQUATION_NUMBER = re.compile(r"^\((?P<number>\d+)\)$")
HEADING_NUMBER = re.compile(
    r"^(?P<appendix>Appendix\s+)?(?P<number>\d+(?:\.\d+)*|[A-Z](?:\.\d+)*)\.?:?\s+(?P<title>\S.*)$"
)
#: A numbered title case row with at most this many words can be a heading at body size.
TITLE_WORDS = 10
#: Headings that open the reference list.
REFERENCES = frozenset({"references", "bibliography", "literature cited", "works cited"})
BIB_LABEL = re.compile(r"^(?:\[\d+\]|\d+\.)$")
PAGE_NUMBER = re.compile(r"^(?:\d{1,4}|[ivxlc]{1,6})$", re.IGNORECASE)
NUMBER_ONLY = re.compile(r"^(?:\d+(?:\.\d+)*|[A-Z](?:\.\d+)*)\.?$")
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


def is_heading(row: Row, body: float) -> bool:
    text = row.text
    words = text.split()
    if len(words) > 15 or text.endswith((",", ";")) or not any(ch.isalpha() for ch in text):
        return False
    if CAPTION_START.match(text):
        return False
    return text.rstrip(".:").lower() == "abstract" or _heading_style(row, body)


def _heading_style(row: Row, body: float) -> bool:
    """Larger than the body, bold, or at body size in capitals or a numbered title."""
    if row.size >= body + 1 or (row.bold and row.size >= body - 0.5):
        return True
    return row.size >= body - 0.5 and (all_caps(row.text) or numbered_title(row.text))


def all_caps(text: str) -> bool:
    """``1 INTRODUCTION``, ``RELATED WORK``: every letter a capital, a word of four or more,
    no comma and no closing period (``ICLR, 2017.`` in a reference list is no heading)."""
    letters = [ch for ch in text if ch.isalpha()]
    plain = "," not in text and not text.endswith(".")
    return plain and all(ch.isupper() for ch in letters) and bool(re.search(r"[A-Z]{4}", text))


def numbered_title(text: str) -> bool:
    """``3.2 Training Details``: a section number, then at most `TITLE_WORDS` words in title
    case (most words of four letters or more capitalised), no closing period."""
    match = HEADING_NUMBER.match(text)
    if match is None or match.group("number")[0].isalpha() or text.endswith("."):
        return False
    words = match.group("title").split()
    long = [w for w in words if len(w) >= 4]
    capital = sum(w[0].isupper() for w in long)
    return len(words) <= TITLE_WORDS and words[0][0].isupper() and capital >= 0.6 * len(long)


def _one_text(row: Row) -> bool:
    """One chunk, or a printed number and a title set apart (``3   Method``)."""
    chunks = row.chunks
    return len(chunks) == 1 or (len(chunks) == 2 and bool(NUMBER_ONLY.match(chunks[0].text)))


def split_number(text: str, letters: bool) -> tuple[str | None, str]:
    """``("3.1", "Setup")`` from ``"3.1 Setup"``; letters (``A``) only when ``letters``."""
    match = HEADING_NUMBER.match(text)
    if match is None:
        return None, text
    number = match.group("number")
    if number[0].isalpha() and not (letters or match.group("appendix")):
        return None, text
    return number, match.group("title").strip()


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
        if is_heading(row, self.body) and _one_text(row):
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

    def _heading_block(self, rows: list[Row]) -> Heading:
        text = join_rows(rows)
        number, title = split_number(text, self.letters)
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
