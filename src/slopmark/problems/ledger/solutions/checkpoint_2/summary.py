"""Per-account balances and per-category totals of a set of transactions."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from datetime import date
from decimal import Decimal

from transactions import Transaction


@dataclass(frozen=True)
class Line:
    """One row of a summary table: a name, how many transactions, their sum."""

    name: str
    count: int
    amount: Decimal


@dataclass(frozen=True)
class Summary:
    """Balances per account and totals per category, each sorted by name."""

    accounts: tuple[Line, ...]
    categories: tuple[Line, ...]


@dataclass(frozen=True)
class DateRange:
    """Inclusive bounds on a transaction's date; None leaves that side open."""

    start: date | None = None
    end: date | None = None

    def contains(self, day: date) -> bool:
        return (self.start is None or day >= self.start) and (self.end is None or day <= self.end)


def in_range(transactions: Iterable[Transaction], dates: DateRange) -> list[Transaction]:
    """The transactions dated within ``dates``."""
    return [txn for txn in transactions if dates.contains(txn.date)]


def _group(transactions: list[Transaction], key: Callable[[Transaction], str]) -> tuple[Line, ...]:
    groups: dict[str, list[Decimal]] = defaultdict(list)
    for txn in transactions:
        groups[key(txn)].append(txn.amount)
    return tuple(
        Line(name, len(groups[name]), sum(groups[name], Decimal("0"))) for name in sorted(groups)
    )


def summarize(transactions: list[Transaction]) -> Summary:
    """Group ``transactions`` by account and by category."""
    return Summary(
        accounts=_group(transactions, lambda txn: txn.account),
        categories=_group(transactions, lambda txn: txn.category),
    )
