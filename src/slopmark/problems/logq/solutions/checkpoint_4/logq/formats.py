"""The line formats logq reads, and per-line detection for ``--input-format auto``."""

from __future__ import annotations

from logq.accesslog import parse_access_line
from logq.errors import MalformedLine
from logq.jsonlines import parse_json_line
from logq.logfmt import parse_logfmt
from logq.reader import LineParser

AUTO = "auto"


def parse_detected(line: str) -> dict[str, str]:
    """Parse ``line`` as JSON if it starts with ``{``, else access log if it fits, else logfmt."""
    if line.lstrip().startswith("{"):
        return parse_json_line(line)
    try:
        return parse_access_line(line)
    except MalformedLine:
        return parse_logfmt(line)


PARSERS: dict[str, LineParser] = {
    AUTO: parse_detected,
    "logfmt": parse_logfmt,
    "json": parse_json_line,
    "access": parse_access_line,
}
