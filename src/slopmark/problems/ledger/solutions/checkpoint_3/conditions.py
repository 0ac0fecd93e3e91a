"""Conditions that select the transactions a rule looks at."""

from __future__ import annotations

from dataclasses import dataclass
from fnmatch import fnmatchcase
from typing import Any

from errors import LedgerError
from transactions import Transaction

PATTERN_FIELDS = ("account", "category", "memo")


@dataclass(frozen=True)
class FieldPatterns:
    """Glob patterns on text fields, matched case-insensitively; all must match."""

    patterns: tuple[tuple[str, str], ...]

    def matches(self, txn: Transaction) -> bool:
        return all(
            fnmatchcase(getattr(txn, name).lower(), pattern.lower())
            for name, pattern in self.patterns
        )


def parse_condition(raw: Any, where: str) -> FieldPatterns:
    """A condition from the JSON value of a rule's ``when``."""
    if not isinstance(raw, dict):
        raise LedgerError(f"{where}: 'when' must be an object")
    unknown = sorted(set(raw) - set(PATTERN_FIELDS))
    if unknown:
        raise LedgerError(f"{where}: unknown condition key(s): {', '.join(unknown)}")
    for name, pattern in raw.items():
        if not isinstance(pattern, str):
            raise LedgerError(f"{where}: condition '{name}' must be a string pattern")
    return FieldPatterns(tuple(sorted(raw.items())))
