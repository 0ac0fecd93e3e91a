"""Conditions that select the transactions a rule looks at.

A condition is a leaf (glob patterns on text fields, bounds on the amount) or a
composition: ``{"all": [...]}``, ``{"any": [...]}``, ``{"not": ...}``, or
``{"ref": NAME}`` naming an entry of the rules file's ``conditions``.
"""

from __future__ import annotations

from dataclasses import dataclass
from decimal import Decimal
from fnmatch import fnmatchcase
from typing import Any, Protocol

from errors import LedgerError
from transactions import Transaction, parse_amount

PATTERN_FIELDS = ("account", "category", "memo")
AMOUNT_BOUNDS = ("min_amount", "max_amount")
COMPOSITES = ("all", "any", "not", "ref")


class Condition(Protocol):
    def matches(self, txn: Transaction) -> bool: ...


@dataclass(frozen=True)
class Leaf:
    """Case-insensitive glob patterns on text fields and inclusive amount bounds; all must hold."""

    patterns: tuple[tuple[str, str], ...] = ()
    min_amount: Decimal | None = None
    max_amount: Decimal | None = None

    def matches(self, txn: Transaction) -> bool:
        if self.min_amount is not None and txn.amount < self.min_amount:
            return False
        if self.max_amount is not None and txn.amount > self.max_amount:
            return False
        return all(
            fnmatchcase(getattr(txn, name).lower(), pattern.lower())
            for name, pattern in self.patterns
        )


@dataclass(frozen=True)
class AllOf:
    parts: tuple[Condition, ...]

    def matches(self, txn: Transaction) -> bool:
        return all(part.matches(txn) for part in self.parts)


@dataclass(frozen=True)
class AnyOf:
    parts: tuple[Condition, ...]

    def matches(self, txn: Transaction) -> bool:
        return any(part.matches(txn) for part in self.parts)


@dataclass(frozen=True)
class Not:
    part: Condition

    def matches(self, txn: Transaction) -> bool:
        return not self.part.matches(txn)


def _bound(raw: dict[str, Any], key: str, where: str) -> Decimal | None:
    value = raw.get(key)
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, str | int | Decimal):
        raise LedgerError(f"{where}: '{key}' must be an amount")
    return parse_amount(str(value), f"{where}: '{key}'")


def parse_leaf(raw: dict[str, Any], where: str) -> Leaf:
    """Field patterns and amount bounds; unknown keys are errors."""
    unknown = sorted(set(raw) - set(PATTERN_FIELDS) - set(AMOUNT_BOUNDS))
    if unknown:
        raise LedgerError(f"{where}: unknown condition key(s): {', '.join(unknown)}")
    patterns = {name: raw[name] for name in PATTERN_FIELDS if name in raw}
    for name, pattern in patterns.items():
        if not isinstance(pattern, str):
            raise LedgerError(f"{where}: condition '{name}' must be a string pattern")
    return Leaf(
        patterns=tuple(sorted(patterns.items())),
        min_amount=_bound(raw, "min_amount", where),
        max_amount=_bound(raw, "max_amount", where),
    )


class ConditionParser:
    """Parses conditions, resolving ``ref`` to the named conditions (no cycles)."""

    def __init__(self, named: dict[str, Any], where: str) -> None:
        self._raw = named
        self._where = where
        self._resolved: dict[str, Condition] = {}
        self._resolving: list[str] = []

    def parse_named(self) -> None:
        """Parse every named condition, so a bad one is reported even if unused."""
        for name in self._raw:
            self.resolve(name, self._where)

    def resolve(self, name: Any, where: str) -> Condition:
        """The named condition ``name``; an unknown or cyclic name is an error."""
        if not isinstance(name, str) or name not in self._raw:
            raise LedgerError(f"{where}: unknown condition {name!r} in 'ref'")
        if name in self._resolving:
            cycle = " -> ".join([*self._resolving[self._resolving.index(name):], name])
            raise LedgerError(f"{self._where}: conditions refer to each other: {cycle}")
        if name not in self._resolved:
            self._resolving.append(name)
            self._resolved[name] = self.parse(self._raw[name], f"{self._where}: condition '{name}'")
            self._resolving.pop()
        return self._resolved[name]

    def parse(self, raw: Any, where: str) -> Condition:
        """A condition from its JSON value; ``where`` names it in errors."""
        if not isinstance(raw, dict):
            raise LedgerError(f"{where}: a condition must be an object")
        composite = [key for key in COMPOSITES if key in raw]
        if not composite:
            return parse_leaf(raw, where)
        if len(raw) != 1:
            keys = ", ".join(sorted(raw))
            raise LedgerError(f"{where}: '{composite[0]}' cannot be combined with ({keys})")
        return self._composite(composite[0], raw[composite[0]], where)

    def _composite(self, key: str, value: Any, where: str) -> Condition:
        if key == "ref":
            return self.resolve(value, where)
        if key == "not":
            return Not(self.parse(value, where))
        if not isinstance(value, list):
            raise LedgerError(f"{where}: '{key}' must be a list of conditions")
        parts = tuple(self.parse(item, where) for item in value)
        return AllOf(parts) if key == "all" else AnyOf(parts)
