"""Job fields: how each key is read from the text format and from JSON.

Adding a field means one converter pair and one entry in `FIELDS`; both loaders
pick it up. Converters raise ValueError with a message that names the problem.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass

_JOB_ID = re.compile(r"[A-Za-z0-9_.-]+\Z")


def check_job_id(value: str) -> str:
    """Return `value` if it is a valid job id, else raise ValueError."""
    if not _JOB_ID.match(value):
        raise ValueError(f"invalid job id {value!r} (use letters, digits, '_', '.', '-')")
    return value


def _ids_from_text(text: str) -> tuple[str, ...]:
    parts = [part.strip() for part in text.split(",")]
    if parts == [""]:
        return ()
    return tuple(dict.fromkeys(check_job_id(part) for part in parts))


def _ids_from_json(value: object) -> tuple[str, ...]:
    if not isinstance(value, list) or not all(isinstance(item, str) for item in value):
        raise ValueError("must be a list of job ids")
    return tuple(dict.fromkeys(check_job_id(item) for item in value))


@dataclass(frozen=True)
class Field:
    """How one job key is converted from text and from JSON."""

    from_text: Callable[[str], object]
    from_json: Callable[[object], object]


FIELDS: dict[str, Field] = {
    "deps": Field(_ids_from_text, _ids_from_json),
}


def _lookup(key: str) -> Field:
    field = FIELDS.get(key)
    if field is None:
        raise ValueError(f"unknown key {key!r} (known: {', '.join(sorted(FIELDS))})")
    return field


def value_from_text(key: str, text: str) -> object:
    """Convert the text-format value of field `key`; raise ValueError naming the field."""
    field = _lookup(key)
    try:
        return field.from_text(text)
    except ValueError as error:
        raise ValueError(f"{key}: {error}") from None


def value_from_json(key: str, value: object) -> object:
    """Convert the JSON value of field `key`; raise ValueError naming the field."""
    field = _lookup(key)
    try:
        return field.from_json(value)
    except ValueError as error:
        raise ValueError(f"{key}: {error}") from None
