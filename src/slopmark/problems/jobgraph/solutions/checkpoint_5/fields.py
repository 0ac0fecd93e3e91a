"""Job fields: how each key is read from the text format and from JSON.

Adding a field means one converter pair and one entry in `FIELDS`; both loaders
pick it up. Converters raise ValueError with a message that names the problem.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from dataclasses import dataclass

from model import FAIL, OK

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


def _outcomes_from_text(text: str) -> tuple[str, ...]:
    if not text.strip():
        return ()
    return _check_outcomes([part.strip() for part in text.split(",")])


def _outcomes_from_json(value: object) -> tuple[str, ...]:
    if not isinstance(value, list) or not all(isinstance(item, str) for item in value):
        raise ValueError('must be a list of "ok" / "fail" strings')
    return _check_outcomes(value)


def _check_outcomes(items: list[str]) -> tuple[str, ...]:
    for item in items:
        if item not in (OK, FAIL):
            raise ValueError(f"unknown outcome {item!r}; use 'ok' or 'fail'")
    return tuple(items)


def _int_from_text(text: str) -> int:
    try:
        return int(text)
    except ValueError:
        raise ValueError(f"expected an integer, got {text!r}") from None


def _int_from_json(value: object) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise ValueError(f"expected an integer, got {json.dumps(value)}")
    return value


def _positive_seconds(value: float) -> float:
    if not value > 0 or value == float("inf"):
        raise ValueError(f"must be a positive number of seconds, got {value}")
    return value


def _seconds_from_text(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        raise ValueError(f"expected a number of seconds, got {text!r}") from None
    return _positive_seconds(value)


def _seconds_from_json(value: object) -> float:
    if isinstance(value, bool) or not isinstance(value, int | float):
        raise ValueError(f"expected a number of seconds, got {json.dumps(value)}")
    return _positive_seconds(float(value))


def _command_from_text(text: str) -> str:
    if not text:
        raise ValueError("must not be empty")
    return text


def _command_from_json(value: object) -> str:
    if not isinstance(value, str) or not value.strip():
        raise ValueError("must be a non-empty string")
    return value


@dataclass(frozen=True)
class Field:
    """How one job key is converted from text and from JSON."""

    from_text: Callable[[str], object]
    from_json: Callable[[object], object]


def _int_field(minimum: int | None = None) -> Field:
    """A field holding an integer, optionally with a lower bound."""

    def check(value: int) -> int:
        if minimum is not None and value < minimum:
            raise ValueError(f"must be at least {minimum}, got {value}")
        return value

    return Field(
        from_text=lambda text: check(_int_from_text(text)),
        from_json=lambda value: check(_int_from_json(value)),
    )


FIELDS: dict[str, Field] = {
    "deps": Field(_ids_from_text, _ids_from_json),
    "duration": _int_field(minimum=1),
    "priority": _int_field(),
    "outcomes": Field(_outcomes_from_text, _outcomes_from_json),
    "retries": _int_field(minimum=0),
    "backoff": _int_field(minimum=0),
    "cmd": Field(_command_from_text, _command_from_json),
    "timeout": Field(_seconds_from_text, _seconds_from_json),
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
