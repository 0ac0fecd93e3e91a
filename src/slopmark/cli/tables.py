"""Tables that stay readable at any width: columns are wrapped, never cut to "…".

A Rich table wider than the console squeezes its widest columns and ends
their values with an ellipsis; at 80 columns (a pipe, CI logs) a wide table
becomes a grid of "…". `print_table` lays a table out itself: every column
gets at least its longest word and the room left is shared in proportion to
what each column could use. When even that does not fit, the table is
printed without vertical rules; when that does not fit either, its columns
are split over several tables that each repeat the first ``keys`` columns
(a row's name), so every value is still printed whole.

`sized_console` is the console every command prints its tables on: as wide as the
terminal, or ``$COLUMNS`` when set, and 80 columns in a pipe.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Callable, Sequence

from rich import box
from rich.console import Console, RenderableType
from rich.measure import Measurement
from rich.table import Column, Table

_UNBOUNDED = 1_000_000
#: the width of output that goes to a pipe or a file (CI logs, ``| less``) without $COLUMNS
PIPE_WIDTH = 80


def width(stderr: bool = False) -> int | None:
    """``$COLUMNS`` when it is a positive number; else None (the terminal's own width) at a
    terminal and `PIPE_WIDTH` in a pipe, whatever terminal stdin or stderr may be."""
    columns = os.environ.get("COLUMNS", "").strip()
    if columns.isdigit() and int(columns) > 0:
        return int(columns)
    stream = sys.stderr if stderr else sys.stdout
    return None if stream.isatty() else PIPE_WIDTH


def sized_console(stderr: bool = False, highlight: bool = True) -> Console:
    """The console a command prints on, at `width`."""
    return Console(stderr=stderr, width=width(stderr), highlight=highlight)


def _span(console: Console, column: Column) -> tuple[int, int]:
    """The column's content width range: (longest word, longest line) over header and cells."""
    options = console.options.update_width(_UNBOUNDED)
    cells: list[RenderableType] = [column.header, *column.cells]
    measured = [Measurement.get(console, options, cell) for cell in cells]
    return max(m.minimum for m in measured), max(m.maximum for m in measured)


def _overhead(console: Console, table: Table, widths: Sequence[int]) -> int:
    """Rules, edges and padding: the table's width beyond its columns' content."""
    for column, width in zip(table.columns, widths, strict=True):
        column.width = width
    options = console.options.update_width(_UNBOUNDED)
    return console.measure(table, options=options).maximum - sum(widths)


def layout(console: Console, table: Table) -> list[int] | None:
    """Content widths for ``table``'s columns within the console, no column narrower than
    its longest word; None when that cannot fit."""
    spans = [_span(console, column) for column in table.columns]
    lows, highs = [low for low, _ in spans], [high for _, high in spans]
    room = console.width - _overhead(console, table, highs)
    if sum(highs) <= room:
        return highs
    if sum(lows) > room:
        return None
    spare, slack = room - sum(lows), sum(highs) - sum(lows)
    return [low + (high - low) * spare // slack for low, high in spans]


def _like(table: Table, columns: Sequence[Column], rows: Sequence[Sequence[object]]) -> Table:
    """``table``'s title and header, without vertical rules or edges, holding ``columns``
    and ``rows``."""
    part = Table(
        title=table.title,
        title_justify=table.title_justify,
        caption=table.caption,
        caption_justify=table.caption_justify,
        show_header=table.show_header,
        box=box.SIMPLE_HEAD if table.box is not None else None,
        show_edge=False,
        pad_edge=False,
        collapse_padding=True,
    )
    for column in columns:
        part.add_column(
            column.header,
            justify=column.justify,
            style=column.style,
            header_style=column.header_style,
            overflow="fold",
        )
    for row in rows:
        part.add_row(*row)  # type: ignore[arg-type]
    return part


def _fitted(console: Console, table: Table) -> Table | None:
    widths = layout(console, table)
    if widths is None:
        return None
    for column, width in zip(table.columns, widths, strict=True):
        column.width = width
    return table


def _groups(fits: Callable[[list[int]], bool], head: list[int], count: int) -> list[list[int]]:
    """Columns after ``head`` in consecutive groups, each as large as still ``fits``."""
    groups: list[list[int]] = []
    for index in range(len(head), count):
        if groups and fits(head + groups[-1] + [index]):
            groups[-1].append(index)
        else:
            groups.append([index])
    return groups


def _maker(table: Table) -> Callable[[list[int]], Table]:
    """A function making a compact table of the chosen columns of ``table``."""
    columns = list(table.columns)
    rows = list(zip(*(list(column.cells) for column in columns), strict=True))

    def make(chosen: list[int]) -> Table:
        return _like(table, [columns[i] for i in chosen], [[r[i] for i in chosen] for r in rows])

    return make


def _parts(console: Console, table: Table, keys: int) -> list[Table]:
    """``table``'s columns over several compact tables, each repeating the first ``keys``."""
    make, count = _maker(table), len(table.columns)
    head = list(range(min(keys, count)))
    groups = _groups(lambda chosen: layout(console, make(chosen)) is not None, head, count)
    parts = [_fitted(console, make(head + group)) or make(head + group) for group in groups]
    for number, part in enumerate(parts, start=1):
        part.title = f"{table.title or ''} ({number}/{len(parts)})".lstrip()
        part.caption = table.caption if number == len(parts) else None
    return parts


def split(console: Console, table: Table, keys: int = 1) -> list[Table]:
    """``table`` laid out as one or more tables that fit the console (see the module doc)."""
    whole = _fitted(console, table)
    if whole is not None:
        return [whole]
    compact = _fitted(console, _maker(table)(list(range(len(table.columns)))))
    return [compact] if compact is not None else _parts(console, table, keys)


def print_table(console: Console, table: Table, keys: int = 1) -> None:
    """Print ``table`` whole at the console's width (see `split`); its caption under it as
    text of the console's width, not wrapped to the width of the last part's columns."""
    caption, table.caption = table.caption, None
    for part in split(console, table, keys):
        console.print(part)
    if caption:
        console.print(caption, justify="left")
