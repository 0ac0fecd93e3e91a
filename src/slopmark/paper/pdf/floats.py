"""Captions of a PDF → floats, with their tables, placed where the text first points to them.

A table caption takes the table rows right below it, else those right above it. LaTeX
lets floats drift to the top of a page or column, often before the text that introduces
them, or into the next section; a source keeps each float near its first mention. So a
float moves to just after the first body paragraph (after the abstract, before the
references) whose printed pointers name it (``Figure 3`` → ``fig:3``); a float that is
never named stays where the PDF shows it.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from slopmark.paper.pdf.blocks import REFERENCES, Block, Caption, Heading, Paragraph, TableRows
from slopmark.paper.pdf.inline import to_latex

LABEL_PREFIX = {"figure": "fig", "table": "tab", "algorithm": "alg"}
POINTER = re.compile(r"\\(?:ref|eqref)\{([^{}]+)\}")


@dataclass(frozen=True)
class Float:
    caption: Caption
    table: TableRows | None

    @property
    def label(self) -> str:
        return f"{LABEL_PREFIX[self.caption.kind]}:{self.caption.number}"


def attach_tables(blocks: tuple[Block, ...]) -> list[Block | Float]:
    """Captions become floats; a table caption takes the table rows below, else above."""
    out: list[Block | Float] = []
    taken: set[int] = set()
    for i, block in enumerate(blocks):
        if i in taken:
            continue
        if not isinstance(block, Caption):
            out.append(block)
            continue
        table = _table_for(blocks, i, out) if block.kind == "table" else None
        if table is not None and i + 1 < len(blocks) and blocks[i + 1] is table:
            taken.add(i + 1)
        out.append(Float(block, table))
    return out


def _table_for(blocks: tuple[Block, ...], i: int, out: list[Block | Float]) -> TableRows | None:
    after = blocks[i + 1] if i + 1 < len(blocks) else None
    if isinstance(after, TableRows):
        return after
    last = out[-1] if out else None
    if isinstance(last, TableRows):
        out.pop()
        return last
    return None


def first_mentions(items: list[Block | Float]) -> dict[str, int]:
    """Label → index of the first body paragraph pointing to it."""
    first: dict[str, int] = {}
    body = False
    for i, item in enumerate(items):
        if isinstance(item, Heading):
            if item.plain in REFERENCES:
                break
            body = item.plain != "abstract"
        elif body and isinstance(item, Paragraph):
            for key in POINTER.findall(to_latex(item.text)):
                first.setdefault(key, i)
    return first


def place_floats(items: list[Block | Float]) -> list[Block | Float]:
    """The items with each named float moved to just after its first mention."""
    first = first_mentions(items)
    moved: dict[int, list[Float]] = {}
    for item in items:
        if isinstance(item, Float) and item.label in first:
            moved.setdefault(first[item.label], []).append(item)
    placed: list[Block | Float] = []
    for i, item in enumerate(items):
        if not (isinstance(item, Float) and item.label in first):
            placed.append(item)
        placed.extend(moved.get(i, []))
    return placed
