"""Typed views of field text: numbers and timestamps (as Unix seconds)."""

from __future__ import annotations

import calendar
import re
from datetime import datetime
from decimal import Decimal

_NUMBER = re.compile(r"-?[0-9]+(?:\.[0-9]+)?")
_TIMESTAMP = re.compile(
    r"(?P<date>[0-9]{4}-[0-9]{2}-[0-9]{2})"
    r"(?:T(?P<time>[0-9]{2}:[0-9]{2}:[0-9]{2})(?:\.(?P<fraction>[0-9]+))?"
    r"(?P<offset>Z|[+-][0-9]{2}:[0-9]{2})?)?"
)


def parse_number(text: str) -> Decimal | None:
    """Return ``text`` as an exact decimal if it is ``-?digits[.digits]``, else None."""
    if _NUMBER.fullmatch(text) is None:
        return None
    return Decimal(text)


def parse_timestamp(text: str) -> Decimal | None:
    """Return the instant ``text`` names as Unix seconds, or None if it is no timestamp.

    Accepted: ``YYYY-MM-DD`` or ``YYYY-MM-DDTHH:MM:SS[.fraction][Z|+HH:MM|-HH:MM]``;
    no offset means UTC.
    """
    match = _TIMESTAMP.fullmatch(text)
    if match is None:
        return None
    try:
        moment = datetime.fromisoformat(f"{match['date']}T{match['time'] or '00:00:00'}")
    except ValueError:
        return None
    offset = _offset_seconds(match["offset"])
    if offset is None:
        return None
    seconds = calendar.timegm(moment.timetuple()) - offset
    return Decimal(seconds) + Decimal(f"0.{match['fraction'] or '0'}")


def _offset_seconds(offset: str | None) -> int | None:
    if offset is None or offset == "Z":
        return 0
    hours, minutes = int(offset[1:3]), int(offset[4:6])
    if hours > 23 or minutes > 59:
        return None
    sign = -1 if offset[0] == "-" else 1
    return sign * (hours * 3600 + minutes * 60)
