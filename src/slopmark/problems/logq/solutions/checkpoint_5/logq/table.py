"""The result of an aggregation: named columns and rows of cells."""

from __future__ import annotations

from dataclasses import dataclass
from decimal import Decimal

Cell = str | Decimal | None


@dataclass(frozen=True)
class Column:
    """A result column; group columns hold text, the others hold numbers."""

    name: str
    is_group: bool


@dataclass(frozen=True)
class Table:
    """Columns in display order and one tuple of cells per row."""

    columns: tuple[Column, ...]
    rows: tuple[tuple[Cell, ...], ...]
