"""Write an aggregation :class:`Table` as an aligned text table, JSON or CSV."""

from __future__ import annotations

import json
from collections.abc import Callable
from decimal import ROUND_HALF_UP, Decimal

from logq.table import Cell, Column, Table

_THOUSANDTH = Decimal("0.001")
NULL_IN_TABLE = "-"


def format_number(value: Decimal) -> str:
    """Round to 3 decimals (halves away from zero) and drop trailing zeros: ``41.667``, ``3``."""
    rounded = value.quantize(_THOUSANDTH, rounding=ROUND_HALF_UP)
    if rounded.is_zero():
        return "0"
    text = format(rounded, "f")
    return text.rstrip("0").rstrip(".") if "." in text else text


def _cell_text(cell: Cell, null: str) -> str:
    if cell is None:
        return null
    if isinstance(cell, Decimal):
        return format_number(cell)
    return cell


def render_table(table: Table) -> str:
    """Header, dash line and rows; columns two spaces apart, numbers right-aligned."""
    header = tuple(column.name for column in table.columns)
    body = [tuple(_cell_text(cell, NULL_IN_TABLE) for cell in row) for row in table.rows]
    widths = [max(len(text) for text in texts) for texts in zip(header, *body, strict=True)]
    dashes = tuple("-" * width for width in widths)
    lines = [_align(header, table.columns, widths), "  ".join(dashes)]
    lines.extend(_align(texts, table.columns, widths) for texts in body)
    return "".join(line.rstrip(" ") + "\n" for line in lines)


def _align(texts: tuple[str, ...], columns: tuple[Column, ...], widths: list[int]) -> str:
    cells = (
        text.ljust(width) if column.is_group else text.rjust(width)
        for text, column, width in zip(texts, columns, widths, strict=True)
    )
    return "  ".join(cells)


def render_json(table: Table) -> str:
    """A JSON array of one object per row, keys in column order, numbers as JSON numbers."""
    if not table.rows:
        return "[]\n"
    objects = [_json_object(table.columns, row) for row in table.rows]
    return "[\n" + ",\n".join(f"  {text}" for text in objects) + "\n]\n"


def _json_object(columns: tuple[Column, ...], row: tuple[Cell, ...]) -> str:
    members = (
        f"{json.dumps(column.name)}: {_json_value(cell)}"
        for column, cell in zip(columns, row, strict=True)
    )
    return "{" + ", ".join(members) + "}"


def _json_value(cell: Cell) -> str:
    if cell is None:
        return "null"
    if isinstance(cell, Decimal):
        return format_number(cell)
    return json.dumps(cell, ensure_ascii=False)


def render_csv(table: Table) -> str:
    """RFC 4180 CSV with ``\\n`` line ends; cells quoted only when needed; null is empty."""
    header = [column.name for column in table.columns]
    body = [[_cell_text(cell, "") for cell in row] for row in table.rows]
    return "".join(",".join(_csv_cell(text) for text in texts) + "\n" for texts in [header, *body])


def _csv_cell(text: str) -> str:
    if any(char in text for char in ',"\r\n'):
        return '"' + text.replace('"', '""') + '"'
    return text


RENDERERS: dict[str, Callable[[Table], str]] = {
    "table": render_table,
    "json": render_json,
    "csv": render_csv,
}
