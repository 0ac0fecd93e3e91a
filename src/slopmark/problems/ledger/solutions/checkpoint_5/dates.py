"""Date ranges from the --from, --to and --month options."""

from __future__ import annotations

import calendar
import re
from datetime import date

from errors import LedgerError
from summary import DateRange
from transactions import parse_date

_MONTH = re.compile(r"(\d{4})-(\d{2})")


def month_range(text: str) -> DateRange:
    """The first to the last day of the month ``YYYY-MM``."""
    match = _MONTH.fullmatch(text.strip())
    if match is None or not 1 <= int(match.group(2)) <= 12:
        raise LedgerError(f"--month: bad month '{text}' (expected YYYY-MM)")
    year, month = int(match.group(1)), int(match.group(2))
    last_day = calendar.monthrange(year, month)[1]
    return DateRange(date(year, month, 1), date(year, month, last_day))


def option_range(start: str | None, end: str | None, month: str | None = None) -> DateRange:
    """The range named by --from/--to, or by --month (which excludes the other two)."""
    if month is not None:
        if start or end:
            raise LedgerError("--month cannot be combined with --from or --to")
        return month_range(month)
    first = parse_date(start, "--from") if start else None
    last = parse_date(end, "--to") if end else None
    if first and last and first > last:
        raise LedgerError(f"--from {first} is after --to {last}")
    return DateRange(first, last)
