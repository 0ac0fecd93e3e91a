"""A QIF-like input format: '!Account NAME' headers, one-letter fields, '^' ends a record.

```
!Account checking
D2024-01-05        date (YYYY-MM-DD or MM/DD/YYYY)
T-1,045.20         amount (commas are thousands separators)
Lfood              category
MGroceries         memo
^
```
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from errors import LedgerError
from transactions import Transaction, build_transaction

_CODES = {"D": "date", "T": "amount", "L": "category", "M": "memo"}
_US_DATE = re.compile(r"(\d{2})/(\d{2})/(\d{4})")


@dataclass
class _Record:
    """The fields of the record being read, and the line it started on."""

    first_line: int = 0
    fields: dict[str, str] = field(default_factory=dict)


def _iso_date(text: str) -> str:
    match = _US_DATE.fullmatch(text.strip())
    if match is None:
        return text
    month, day, year = match.groups()
    return f"{year}-{month}-{day}"


def _finish(record: _Record, account: str | None, where: str) -> Transaction:
    if account is None:
        raise LedgerError(f"{where}: record before any '!Account' line")
    fields = dict(record.fields, account=account)
    fields["date"] = _iso_date(fields.get("date", ""))
    fields["amount"] = fields.get("amount", "").replace(",", "")
    return build_transaction(fields, where)


def _add_field(record: _Record, line: str, number: int, where: str) -> None:
    name = _CODES.get(line[0])
    if name is None:
        return
    if name in record.fields:
        raise LedgerError(f"{where}: field '{line[0]}' repeats within one record")
    if not record.fields:
        record.first_line = number
    record.fields[name] = line[1:]


def _account_name(line: str, where: str) -> str:
    name = line[len("!account"):].strip()
    if not name:
        raise LedgerError(f"{where}: '!Account' needs a name")
    return name


def parse_qif(text: str, path: str) -> list[Transaction]:
    """Every transaction of QIF-like ``text``; ``path`` names the file in errors."""
    found: list[Transaction] = []
    account: str | None = None
    record = _Record()
    for number, raw in enumerate(text.splitlines(), start=1):
        line, where = raw.strip(), f"{path}:{number}"
        if line.lower().startswith("!account"):
            account = _account_name(line, where)
        elif line == "^" and record.fields:
            found.append(_finish(record, account, where))
            record = _Record()
        elif line and line[0] not in "!^":
            _add_field(record, line, number, where)
    if record.fields:
        raise LedgerError(f"{path}:{record.first_line}: record not terminated by '^'")
    return found
