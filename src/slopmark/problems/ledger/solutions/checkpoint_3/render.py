"""Turn a summary into text tables, JSON or CSV."""

from __future__ import annotations

import csv
import io
import json
from collections.abc import Callable, Sequence
from decimal import Decimal

from summary import Line, Summary


def money(amount: Decimal) -> str:
    """Two decimals, a leading '-' for negatives, never '-0.00'."""
    if amount == 0:
        amount = Decimal("0")
    return f"{amount:.2f}"


def table(
    header: tuple[str, ...], rows: Sequence[tuple[str, ...]], align: str = "<>>"
) -> list[str]:
    """Columns two spaces apart, each aligned '<' (left) or '>' (right); no trailing spaces."""
    widths = [max(len(row[col]) for row in [header, *rows]) for col in range(len(header))]
    lines = []
    for row in [header, *rows]:
        cells = [
            cell.ljust(width) if side == "<" else cell.rjust(width)
            for cell, width, side in zip(row, widths, align, strict=True)
        ]
        lines.append("  ".join(cells).rstrip())
    return lines


def csv_text(header: tuple[str, ...], rows: Sequence[tuple[str, ...]]) -> str:
    """CSV with minimal quoting and '\\n' line endings."""
    buffer = io.StringIO()
    writer = csv.writer(buffer, lineterminator="\n")
    writer.writerow(header)
    writer.writerows(rows)
    return buffer.getvalue()


def _line_table(title: str, amount_title: str, lines: tuple[Line, ...]) -> list[str]:
    rows = [(line.name, str(line.count), money(line.amount)) for line in lines]
    return table((title, "TXNS", amount_title), rows)


def summary_text(summary: Summary) -> str:
    """The accounts table, a blank line, the categories table."""
    accounts = _line_table("ACCOUNT", "BALANCE", summary.accounts)
    categories = _line_table("CATEGORY", "TOTAL", summary.categories)
    return "\n".join([*accounts, "", *categories]) + "\n"


def summary_json(summary: Summary) -> str:
    """{"accounts": [{name, count, balance}], "categories": [{name, count, total}]}."""
    document = {
        "accounts": [
            {"name": line.name, "count": line.count, "balance": money(line.amount)}
            for line in summary.accounts
        ],
        "categories": [
            {"name": line.name, "count": line.count, "total": money(line.amount)}
            for line in summary.categories
        ],
    }
    return json.dumps(document, indent=2) + "\n"


def _csv_row(section: str, line: Line) -> tuple[str, ...]:
    return (section, line.name, str(line.count), money(line.amount))


def summary_csv(summary: Summary) -> str:
    """One row per account, then one per category: section,name,count,amount."""
    rows = [_csv_row("account", line) for line in summary.accounts]
    rows += [_csv_row("category", line) for line in summary.categories]
    return csv_text(("section", "name", "count", "amount"), rows)


SUMMARY_FORMATS: dict[str, Callable[[Summary], str]] = {
    "text": summary_text,
    "json": summary_json,
    "csv": summary_csv,
}
