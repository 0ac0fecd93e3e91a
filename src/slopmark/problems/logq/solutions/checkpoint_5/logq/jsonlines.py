"""Parse one JSON-lines record (a JSON object) into flat text fields.

Nested objects are flattened with ``.``; numbers keep their source text; ``null`` drops the
field; arrays become their compact JSON text.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

from logq.errors import MalformedLine

FORMAT_NAME = "json"


@dataclass(frozen=True)
class _RawNumber:
    """A JSON number exactly as written in the line (``1.50`` stays ``1.50``)."""

    text: str


def parse_json_line(line: str) -> dict[str, str]:
    """Return the fields of a JSON object line; raise :class:`MalformedLine` otherwise."""
    try:
        value = json.loads(
            line, parse_int=_RawNumber, parse_float=_RawNumber, parse_constant=_reject_constant
        )
    except ValueError as error:
        raise MalformedLine(FORMAT_NAME, f"invalid JSON: {error}") from error
    if not isinstance(value, dict):
        raise MalformedLine(FORMAT_NAME, "the line is not a JSON object")
    fields: dict[str, str] = {}
    _flatten("", value, fields)
    return fields


def _reject_constant(name: str) -> Any:
    raise ValueError(f"{name} is not valid JSON")


def _flatten(prefix: str, members: dict[str, Any], fields: dict[str, str]) -> None:
    for key, value in members.items():
        name = prefix + key
        if isinstance(value, dict):
            _flatten(name + ".", value, fields)
        elif value is not None:
            fields[name] = _field_text(value)


def _field_text(value: Any) -> str:
    if isinstance(value, str):
        return value
    return _compact(value)


def _compact(value: Any) -> str:
    """Compact JSON text (no spaces) with numbers written as in the source."""
    if isinstance(value, _RawNumber):
        return value.text
    if isinstance(value, list):
        return "[" + ",".join(_compact(item) for item in value) + "]"
    if isinstance(value, dict):
        members = (json.dumps(key) + ":" + _compact(item) for key, item in value.items())
        return "{" + ",".join(members) + "}"
    return json.dumps(value, ensure_ascii=False)
