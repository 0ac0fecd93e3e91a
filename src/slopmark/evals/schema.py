"""The JSON Schema (draft 2020-12) every task record must satisfy."""

from __future__ import annotations

from typing import Any

from slopmark.evals.task import DIFFICULTIES, DOMAINS, SOURCES

TASK_SCHEMA: dict[str, Any] = {
    "$schema": "https://json-schema.org/draft/2020-12/schema",
    "type": "object",
    "required": ["id", "domain", "verifier"],
    "additionalProperties": False,
    "properties": {
        "id": {"type": "string", "pattern": "^[A-Za-z0-9][A-Za-z0-9._:-]*$"},
        "domain": {"enum": list(DOMAINS)},
        "prompt": {"type": "string", "minLength": 1},
        "turns": {"type": "array", "items": {"type": "string", "minLength": 1}, "minItems": 1},
        "system": {"type": ["string", "null"]},
        "verifier": {
            "type": "object",
            "required": ["type"],
            "properties": {"type": {"type": "string"}},
        },
        "source": {"enum": list(SOURCES)},
        "difficulty": {"enum": list(DIFFICULTIES)},
        "approved": {"type": "boolean"},
        "template_id": {"type": ["string", "null"]},
        "variant": {"type": ["integer", "null"], "minimum": 0},
        "tags": {"type": "array", "items": {"type": "string"}},
    },
    "oneOf": [{"required": ["prompt"]}, {"required": ["turns"]}],
}
