"""Turn a summary into the aligned text tables."""

from __future__ import annotations

from collections.abc import Sequence
from decimal import Decimal

from summary import Line, Summary


def money(amount: Decimal) -> str:
    """Two decimals, a leading '-' for negatives, never '-0.00'."""
    if amount == 0:
        amount = Decimal("0")
    return f"{amount:.2f}"


def table(header: tuple[str, ...], rows: Sequence[tuple[str, ...]]) -> list[str]:
    """Columns two spaces apart: the first left-aligned, the others right-aligned."""
    widths = [max(len(row[col]) for row in [header, *rows]) for col in range(len(header))]
    lines = []
    for row in [header, *rows]:
        cells = [row[0].ljust(widths[0])]
        cells += [cell.rjust(width) for cell, width in zip(row[1:], widths[1:], strict=True)]
        lines.append("  ".join(cells))
    return lines


def _line_table(title: str, amount_title: str, lines: tuple[Line, ...]) -> list[str]:
    rows = [(line.name, str(line.count), money(line.amount)) for line in lines]
    return table((title, "TXNS", amount_title), rows)


def summary_text(summary: Summary) -> str:
    """The accounts table, a blank line, the categories table."""
    accounts = _line_table("ACCOUNT", "BALANCE", summary.accounts)
    categories = _line_table("CATEGORY", "TOTAL", summary.categories)
    return "\n".join([*accounts, "", *categories]) + "\n"
