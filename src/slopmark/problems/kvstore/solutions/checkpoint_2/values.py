"""Typed values: parsing them from text, printing them, and their JSON form."""

from __future__ import annotations

import json
import math
import re
from dataclasses import dataclass
from typing import Any

from errors import UsageError

TYPE_NAMES = ("string", "int", "float", "list")
Payload = str | int | float | tuple[str, ...]

_INT_PATTERN = re.compile(r"[+-]?[0-9]+")


@dataclass(frozen=True)
class Value:
    """A stored value: its type name and its Python payload (lists are tuples)."""

    kind: str
    payload: Payload

    def render(self) -> str:
        """The value as ``get`` prints it."""
        if isinstance(self.payload, tuple):
            return json.dumps(list(self.payload), ensure_ascii=False)
        if isinstance(self.payload, float):
            return repr(self.payload)
        return str(self.payload)

    def to_json(self) -> Any:
        """The payload as a JSON-ready object."""
        return list(self.payload) if isinstance(self.payload, tuple) else self.payload


def parse_int(text: str) -> int:
    """Read ``text`` as an int (optional sign, ASCII digits) or raise UsageError."""
    if not _INT_PATTERN.fullmatch(text):
        raise UsageError(f"invalid int value: {text!r}")
    return int(text)


def parse_float(text: str) -> float:
    """Read ``text`` as a finite float or raise UsageError."""
    try:
        number = float(text)
    except ValueError:
        number = math.nan
    if not math.isfinite(number):
        raise UsageError(f"invalid float value: {text!r}")
    return number


def parse_number(text: str) -> int | float:
    """Read ``text`` as an int if it has int syntax, else as a float."""
    return int(text) if _INT_PATTERN.fullmatch(text) else parse_float(text)


def parse_list(text: str) -> tuple[str, ...]:
    """Read ``text`` as a JSON array of strings or raise UsageError."""
    try:
        items = json.loads(text)
    except json.JSONDecodeError:
        items = None
    if not is_string_list(items):
        raise UsageError(f"invalid list value (need a JSON array of strings): {text!r}")
    return tuple(items)


def parse_value(text: str, kind: str) -> Value:
    """Read the command-line ``text`` as a value of type ``kind``."""
    if kind == "string":
        return Value("string", text)
    if kind == "int":
        return Value("int", parse_int(text))
    if kind == "float":
        return Value("float", parse_float(text))
    if kind == "list":
        return Value("list", parse_list(text))
    raise UsageError(f"unknown type: {kind!r} (use one of {', '.join(TYPE_NAMES)})")


def number_value(number: int | float) -> Value:
    """Wrap a Python number as an int or float value."""
    return Value("float", number) if isinstance(number, float) else Value("int", number)


def is_string_list(items: object) -> bool:
    """True if ``items`` is a list whose elements are all strings."""
    return isinstance(items, list) and all(isinstance(item, str) for item in items)
