"""Building blocks of a json task's schema and invariants."""

from __future__ import annotations

from typing import Any

Record = dict[str, Any]
STR: Record = {"type": "string"}
INT: Record = {"type": "integer"}
NUM: Record = {"type": "number"}
BOOL: Record = {"type": "boolean"}
HHMM: Record = {"type": "string", "pattern": "^([01][0-9]|2[0-3]):[0-5][0-9]$"}
DAY: Record = {"type": "string", "format": "date"}
EMAIL: Record = {"type": "string", "format": "email"}


def obj(required: Record, optional: Record | None = None) -> Record:
    """A closed object schema: ``required`` keys must appear, ``optional`` ones may."""
    properties = {**required, **(optional or {})}
    closed = {"required": list(required), "additionalProperties": False}
    return {"type": "object", "properties": properties, **closed}


def arr(items: Record, least: int | None = None, **more: Any) -> Record:
    return {"type": "array", "items": items, **({"minItems": least} if least else {}), **more}


def eq(path: str, value: Any) -> Record:
    """Invariant: the value at ``path`` equals ``value``."""
    return {"compare": [path, "==", {"value": value}]}


def count(path: str, equals: int) -> Record:
    return {"count": path, "equals": equals}
