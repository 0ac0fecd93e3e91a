"""Time buckets for ``--bucket``: durations like ``5m`` and epoch-aligned bucket labels."""

from __future__ import annotations

import math
import re
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta

from logq.errors import UsageError
from logq.records import Record
from logq.timeline import record_time

COLUMN = "bucket"
_DURATION = re.compile(r"([0-9]+)([smhd])")
_UNIT_SECONDS = {"s": 1, "m": 60, "h": 3600, "d": 86400}
_EPOCH = datetime(1970, 1, 1, tzinfo=UTC)


def parse_duration(text: str) -> int:
    """``30s``, ``5m``, ``1h``, ``1d`` → seconds; raise :class:`UsageError` for anything else."""
    match = _DURATION.fullmatch(text)
    if match is None or int(match[1]) == 0:
        raise UsageError(f"invalid --bucket {text!r}: expected a positive integer and s, m, h or d")
    return int(match[1]) * _UNIT_SECONDS[match[2]]


@dataclass(frozen=True)
class Bucketing:
    """Assigns each record to the epoch-aligned bucket of ``seconds`` holding its time."""

    seconds: int
    time_field: str | None

    def label(self, record: Record) -> str | None:
        """The bucket start as ``YYYY-MM-DDTHH:MM:SSZ``, or None if the record has no time."""
        moment = record_time(record.fields, self.time_field)
        if moment is None:
            return None
        start = math.floor(moment / self.seconds) * self.seconds
        try:
            bucket_start = _EPOCH + timedelta(seconds=start)
        except OverflowError:
            return None
        return bucket_start.replace(tzinfo=None).isoformat(timespec="seconds") + "Z"
