"""The CSV input format: a header row naming the columns, then one row per transaction."""

from __future__ import annotations

import csv
import io

from errors import LedgerError
from transactions import FIELDS, REQUIRED_FIELDS, Transaction, build_transaction


def _header(row: list[str], path: str) -> list[str]:
    names = [cell.strip().lower() for cell in row]
    missing = [name for name in REQUIRED_FIELDS if name not in names]
    if missing:
        raise LedgerError(f"{path}:1: header lacks column(s): {', '.join(missing)}")
    repeated = sorted({name for name in names if names.count(name) > 1 and name in FIELDS})
    if repeated:
        raise LedgerError(f"{path}:1: header repeats column(s): {', '.join(repeated)}")
    return names


def _row_fields(names: list[str], row: list[str], where: str) -> dict[str, str]:
    if len(row) != len(names):
        raise LedgerError(f"{where}: expected {len(names)} fields, got {len(row)}")
    return {name: value for name, value in zip(names, row, strict=True) if name in FIELDS}


def parse_csv(text: str, path: str) -> list[Transaction]:
    """Every transaction of CSV ``text``; ``path`` names the file in errors."""
    reader = csv.reader(io.StringIO(text))
    header = next(reader, None)
    if header is None:
        raise LedgerError(f"{path}: empty file (expected a header row)")
    names = _header(header, path)
    found = []
    for row in reader:
        if not any(cell.strip() for cell in row):
            continue
        where = f"{path}:{reader.line_num}"
        found.append(build_transaction(_row_fields(names, row, where), where))
    return found
