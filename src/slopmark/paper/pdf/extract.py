"""Text rows of a PDF with their fonts and positions (pdfminer.six, imported lazily).

pdfminer groups characters into horizontal text lines; this module cuts them
into words, gathers the words sharing a baseline, and joins those into
*chunks*, cutting wherever two words are further apart than `GAP_EM` times the
font size and `STRETCH` times the line's median word gap (a table's column gap,
an equation number, but not a justified line's stretched spaces). A baseline's
chunks form a `Row`. Text inside embedded
figures (form XObjects such as an included plot) is left out, and so is turned
text (a diagonal watermark, a rotated margin note), told by its text matrix,
and line numbers in the margins or the gutter (`without_line_numbers`).

Reading order: a page whose text leaves an empty vertical strip near its
middle, crossed by less than `CROSSING_SHARE` of the lines reaching across
it, is read as two columns. Rows that cross the strip (a title, a wide caption) cut the page
into bands; each band is read left column first, then right.
"""

from __future__ import annotations

import io
import re
import warnings
import zlib
from collections import Counter
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Protocol

from slopmark.errors import BadInput
from slopmark.regular import read_regular

if TYPE_CHECKING:
    from pdfminer.layout import LTChar, LTPage

#: What pdfminer raises, besides its own errors, on a file whose internals are broken (a font
#: dictionary without its keys, a stream of the wrong type, a corrupt compressed stream, a
#: failed internal assert).
MALFORMED = (
    KeyError,
    ValueError,
    TypeError,
    IndexError,
    AttributeError,
    AssertionError,
    zlib.error,
)
INSTALL_HINT = "reading PDFs needs: pip install 'slopmark[pdf]'"
#: A PDF larger than this is refused (a paper's is a few MiB).
MAX_PDF_BYTES = 200 * 2**20
#: Two characters further apart than this many font sizes start a new word.
WORD_GAP_EM = 0.15
#: Two words further apart than this many font sizes start a new chunk ...
GAP_EM = 0.8
#: ... when that is also this many times the line's median word gap.
STRETCH = 2.5
#: A page is two-column when less than this share of the lines spanning its gutter cross it.
CROSSING_SHARE = 0.15
#: Larger words on both sides of the gutter closer than this many sizes are one line.
TITLE_GAP_EM = 4.0
#: Line numbers: at least this many digit-only words stacked within this many points.
LINE_NUMBER_ROWS = 5
LINE_NUMBER_X = 4.0
LINE_NUMBER_SMALLER = 1.5
#: Text whose matrix turns it by more than about 1° (|b| + |c| over |a| + |d|) is dropped.
ROTATION_TOLERANCE = 0.02
#: Font-name parts that mark a bold face (CMBX = Computer Modern bold, Medi = Times bold).
BOLD_MARKS = ("bold", "black", "heavy", "semibold", "demi", "medi", "cmbx", "sfbx")
LIGATURES = str.maketrans({"ﬀ": "ff", "ﬁ": "fi", "ﬂ": "fl", "ﬃ": "ffi", "ﬄ": "ffl", "ﬅ": "st"})
#: Glyphs a font left without Unicode come out as ``(cid:N)``; the ligature slots of TeX's
#: T1 (27-31) and OT1 (11-15) encodings are restored, other ones are kept as they are.
UNMAPPED = re.compile(r"\(cid:(\d+)\)")
CID_LIGATURES = {27: "ff", 28: "fi", 29: "fl", 30: "ffi", 31: "ffl",
                 11: "ff", 12: "fi", 13: "fl", 14: "ffi", 15: "ffl"}  # fmt: skip


@dataclass(frozen=True)
class Chunk:
    """A run of characters with no wide gap, on one line."""

    text: str
    x0: float
    x1: float
    #: Distances from the top of the page.
    top: float
    bottom: float
    #: The most common font size of its characters (points, rounded to 0.1).
    size: float
    #: Share of its letters set in a bold face.
    bold: float


@dataclass(frozen=True)
class Row:
    """Chunks sharing a baseline within one column of one page (1-based page)."""

    page: int
    chunks: tuple[Chunk, ...]

    @property
    def text(self) -> str:
        return " ".join(chunk.text for chunk in self.chunks)

    @property
    def top(self) -> float:
        return min(chunk.top for chunk in self.chunks)

    @property
    def bottom(self) -> float:
        return max(chunk.bottom for chunk in self.chunks)

    @property
    def x0(self) -> float:
        return self.chunks[0].x0

    @property
    def x1(self) -> float:
        return self.chunks[-1].x1

    @property
    def size(self) -> float:
        """The font size carrying most of the row's characters."""
        return main_size(self.chunks)

    @property
    def bold(self) -> bool:
        letters = sum(len(chunk.text) for chunk in self.chunks)
        weight = sum(chunk.bold * len(chunk.text) for chunk in self.chunks)
        return letters > 0 and weight / letters >= 0.9


def read_rows(pdf: Path) -> tuple[Row, ...]:
    """Every text row of ``pdf`` in reading order; BadInput for a file that is no readable PDF."""
    try:
        from pdfminer.high_level import extract_pages
        from pdfminer.psparser import PSException
    except ImportError as error:
        raise BadInput(f"{pdf}: {INSTALL_HINT}") from error
    data = read_regular(pdf, MAX_PDF_BYTES, advice="pass a PDF file")
    try:
        with warnings.catch_warnings():
            warnings.filterwarnings("ignore", module=r"pdfminer(\.|$)")
            pages = list(extract_pages(io.BytesIO(data)))
    except PSException as error:
        raise BadInput(f"{pdf}: not a readable PDF ({_reason(error)})") from error
    except MALFORMED as error:
        raise BadInput(
            f"{pdf}: not a readable PDF (broken {type(error).__name__}: {error})"
        ) from error
    except OSError as error:
        raise BadInput(f"{pdf}: cannot read the file ({error.strerror or error})") from error
    rows = [row for number, page in enumerate(pages, start=1) for row in _page_rows(number, page)]
    if not rows:
        raise BadInput(f"{pdf}: the PDF has no text layer (a scan?); run OCR on it first")
    return tuple(rows)


def _reason(error: Exception) -> str:
    name = type(error).__name__
    if "Password" in name or "Encryption" in name:
        return "it is encrypted; decrypt it first"
    return f"{name}: {error}" if str(error) else name


def _page_rows(number: int, page: LTPage) -> list[Row]:
    lines = _baselines(without_line_numbers(list(_page_words(page))))
    gutter = _gutter(lines)
    if gutter is None:
        return [Row(number, tuple(_chunks(line))) for line in lines]
    return _two_columns(number, lines, gutter)


def _page_words(page: LTPage) -> Iterator[Chunk]:
    from pdfminer.layout import LTChar, LTTextBox, LTTextLineHorizontal

    for box in page:
        if not isinstance(box, LTTextBox):
            continue
        for line in box:
            if isinstance(line, LTTextLineHorizontal):
                chars = [item for item in line if isinstance(item, LTChar) and not rotated(item)]
                yield from _words(chars, page.height)


def rotated(char: LTChar) -> bool:
    """Is the glyph drawn turned (a diagonal watermark, a vertical margin note)?

    Its text matrix [a b c d] is a scaled rotation; upright text has b = c = 0."""
    a, b, c, d = char.matrix[:4]
    return abs(b) + abs(c) > ROTATION_TOLERANCE * (abs(a) + abs(d))


def without_line_numbers(words: list[Chunk]) -> list[Chunk]:
    """The words of a page without its line numbers (``lineno``, review templates).

    Line numbers are digit-only words stacked in a column (centres within `LINE_NUMBER_X`
    points) of at least `LINE_NUMBER_ROWS` words, mostly increasing downwards, and either
    set smaller than the page's text (by `LINE_NUMBER_SMALLER` points) or in an x-span no
    other word of the page overlaps (a margin; never a table column, which its header and
    the running text above or below cross)."""
    others = [w for w in words if not _is_number(w)]
    if not others:
        return words
    body = main_size(others)
    stacks = _stacks([w for w in words if _is_number(w)])
    dropped = {id(w) for stack in stacks if _numbers_column(stack, others, body) for w in stack}
    return [w for w in words if id(w) not in dropped]


def _is_number(word: Chunk) -> bool:
    return word.text.isdigit() and len(word.text) <= 4


def _numbers_column(column: list[Chunk], others: list[Chunk], body: float) -> bool:
    if len(column) < LINE_NUMBER_ROWS:
        return False
    left, right = min(w.x0 for w in column), max(w.x1 for w in column)
    small = max(w.size for w in column) <= body - LINE_NUMBER_SMALLER
    alone = not any(w.x0 < right and w.x1 > left for w in others)
    ordered = [int(w.text) for w in sorted(column, key=lambda w: w.top)]
    rising = sum(b > a for a, b in zip(ordered, ordered[1:], strict=False))
    return (small or alone) and rising >= 0.8 * (len(ordered) - 1)


def _stacks(words: list[Chunk]) -> list[list[Chunk]]:
    """Words grouped by the x of their centre (within `LINE_NUMBER_X`)."""
    stacks: list[list[Chunk]] = []
    for word in sorted(words, key=lambda w: (w.x0 + w.x1) / 2):
        centre = (word.x0 + word.x1) / 2
        if stacks and centre - (stacks[-1][-1].x0 + stacks[-1][-1].x1) / 2 <= LINE_NUMBER_X:
            stacks[-1].append(word)
        else:
            stacks.append([word])
    return stacks


def _words(chars: list[LTChar], height: float) -> Iterator[Chunk]:
    """Runs of characters split at spaces and at gaps over `WORD_GAP_EM` of the font size."""
    run: list[LTChar] = []
    for char in chars:
        space = char.get_text().isspace()
        if run and (space or char.x0 - run[-1].x1 > WORD_GAP_EM * char.size):
            yield from _word(run, height)
            run = []
        if not space:
            run.append(char)
    yield from _word(run, height)


def _word(chars: list[LTChar], height: float) -> Iterator[Chunk]:
    text = _text(chars)
    if not text:
        return
    sizes = Counter(round(char.size, 1) for char in chars)
    letters = [char for char in chars if char.get_text().isalnum()] or chars
    bold = sum(_is_bold(char.fontname) for char in letters) / len(letters)
    top = height - max(char.y1 for char in chars)
    bottom = height - min(char.y0 for char in chars)
    size = sizes.most_common(1)[0][0]
    yield Chunk(text, chars[0].x0, chars[-1].x1, top, bottom, size, bold)


def _text(chars: list[LTChar]) -> str:
    text = "".join(char.get_text() for char in chars)
    return UNMAPPED.sub(lambda m: CID_LIGATURES.get(int(m.group(1)), m.group(0)), text).translate(
        LIGATURES
    )


def _chunks(words: list[Chunk]) -> list[Chunk]:
    """The words of one baseline joined into chunks, cut at gaps wider than `_cut_gap`."""
    cut = _cut_gap(words)
    runs: list[list[Chunk]] = []
    for word in words:
        if runs and word.x0 - runs[-1][-1].x1 <= cut:
            runs[-1].append(word)
        else:
            runs.append([word])
    return [_merge(run) for run in runs]


def _cut_gap(words: list[Chunk]) -> float:
    """`GAP_EM` font sizes, or `STRETCH` times the line's median word gap if that is wider
    (a justified line stretches its spaces, and LaTeX stretches a sentence's end more)."""
    size = Counter(word.size for word in words).most_common(1)[0][0]
    gaps = sorted(
        b.x0 - a.x1 for a, b in zip(words, words[1:], strict=False) if b.x0 - a.x1 < GAP_EM * size
    )
    typical = gaps[len(gaps) // 2] if gaps else 0.0
    return max(GAP_EM * size, STRETCH * typical)


def _merge(words: list[Chunk]) -> Chunk:
    bold = sum(word.bold * len(word.text) for word in words)
    return Chunk(
        " ".join(word.text for word in words),
        words[0].x0,
        words[-1].x1,
        min(word.top for word in words),
        max(word.bottom for word in words),
        main_size(words),
        bold / sum(len(word.text) for word in words),
    )


class _Sized(Protocol):
    @property
    def text(self) -> str: ...
    @property
    def size(self) -> float: ...


def main_size(items: Iterable[_Sized]) -> float:
    """The font size carrying the most characters of ``items`` (chunks or rows)."""
    sizes: Counter[float] = Counter()
    for item in items:
        sizes[item.size] += len(item.text)
    return sizes.most_common(1)[0][0]


def _is_bold(fontname: str) -> bool:
    name = fontname.split("+")[-1].lower()
    return any(mark in name for mark in BOLD_MARKS)


def _baselines(chunks: Iterable[Chunk]) -> list[list[Chunk]]:
    """Chunks grouped by vertical overlap (half the smaller height), each group sorted by x.

    Sorted by their tops, a chunk can only share a line with one of the last lines opened."""
    lines: list[list[Chunk]] = []
    for chunk in sorted(chunks, key=lambda c: (c.top, c.x0)):
        line = next((line for line in lines[-8:] if _same_line(line[0], chunk)), None)
        if line is None:
            lines.append([chunk])
        else:
            line.append(chunk)
    return [sorted(line, key=lambda c: c.x0) for line in lines]


def _same_line(first: Chunk, other: Chunk) -> bool:
    overlap = min(first.bottom, other.bottom) - max(first.top, other.top)
    return overlap > 0.5 * min(first.bottom - first.top, other.bottom - other.top)


def _gutter(lines: list[list[Chunk]]) -> float | None:
    """The x of an empty strip splitting the page into two columns, or None.

    Among the lines holding words on both sides of x, less than `CROSSING_SHARE` may have a
    word across it, and each side must hold a quarter of the page's characters."""
    words = [word for line in lines for word in line]
    if not words:
        return None
    left = min(word.x0 for word in words)
    right = max(word.x1 for word in words)
    candidates = [left + (right - left) * step / 100 for step in range(35, 66)]
    x = min(candidates, key=lambda x: _crossing_share(lines, x))
    if _crossing_share(lines, x) < CROSSING_SHARE and _balanced(words, x):
        return x
    return None


def _balanced(words: list[Chunk], x: float) -> bool:
    total = sum(len(word.text) for word in words)
    lefts = sum(len(word.text) for word in words if word.x1 <= x)
    rights = sum(len(word.text) for word in words if word.x0 >= x)
    return min(lefts, rights) >= 0.25 * total


def _crossing_share(lines: list[list[Chunk]], x: float) -> float:
    crossing = sum(any(word.x0 < x < word.x1 for word in line) for line in lines)
    spanning = sum(line[0].x0 < x < line[-1].x1 for line in lines)
    return crossing / spanning if spanning else 1.0


def _two_columns(number: int, lines: list[list[Chunk]], gutter: float) -> list[Row]:
    """Rows in reading order: bands between full-width rows, each left column then right."""
    body = main_size(word for line in lines for word in line)
    keyed: list[tuple[int, int, float, Row]] = []
    band = 0
    for line in lines:
        if _full_width(line, gutter, body):
            band += 1
            keyed.append((band, 0, line[0].top, Row(number, tuple(_chunks(line)))))
            band += 1
            continue
        for column, part in enumerate(_split_at(line, gutter), start=1):
            if part:
                keyed.append((band, column, part[0].top, Row(number, tuple(_chunks(part)))))
    keyed.sort(key=lambda item: item[:3])
    return [row for *_, row in keyed]


def _full_width(line: list[Chunk], gutter: float, body: float) -> bool:
    """A line across the gutter: a word crosses it, or words on both sides are a plain space
    apart, or all larger than the body text and less than `TITLE_GAP_EM` sizes apart (a
    centred title, author or date line; two headings side by side are further apart)."""
    if any(word.x0 < gutter < word.x1 for word in line):
        return True
    left, right = _split_at(line, gutter)
    if not left or not right:
        return False
    size = min(word.size for word in line)
    gap = right[0].x0 - left[-1].x1
    return gap < GAP_EM * size or (size >= body + 1 and gap < TITLE_GAP_EM * size)


def _split_at(line: list[Chunk], gutter: float) -> tuple[list[Chunk], list[Chunk]]:
    return [w for w in line if w.x1 <= gutter], [w for w in line if w.x0 >= gutter]
