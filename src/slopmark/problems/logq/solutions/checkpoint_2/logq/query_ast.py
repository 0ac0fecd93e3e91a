"""The nodes of a parsed query; each node decides whether a record's fields match."""

from __future__ import annotations

import operator
import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from decimal import Decimal
from enum import Enum

from logq.filters import Condition
from logq.values import parse_number, parse_timestamp


class ValueType(Enum):
    """How a comparison reads the field's text; decided by how the value is written."""

    STRING = "string"
    NUMBER = "number"
    TIMESTAMP = "timestamp"


Comparable = Decimal | str
_CONVERTERS: dict[ValueType, Callable[[str], Comparable | None]] = {
    ValueType.STRING: lambda text: text,
    ValueType.NUMBER: parse_number,
    ValueType.TIMESTAMP: parse_timestamp,
}
_ORDERINGS: dict[str, Callable[[Comparable, Comparable], bool]] = {
    "=": operator.eq, "!=": operator.ne,
    "<": operator.lt, "<=": operator.le, ">": operator.gt, ">=": operator.ge,
}


def typed_value(text: str, quoted: bool) -> tuple[ValueType, Comparable]:
    """Type a query value: quoted is a string, else number, timestamp, or string."""
    if quoted:
        return ValueType.STRING, text
    number = parse_number(text)
    if number is not None:
        return ValueType.NUMBER, number
    instant = parse_timestamp(text)
    if instant is not None:
        return ValueType.TIMESTAMP, instant
    return ValueType.STRING, text


@dataclass(frozen=True)
class Compare:
    """``FIELD OP VALUE`` with OP one of = != < <= > >=; false if missing or unconvertible."""

    field: str
    op: str
    value_type: ValueType
    value: Comparable

    def matches(self, fields: Mapping[str, str]) -> bool:
        text = fields.get(self.field)
        if text is None:
            return False
        converted = _CONVERTERS[self.value_type](text)
        if converted is None:
            return False
        return _ORDERINGS[self.op](converted, self.value)


@dataclass(frozen=True)
class Search:
    """``FIELD ~ PATTERN``: an unanchored regular-expression search of the field's text."""

    field: str
    pattern: re.Pattern[str]

    def matches(self, fields: Mapping[str, str]) -> bool:
        text = fields.get(self.field)
        return text is not None and self.pattern.search(text) is not None


@dataclass(frozen=True)
class And:
    """Both sides match."""

    left: Condition
    right: Condition

    def matches(self, fields: Mapping[str, str]) -> bool:
        return self.left.matches(fields) and self.right.matches(fields)


@dataclass(frozen=True)
class Or:
    """At least one side matches."""

    left: Condition
    right: Condition

    def matches(self, fields: Mapping[str, str]) -> bool:
        return self.left.matches(fields) or self.right.matches(fields)


@dataclass(frozen=True)
class Not:
    """The operand does not match."""

    operand: Condition

    def matches(self, fields: Mapping[str, str]) -> bool:
        return not self.operand.matches(fields)
