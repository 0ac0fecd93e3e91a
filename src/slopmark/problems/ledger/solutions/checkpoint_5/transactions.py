"""The transaction record and the parsing of its fields."""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import date
from decimal import Decimal

from errors import LedgerError

UNCATEGORIZED = "uncategorized"
FIELDS = ("date", "account", "amount", "category", "memo")
REQUIRED_FIELDS = ("date", "account", "amount")

_AMOUNT = re.compile(r"[+-]?\d+(\.\d{1,2})?")
_ISO_DATE = re.compile(r"\d{4}-\d{2}-\d{2}")


@dataclass(frozen=True)
class Transaction:
    """One posting: money in (positive) or out (negative) of an account."""

    date: date
    account: str
    amount: Decimal
    category: str
    memo: str


def parse_amount(text: str, where: str) -> Decimal:
    """A signed decimal with at most two fraction digits, e.g. ``-12.5``."""
    cleaned = text.strip()
    if not _AMOUNT.fullmatch(cleaned):
        raise LedgerError(
            f"{where}: bad amount '{text}' (expected a number with at most 2 decimals)"
        )
    return Decimal(cleaned).quantize(Decimal("0.01"))


def parse_date(text: str, where: str) -> date:
    """A calendar date written YYYY-MM-DD."""
    cleaned = text.strip()
    try:
        if _ISO_DATE.fullmatch(cleaned):
            return date.fromisoformat(cleaned)
    except ValueError:
        pass
    raise LedgerError(f"{where}: bad date '{text}' (expected YYYY-MM-DD)")


def build_transaction(fields: dict[str, str], where: str) -> Transaction:
    """A transaction from raw text fields; ``where`` (FILE:LINE) prefixes errors."""
    for name in REQUIRED_FIELDS:
        if not fields.get(name, "").strip():
            raise LedgerError(f"{where}: missing {name}")
    return Transaction(
        date=parse_date(fields["date"], where),
        account=fields["account"].strip(),
        amount=parse_amount(fields["amount"], where),
        category=fields.get("category", "").strip() or UNCATEGORIZED,
        memo=fields.get("memo", "").strip(),
    )
