"""Blocks of a PDF → a LaTeX source the LaTeX reader can measure.

- Front matter: before the abstract (or the first numbered heading), the largest heading
  on page 1 is the ``\\title``; the other headings, paragraphs and rows there become
  ``\\author`` (captions, tables and equations there stay in the body).
- Headings: ``Abstract`` opens ``\\begin{abstract}`` (closed at the next heading; a
  paragraph starting ``Abstract.``/``Abstract—`` is an abstract by itself). ``References``/
  ``Bibliography`` ends the body with a ``thebibliography`` of the entries (see
  `bibliography`); no ``\\bibliography{..}`` is emitted, as no ``.bib`` file exists.
  ``Appendix``/``Appendices``, or the first lettered heading (``A Proofs``,
  ``Appendix B: Data``), emits ``\\appendix``.
  ``Acknowledgements`` becomes ``\\section*``.
- Numbering: a numbered heading ``3.1 Setup`` is emitted unstarred *without* its number
  (``\\subsection{Setup}``, depth = number of parts) followed by ``\\label{sec:3.1}``, so
  printed pointers (``Section 3.1`` → ``\\ref{sec:3.1}``) resolve. The LaTeX numbering of the
  rebuilt headings is checked against the printed numbers; a difference becomes a comment
  in the source and a note on the document. In a paper that numbers its headings, an
  unnumbered heading is starred (level from the font of the numbered headings of the same
  size and weight); in a paper that numbers none, headings are emitted unstarred.
- Captions ``Figure N:`` / ``Table N:`` / ``Algorithm N:`` become a ``figure`` / ``table`` /
  ``algorithm`` environment with ``\\caption`` and ``\\label{fig:N}`` / ``tab:N`` / ``alg:N``.
  A table caption takes the table rows right below it, else those right above it, as a
  ``tabular`` (see `tables`). Table rows with no caption become a bare ``tabular``. A float
  moves to just after the paragraph holding its first printed pointer (see `floats`).
- A paragraph opening with a theorem-like head (``Theorem 2.``, ``Lemma 3.1 (Bound).``)
  becomes that environment with ``\\label{lemma:3.1}``, kept when pointed to (see `theorems`).
- A row ending in ``(N)`` becomes an ``equation`` with ``\\label{eq:N}``, unless no
  sentence of the paper points to any equation (see `pointed_equations`).
- Running text and captions go through `inline.to_latex` (pointers and citations).

Limits: text drawn inside figures and footnotes stays in the prose (watermarks, line
numbers, page numbers and running headers repeated on half the pages are removed before,
see `extract` and `blocks`); a two-column table in a two-column paper is cut at the
gutter; roman section numbers (``IV. RESULTS``) are read as unnumbered headings.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass

from slopmark.paper.pdf.bibliography import Entry, author_index, entries, numbered
from slopmark.paper.pdf.blocks import (
    REFERENCES,
    Block,
    Caption,
    Equation,
    Heading,
    Paragraph,
    TableRows,
    build_blocks,
)
from slopmark.paper.pdf.extract import Row
from slopmark.paper.pdf.floats import Float, attach_tables, place_floats
from slopmark.paper.pdf.inline import Context, escape, to_latex
from slopmark.paper.pdf.tables import tabular
from slopmark.paper.pdf.theorems import label, pointed_statements, statement
from slopmark.paper.recovery import NUMBERING_NOTE

APPENDIX = {"appendix", "appendices", "supplementary material", "supplementary materials"}
SECTIONING = ("section", "subsection", "subsubsection", "paragraph")
ABSTRACT_LEAD = ("abstract.", "abstract:", "abstract—", "abstract–", "abstract -")


@dataclass(frozen=True)
class Rebuilt:
    source: str
    #: Printed section numbers LaTeX would number differently.
    notes: tuple[str, ...]
    pages: int = 0


def rebuild(rows: tuple[Row, ...], name: str) -> Rebuilt:
    """The LaTeX source rebuilt from a PDF's rows (``name`` is the PDF's file name)."""
    body, blocks = build_blocks(rows)
    title, authors, rest = front_matter(blocks)
    writer = _Writer(rest, body)
    lines = [
        f"% Rebuilt by slopmark from {name} (the PDF route of `slopmark paper`).",
        r"\documentclass{article}",
        *([rf"\title{{{escape(title)}}}"] if title else []),
        *([rf"\author{{{escape(authors)}}}"] if authors else []),
        r"\begin{document}",
        *([r"\maketitle"] if title else []),
        *writer.lines(),
        r"\end{document}",
        "",
    ]
    pages = max((row.page for row in rows), default=0)
    source = "\n".join(pointed_statements(pointed_equations(lines)))
    return Rebuilt(source, tuple(writer.notes), pages)


_EQUATION_LABEL = re.compile(r"\\label\{eq:([^}]*)\}")
_EQUATION_POINTER = re.compile(r"\\(?:eqref|ref)\{eq:([^}]*)\}")


def pointed_equations(lines: list[str]) -> list[str]:
    """The lines, without the equation labels when no sentence points to an equation.

    An unlabelled equation is not an object the paper declares, and a PDF does not say
    which equations were labelled. A paper that points to its equations by number
    labels them; one that never does, most often labels none (so the PDF route does not
    invent objects the LaTeX route would not see)."""
    pointed = {m.group(1) for line in lines for m in _EQUATION_POINTER.finditer(line)}
    if pointed:
        return lines
    return [
        line for line in lines
        if not (label := _EQUATION_LABEL.fullmatch(line)) or label.group(1) in pointed
    ]  # fmt: skip


def _is_abstract_start(block: Block) -> bool:
    if isinstance(block, Heading):
        return block.plain == "abstract" or block.number is not None
    return isinstance(block, Paragraph) and block.text.lower().startswith(ABSTRACT_LEAD)


def front_matter(blocks: tuple[Block, ...]) -> tuple[str, str, tuple[Block, ...]]:
    """The title, the author block and the remaining blocks."""
    stop = _front_end(blocks)
    leading = blocks[:stop] if stop is not None else blocks[:1]
    size = _title_size(leading, blocks, bounded=stop is not None)
    if size is None:
        return "", "", blocks
    titles = [_plain(b) for b in leading if _is_title(b, size)]
    authors = [_plain(b) for b in leading if not _is_title(b, size)]
    floats = tuple(b for b in leading if isinstance(b, Caption | Equation))
    return " ".join(titles), " ".join(filter(None, authors)), floats + blocks[len(leading) :]


def _front_end(blocks: tuple[Block, ...]) -> int | None:
    """Where the abstract (or the first numbered heading) starts."""
    return next((i for i, block in enumerate(blocks) if _is_abstract_start(block)), None)


def _is_title(block: Block, size: float) -> bool:
    return isinstance(block, Heading) and block.size == size


def _title_size(
    leading: tuple[Block, ...], blocks: tuple[Block, ...], bounded: bool
) -> float | None:
    """The size of the title's headings; with no abstract ahead, only the paper's largest."""
    sizes = [b.size for b in leading if isinstance(b, Heading) and b.page == 1]
    if not sizes:
        return None
    largest = max(sizes)
    if bounded or largest >= max(b.size for b in blocks if isinstance(b, Heading)):
        return largest
    return None


def _plain(block: Block) -> str:
    if isinstance(block, Heading):
        return block.title
    if isinstance(block, TableRows):
        return " ".join(chunk.text for row in block.rows for chunk in row)
    return block.text if isinstance(block, Paragraph) else ""


def _references(blocks: tuple[Block, ...]) -> list[Paragraph]:
    """The paragraphs after the References heading, up to the next heading."""
    found: list[Paragraph] = []
    inside = False
    for block in blocks:
        if isinstance(block, Heading):
            if inside:
                break
            inside = block.plain in REFERENCES
        elif inside and isinstance(block, Paragraph):
            found.append(block)
    return found


def _context(blocks: tuple[Block, ...], found: tuple[Entry, ...], listed: bool) -> Context:
    """What the inline rules need: the numbered list's size, or the author–year entries to
    resolve citations against, and the printed equation numbers."""
    equations = frozenset(b.number for b in blocks if isinstance(b, Equation))
    if listed:
        return Context(numeric_entries=len(found), equations=equations)
    return Context(equations=equations, authors=author_index(found) if found else None)


class _Writer:
    """Emits the body, tracking the abstract, the appendix and LaTeX's section counters."""

    def __init__(self, blocks: tuple[Block, ...], body: float) -> None:
        self.items = place_floats(attach_tables(blocks))
        headings = [b for b in blocks if isinstance(b, Heading)]
        self.numbers_headings = any(h.number for h in headings)
        self.styles = {(h.size, h.bold): _depth(h.number) for h in headings if h.number}
        self.body = body
        paragraphs = _references(blocks)
        self.entries: tuple[Entry, ...] = entries(paragraphs)
        self.context = _context(blocks, self.entries, numbered(paragraphs))
        self.notes: list[str] = []
        self.counters = [0, 0, 0, 0]
        self.abstract = self.appendix = self.bibliography = False

    def lines(self) -> Iterator[str]:
        for item in self.items:
            if isinstance(item, Heading):
                yield from self._close_abstract()
                self.bibliography = False
                yield from self._heading(item)
            elif not (self.bibliography and isinstance(item, Paragraph)):
                yield from self._block(item)
        yield from self._close_abstract()

    def _close_abstract(self) -> Iterator[str]:
        if self.abstract:
            self.abstract = False
            yield r"\end{abstract}"
            yield ""

    def _heading(self, heading: Heading) -> Iterator[str]:
        plain = heading.plain
        if plain == "abstract":
            self.abstract = True
            yield r"\begin{abstract}"
        elif plain in REFERENCES:
            self.bibliography = True
            yield from self._bibliography()
        elif plain in APPENDIX and heading.number is None:
            yield from self._appendix()
        elif plain.startswith(("acknowledgement", "acknowledgment")):
            yield rf"\section*{{{escape(heading.title)}}}"
        else:
            yield from self._section(heading)

    def _appendix(self) -> Iterator[str]:
        if not self.appendix:
            self.appendix = True
            self.counters = [0, 0, 0, 0]
            yield r"\appendix"

    def _bibliography(self) -> Iterator[str]:
        yield rf"\begin{{thebibliography}}{{{len(self.entries)}}}"
        for entry in self.entries:
            yield rf"\bibitem{{{entry.key}}} {escape(entry.text)}"
        yield r"\end{thebibliography}"
        yield ""

    def _section(self, heading: Heading) -> Iterator[str]:
        number = heading.number
        if number is not None and number[0].isalpha():
            yield from self._appendix()
        level = _depth(number) if number else self._level(heading)
        command = SECTIONING[min(level, len(SECTIONING)) - 1]
        if number is None and self.numbers_headings:
            yield rf"\{command}*{{{to_latex(heading.title, self.context)}}}"
            return
        expected = self._count(level)
        if number is not None and number != expected:
            note = f"the PDF prints section {number} {NUMBERING_NOTE} {expected}"
            self.notes.append(note)
            yield f"% {note}"
        yield rf"\{command}{{{to_latex(heading.title, self.context)}}}"
        if number is not None:
            yield rf"\label{{sec:{number}}}"

    def _level(self, heading: Heading) -> int:
        known = self.styles.get((heading.size, heading.bold))
        if known is not None:
            return known
        return 1 if heading.size >= self.body + 1 else 2

    def _count(self, level: int) -> str:
        index = min(level, len(self.counters)) - 1
        self.counters[index] += 1
        for deeper in range(index + 1, len(self.counters)):
            self.counters[deeper] = 0
        parts = [str(n) for n in self.counters[: index + 1]]
        if self.appendix:
            parts[0] = chr(ord("A") + self.counters[0] - 1) if self.counters[0] else "0"
        return ".".join(parts)

    def _block(self, block: Block | Float) -> Iterator[str]:
        if isinstance(block, Float):
            yield from self._float(block)
        elif isinstance(block, Equation):
            yield r"\begin{equation}"
            yield escape(block.text)
            yield rf"\label{{eq:{block.number}}}"
            yield r"\end{equation}"
        elif isinstance(block, TableRows):
            yield from self._loose_table(block)
        elif isinstance(block, Paragraph):
            yield from self._paragraph(block)
        yield ""

    def _paragraph(self, block: Paragraph) -> Iterator[str]:
        text = block.text
        if not self.abstract and text.lower().startswith(ABSTRACT_LEAD):
            rest = text[len("abstract") :].lstrip(" .:—–-")
            yield r"\begin{abstract}"
            yield to_latex(rest, self.context)
            yield r"\end{abstract}"
            return
        found = statement(text)
        if found is None:
            yield to_latex(text, self.context)
            return
        environment, number, rest = found
        yield rf"\begin{{{environment}}}"
        yield to_latex(rest, self.context)
        yield rf"\label{{{label(environment, number)}}}"
        yield rf"\end{{{environment}}}"

    def _loose_table(self, block: TableRows) -> Iterator[str]:
        if len(block.rows) >= 2:
            yield tabular(block.rows)
        else:
            yield to_latex(" ".join(chunk.text for chunk in block.rows[0]), self.context)

    def _float(self, item: Float) -> Iterator[str]:
        kind = item.caption.kind
        yield rf"\begin{{{kind}}}"
        yield rf"\caption{{{to_latex(item.caption.text, self.context)}}}"
        yield rf"\label{{{item.label}}}"
        if item.table is not None:
            yield tabular(item.table.rows)
        yield rf"\end{{{kind}}}"


def _depth(number: str) -> int:
    return number.count(".") + 1
