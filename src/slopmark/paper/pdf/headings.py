"""Which rows of a PDF are section headings, and what their printed numbers are.

- A *heading* is a short row (≤ 15 words, not ending in ``,``/``;``, holding a word of
  three letters or more: ``N`` or ``S3: He`` are labels of a figure, not headings) set
  larger than the body (by ≥ 1 pt) or wholly bold, or a row that is just ``Abstract``
  (often set small), or, at body size, a row in capitals (``1 INTRODUCTION``) or a
  numbered row in title case (``3.2 Training Details``, see `numbered_title`).
- A heading is no sentence: a title of `SENTENCE_WORDS` words or more ending in a period,
  or one whose first word is in lower case, is running text set in bold or large.
- The printed number: a leading ``3``, ``3.1``, ``5.2.`` or (in the appendix, or after
  ``Appendix``) ``A``, ``A.2``. A dotted number keeps its depth (``5.2.`` is a subsection
  of 5). A number printed before it — a line number or page number that the layout put
  on the heading's baseline (``7 5.2. Depth estimation``, ``10 6. Conclusion``) — is not
  part of it: of two leading numbers the last is the heading's.
- The sequence: a heading's number must follow the previous one (`follows`: the next at
  the same depth, a first child, or the next of an ancestor; lettered appendix numbers
  start their own sequence). A body-size numbered row that breaks it (a numbered list
  item, a stray line) is not a heading; a larger or bold one stays a heading and the
  rebuild notes the printed number LaTeX would not give.
"""

from __future__ import annotations

import re

from slopmark.paper.pdf.extract import Row

HEADING_NUMBER = re.compile(
    r"^(?:\d{1,4}\s+(?=(?:\d+(?:\.\d+)*|[A-Z](?:\.\d+)+)\.?\s+\S))?"
    r"(?P<appendix>Appendix\s+)?(?P<number>\d+(?:\.\d+)*|[A-Z](?:\.\d+)*)\.?:?\s+(?P<title>\S.*)$"
)
CAPTION_START = re.compile(r"^(?:Figure|Fig\.|Table|Tab\.|Algorithm)\s*[A-Z]?\d+\b")
NUMBER_ONLY = re.compile(r"^(?:\d+(?:\.\d+)*|[A-Z](?:\.\d+)*)\.?$")
#: A numbered title case row with at most this many words can be a heading at body size.
TITLE_WORDS = 10
#: A title of this many words or more ending in a period is a sentence.
SENTENCE_WORDS = 5
MAX_WORDS = 15


def is_heading(row: Row, body: float) -> bool:
    text = row.text
    words = text.split()
    if len(words) > MAX_WORDS or text.endswith((",", ";")) or not worded(text):
        return False
    if CAPTION_START.match(text) or sentence_like(text):
        return False
    return text.rstrip(".:").lower() == "abstract" or _heading_style(row, body)


def worded(text: str) -> bool:
    """Holds a word of three letters or more (``N``, ``S3: He`` do not)."""
    return re.search(r"[^\W\d_]{3,}", text) is not None


def sentence_like(text: str) -> bool:
    """Running text rather than a title: ends in a period after `SENTENCE_WORDS` words or
    more, or its title starts in lower case."""
    title = split_number(text, True)[1]
    words = title.split()
    if not words:
        return False
    ends = title.endswith(".") and len(words) >= SENTENCE_WORDS
    return ends or (words[0].isalpha() and words[0].islower() and len(words) >= 3)


def _heading_style(row: Row, body: float) -> bool:
    """Larger than the body, bold, or at body size in capitals or a numbered title."""
    if row.size >= body + 1 or (row.bold and row.size >= body - 0.5):
        return True
    return row.size >= body - 0.5 and (all_caps(row.text) or numbered_title(row.text))


def strong(row: Row, body: float) -> bool:
    """Set apart by its font (larger or bold), not only by its numbering or capitals."""
    return row.size >= body + 1 or row.bold


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


def one_text(row: Row) -> bool:
    """One chunk, or printed numbers and a title set apart (``3   Method``, ``7  5.2.  Depth``)."""
    chunks = row.chunks
    numbers = [bool(NUMBER_ONLY.match(chunk.text)) for chunk in chunks[:-1]]
    return len(chunks) == 1 or (len(chunks) <= 3 and all(numbers))


def split_number(text: str, letters: bool) -> tuple[str | None, str]:
    """``("3.1", "Setup")`` from ``"3.1 Setup"`` (or ``"7 3.1. Setup"``); letters (``A``)
    only when ``letters``."""
    match = HEADING_NUMBER.match(text)
    if match is None:
        return None, text
    number = match.group("number")
    if number[0].isalpha() and not (letters or match.group("appendix")):
        return None, text
    return number, match.group("title").strip()


def follows(previous: str | None, number: str) -> bool:
    """Can a heading numbered ``number`` come after one numbered ``previous``?"""
    parts = number.split(".")
    if parts[0].isalpha():
        return True
    if previous is None or previous.split(".")[0].isalpha():
        return len(parts) == 1
    last = previous.split(".")
    for depth in range(len(last), 0, -1):
        if parts[:-1] == last[: depth - 1] and parts[-1] == _next(last[depth - 1]):
            return True
    return parts == [*last, "1"]


def _next(part: str) -> str:
    return str(int(part) + 1) if part.isdigit() else part
