"""Parse one Apache/nginx access-log line (common or combined format) into fields."""

from __future__ import annotations

import re
from datetime import datetime

from logq.errors import MalformedLine

FORMAT_NAME = "access"
_QUOTED = r'"((?:[^"\\]|\\.)*)"'
_LINE = re.compile(
    r"(\S+) (\S+) (\S+) \[([^\]]*)\] " + _QUOTED + r" ([0-9]{3}) ([0-9]+|-)"
    r"(?: " + _QUOTED + " " + _QUOTED + r")?[ \t]*"
)
_TIME = re.compile(
    r"([0-9]{2})/([A-Z][a-z]{2})/([0-9]{4})"
    r":([0-9]{2}):([0-9]{2}):([0-9]{2}) ([+-])([0-9]{2})([0-9]{2})"
)
_MONTHS = ("Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec")
_UNESCAPE = re.compile(r'\\(["\\])')
_ABSENT = "-"


def parse_access_line(line: str) -> dict[str, str]:
    """Return the fields of an access-log line; raise :class:`MalformedLine` otherwise."""
    match = _LINE.fullmatch(line)
    if match is None:
        raise MalformedLine(FORMAT_NAME, "the line does not have the access-log layout")
    host, _ident, user, time, request, status, size, referer, agent = match.groups()
    parts = {
        "remote_addr": host, "user": user, "time": _timestamp(time),
        "request": _unescape(request), "status": status, "bytes": size,
        "referer": _unescape(referer), "user_agent": _unescape(agent),
    }
    parts.update(_request_parts(parts["request"]))
    return {name: text for name, text in parts.items() if text is not None and text != _ABSENT}


def _unescape(text: str | None) -> str | None:
    return None if text is None else _UNESCAPE.sub(r"\1", text)


def _request_parts(request: str | None) -> dict[str, str]:
    words = (request or "").split(" ")
    if len(words) != 3 or "" in words:
        return {}
    return dict(zip(("method", "path", "protocol"), words, strict=True))


def _timestamp(text: str) -> str:
    """``10/Oct/2000:13:55:36 -0700`` → ``2000-10-10T13:55:36-07:00`` (validated)."""
    match = _TIME.fullmatch(text)
    if match is None or match[2] not in _MONTHS:
        raise MalformedLine(FORMAT_NAME, f"invalid time {text!r}")
    day, month, year, hour, minute, second, sign, offset_h, offset_m = match.groups()
    try:
        moment = datetime(
            int(year), _MONTHS.index(month) + 1, int(day), int(hour), int(minute), int(second)
        )
    except ValueError as error:
        raise MalformedLine(FORMAT_NAME, f"invalid time {text!r}: {error}") from error
    if int(offset_h) > 23 or int(offset_m) > 59:
        raise MalformedLine(FORMAT_NAME, f"invalid time offset in {text!r}")
    return f"{moment.isoformat()}{sign}{offset_h}:{offset_m}"
