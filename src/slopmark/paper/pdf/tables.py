"""Table rows of a PDF → a LaTeX ``tabular`` with ``&``-separated cells.

Columns come from the rows with the most chunks: column i spans the i-th chunks of
those rows. Each chunk of every other row goes to the column it overlaps most (the
nearest one when it overlaps none); chunks landing in one column are joined by a
space, and columns a row leaves empty become empty cells.

Limits: a header spanning two columns lands in one of them; a cell wrapped over two
rows becomes two rows; a table without any multi-chunk row is read as prose.
"""

from __future__ import annotations

from slopmark.paper.pdf.extract import Chunk
from slopmark.paper.pdf.inline import escape


def columns(rows: tuple[tuple[Chunk, ...], ...]) -> tuple[tuple[float, float], ...]:
    """The x-extent of each column."""
    width = max(map(len, rows))
    full = [row for row in rows if len(row) == width]
    return tuple(
        (min(row[i].x0 for row in full), max(row[i].x1 for row in full)) for i in range(width)
    )


def _column_of(chunk: Chunk, spans: tuple[tuple[float, float], ...]) -> int:
    def overlap(span: tuple[float, float]) -> float:
        return min(chunk.x1, span[1]) - max(chunk.x0, span[0])

    def distance(span: tuple[float, float]) -> float:
        return abs((chunk.x0 + chunk.x1) / 2 - (span[0] + span[1]) / 2)

    best = max(range(len(spans)), key=lambda i: overlap(spans[i]))
    if overlap(spans[best]) > 0:
        return best
    return min(range(len(spans)), key=lambda i: distance(spans[i]))


def cells(rows: tuple[tuple[Chunk, ...], ...]) -> tuple[tuple[str, ...], ...]:
    """The table's cells, row by row, each row as wide as the table."""
    spans = columns(rows)
    table: list[tuple[str, ...]] = []
    for row in rows:
        parts: list[list[str]] = [[] for _ in spans]
        for chunk in row:
            parts[_column_of(chunk, spans)].append(chunk.text)
        table.append(tuple(" ".join(part) for part in parts))
    return tuple(table)


def tabular(rows: tuple[tuple[Chunk, ...], ...]) -> str:
    """A ``tabular`` environment holding the rows' cells (escaped for LaTeX)."""
    table = cells(rows)
    spec = "l" * len(table[0])
    lines = [" & ".join(map(escape, row)) + r" \\" for row in table]
    return "\n".join([rf"\begin{{tabular}}{{{spec}}}", *lines, r"\end{tabular}"])
