"""Conditions a record's fields must satisfy to be kept."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Protocol

from logq.errors import UsageError


class Condition(Protocol):
    """Anything that can decide whether a record's fields are kept."""

    def matches(self, fields: Mapping[str, str]) -> bool:
        """Return True when ``fields`` satisfy the condition."""
        ...


@dataclass(frozen=True)
class FieldEquals:
    """``--where KEY=VALUE``: the field exists and its text equals ``value`` exactly."""

    key: str
    value: str

    def matches(self, fields: Mapping[str, str]) -> bool:
        return fields.get(self.key) == self.value


@dataclass(frozen=True)
class AllOf:
    """True when every one of ``conditions`` is true (and when there are none)."""

    conditions: Sequence[Condition]

    def matches(self, fields: Mapping[str, str]) -> bool:
        return all(condition.matches(fields) for condition in self.conditions)


def parse_where(argument: str) -> FieldEquals:
    """Parse a ``--where KEY=VALUE`` argument, splitting at the first ``=``."""
    key, separator, value = argument.partition("=")
    if not separator or not key:
        raise UsageError(f"invalid --where {argument!r}: expected KEY=VALUE")
    return FieldEquals(key, value)
