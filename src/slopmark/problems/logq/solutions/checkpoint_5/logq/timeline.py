"""A record's point in time, and merging several inputs into one time-ordered stream."""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping
from decimal import Decimal

from logq.records import Record
from logq.values import parse_number, parse_timestamp

DEFAULT_TIME_FIELDS = ("time", "ts", "timestamp")
# Unix seconds of 0001-01-01T00:00:00Z and 10000-01-01T00:00:00Z: the range we can print.
_EARLIEST = Decimal(-62135596800)
_END = Decimal(253402300800)


def record_time(fields: Mapping[str, str], time_field: str | None) -> Decimal | None:
    """Unix seconds of the record's time field (a timestamp or a number), or None.

    Without ``time_field`` the first present of ``time``, ``ts``, ``timestamp`` is used.
    """
    text = _time_text(fields, time_field)
    if text is None:
        return None
    seconds = parse_timestamp(text)
    if seconds is None:
        seconds = parse_number(text)
    if seconds is None or not _EARLIEST <= seconds < _END:
        return None
    return seconds


def _time_text(fields: Mapping[str, str], time_field: str | None) -> str | None:
    if time_field is not None:
        return fields.get(time_field)
    return next((fields[name] for name in DEFAULT_TIME_FIELDS if name in fields), None)


def merge_by_time(streams: Iterable[Iterable[Record]], time_field: str | None) -> list[Record]:
    """Order the records of all streams by time, keeping input order on ties.

    A record without a time takes the time of the nearest earlier timed record of its own
    stream; records before the first timed one sort before every timed record.
    """
    timed = [pair for stream in streams for pair in _inherit_times(stream, time_field)]
    timed.sort(key=lambda pair: (pair[0] is not None, pair[0] or Decimal(0)))
    return [record for _, record in timed]


def _inherit_times(
    stream: Iterable[Record], time_field: str | None
) -> Iterator[tuple[Decimal | None, Record]]:
    current: Decimal | None = None
    for record in stream:
        own = record_time(record.fields, time_field)
        if own is not None:
            current = own
        yield current, record
