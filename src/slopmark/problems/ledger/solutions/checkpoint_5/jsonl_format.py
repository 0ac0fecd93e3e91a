"""The JSON-lines input format: one JSON object per non-blank line."""

from __future__ import annotations

import json
from typing import Any

from errors import LedgerError
from transactions import FIELDS, Transaction, build_transaction


class _Number:
    """A JSON number kept as its literal text, so '12.345' stays an error."""

    def __init__(self, literal: str) -> None:
        self.literal = literal


def _text_field(record: dict[str, Any], name: str, where: str) -> str:
    value = record.get(name)
    if value is None:
        return ""
    if isinstance(value, str):
        return value
    raise LedgerError(f"{where}: '{name}' must be a string")


def _amount_field(record: dict[str, Any], where: str) -> str:
    value = record.get("amount")
    if isinstance(value, _Number):
        return value.literal
    return _text_field(record, "amount", where)


def _record(line: str, where: str) -> dict[str, Any]:
    try:
        record = json.loads(line, parse_float=_Number, parse_int=_Number)
    except json.JSONDecodeError as error:
        raise LedgerError(f"{where}: not valid JSON ({error.msg})") from None
    if not isinstance(record, dict):
        raise LedgerError(f"{where}: expected a JSON object")
    return record


def _fields(record: dict[str, Any], where: str) -> dict[str, str]:
    fields = {name: _text_field(record, name, where) for name in FIELDS if name != "amount"}
    fields["amount"] = _amount_field(record, where)
    return fields


def parse_jsonl(text: str, path: str) -> list[Transaction]:
    """Every transaction of JSON-lines ``text``; ``path`` names the file in errors."""
    found = []
    for number, line in enumerate(text.splitlines(), start=1):
        if not line.strip():
            continue
        where = f"{path}:{number}"
        found.append(build_transaction(_fields(_record(line, where), where), where))
    return found
