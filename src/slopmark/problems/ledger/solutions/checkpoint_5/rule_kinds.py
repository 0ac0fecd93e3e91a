"""The kinds of budget rule: what each checks and the alerts it raises."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass
from datetime import date
from decimal import Decimal
from typing import Any, Protocol

from errors import LedgerError
from render import money
from transactions import Transaction, parse_amount

_PERIODS = ("month", "year")


@dataclass(frozen=True)
class Finding:
    """Something a rule kind reports: when, and what."""

    period: str
    message: str


class RuleKind(Protocol):
    """What a kind checks over the transactions its rule selected."""

    def findings(self, transactions: list[Transaction]) -> Iterable[Finding]: ...


def positive_amount(raw: dict[str, Any], key: str, where: str) -> Decimal:
    """A required amount option (string or number) greater than zero."""
    if key not in raw:
        raise LedgerError(f"{where}: missing '{key}'")
    value = raw[key]
    if isinstance(value, bool) or not isinstance(value, str | int | Decimal):
        raise LedgerError(f"{where}: '{key}' must be an amount")
    amount = parse_amount(str(value), f"{where}: '{key}'")
    if amount <= 0:
        raise LedgerError(f"{where}: '{key}' must be greater than 0, got {value}")
    return amount


def choice(raw: dict[str, Any], key: str, allowed: tuple[str, ...], where: str) -> str:
    """An option among ``allowed``, the first being the default."""
    value = raw.get(key, allowed[0])
    if value not in allowed:
        raise LedgerError(f"{where}: '{key}' must be one of {', '.join(allowed)}, got {value!r}")
    return str(value)


def spent(transactions: Iterable[Transaction]) -> Decimal:
    """Net money out: the negated sum of the amounts."""
    return -sum((txn.amount for txn in transactions), Decimal("0"))


@dataclass(frozen=True)
class Limit:
    """Net spending per calendar month (or year) must not exceed ``limit``."""

    limit: Decimal
    period: str

    def _period_of(self, txn: Transaction) -> str:
        return txn.date.strftime("%Y-%m" if self.period == "month" else "%Y")

    def findings(self, transactions: list[Transaction]) -> Iterable[Finding]:
        by_period: dict[str, list[Transaction]] = {}
        for txn in transactions:
            by_period.setdefault(self._period_of(txn), []).append(txn)
        for period, group in by_period.items():
            total = spent(group)
            if total > self.limit:
                over = money(total - self.limit)
                message = f"spent {money(total)} of {money(self.limit)} (over by {over})"
                yield Finding(period, message)


def parse_limit(raw: dict[str, Any], where: str) -> Limit:
    return Limit(positive_amount(raw, "limit", where), choice(raw, "period", _PERIODS, where))


@dataclass(frozen=True)
class Large:
    """Every single transaction spending at least ``threshold``."""

    threshold: Decimal

    def findings(self, transactions: list[Transaction]) -> Iterable[Finding]:
        for txn in transactions:
            if -txn.amount >= self.threshold:
                memo = f" ({txn.memo})" if txn.memo else ""
                message = f"large spend {money(-txn.amount)} on {txn.account}{memo}"
                yield Finding(txn.date.isoformat(), message)


def parse_large(raw: dict[str, Any], where: str) -> Large:
    return Large(positive_amount(raw, "threshold", where))



def _month_index(day: date) -> int:
    return day.year * 12 + day.month - 1


def _month_label(index: int) -> str:
    return f"{index // 12:04d}-{index % 12 + 1:02d}"


def month_runs(months: set[int], shortest: int) -> list[tuple[int, int]]:
    """Maximal runs (first, last) of consecutive month indexes at least ``shortest`` long."""
    runs: list[tuple[int, int]] = []
    for first in sorted(months):
        if first - 1 in months:
            continue
        last = first
        while last + 1 in months:
            last += 1
        if last - first + 1 >= shortest:
            runs.append((first, last))
    return runs


def _recurring_key(txn: Transaction) -> tuple[str, str, Decimal]:
    return (txn.account, " ".join(txn.memo.lower().split()), txn.amount)


@dataclass(frozen=True)
class Recurring:
    """The same charge (account, memo, amount) in ``min_months`` consecutive months or more."""

    min_months: int

    def findings(self, transactions: list[Transaction]) -> Iterable[Finding]:
        months: dict[tuple[str, str, Decimal], set[int]] = {}
        for txn in transactions:
            if txn.amount < 0:
                months.setdefault(_recurring_key(txn), set()).add(_month_index(txn.date))
        for (account, memo, amount), seen in months.items():
            for first, last in month_runs(seen, self.min_months):
                period = f"{_month_label(first)}..{_month_label(last)}"
                about = f" ({memo})" if memo else ""
                count = last - first + 1
                message = f"recurring {money(-amount)} on {account}{about} for {count} months"
                yield Finding(period, message)


def parse_recurring(raw: dict[str, Any], where: str) -> Recurring:
    value = raw.get("min_months", 3)
    if isinstance(value, bool) or not isinstance(value, int) or value < 2:
        raise LedgerError(f"{where}: 'min_months' must be an integer of at least 2, got {value!r}")
    return Recurring(value)


@dataclass(frozen=True)
class KindSpec:
    """How to read one kind from a rule object, and which keys it adds."""

    parse: Callable[[dict[str, Any], str], RuleKind]
    keys: frozenset[str]


KINDS: dict[str, KindSpec] = {
    "limit": KindSpec(parse_limit, frozenset({"limit", "period"})),
    "large": KindSpec(parse_large, frozenset({"threshold"})),
    "recurring": KindSpec(parse_recurring, frozenset({"min_months"})),
}
