"""Reading and writing the JSON store file."""

from __future__ import annotations

import json
import math
from pathlib import Path
from typing import Any

from errors import StoreFileError
from values import Value, is_string_list

FORMAT_VERSION = 1
Entries = dict[str, Value]


def load_store(path: Path) -> Entries:
    """Return the entries held in ``path``; a missing or empty file is an empty store."""
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        return {}
    except (OSError, UnicodeDecodeError) as exc:
        raise StoreFileError(f"cannot read store {path}: {exc}") from exc
    if not text:
        return {}
    return _decode(path, text)


def save_store(path: Path, entries: Entries) -> None:
    """Write ``entries`` to ``path`` in the store format."""
    document = {
        "kvstore": FORMAT_VERSION,
        "keys": {key: {"type": v.kind, "value": v.to_json()} for key, v in entries.items()},
    }
    try:
        path.write_text(json.dumps(document, ensure_ascii=False), encoding="utf-8")
    except OSError as exc:
        raise StoreFileError(f"cannot write store {path}: {exc}") from exc


def _decode(path: Path, text: str) -> Entries:
    try:
        document = json.loads(text)
    except json.JSONDecodeError as exc:
        raise StoreFileError(f"corrupt store {path}: not valid JSON") from exc
    if not isinstance(document, dict) or document.get("kvstore") != FORMAT_VERSION:
        raise StoreFileError(f"corrupt store {path}: expected \"kvstore\": {FORMAT_VERSION}")
    keys = document.get("keys")
    if not isinstance(keys, dict):
        raise StoreFileError(f"corrupt store {path}: \"keys\" must be an object")
    entries: Entries = {}
    for key, entry in keys.items():
        value = _decode_entry(entry)
        if value is None:
            raise StoreFileError(f"corrupt store {path}: entry {key!r} is malformed")
        entries[key] = value
    return entries


def _decode_entry(entry: Any) -> Value | None:
    if not isinstance(entry, dict):
        return None
    kind: Any = entry.get("type", "string")
    payload: Any = entry.get("value")
    if kind == "string" and isinstance(payload, str):
        return Value("string", payload)
    if kind == "list" and is_string_list(payload):
        return Value("list", tuple(payload))
    if isinstance(payload, bool) or not isinstance(payload, int | float):
        return None
    if kind == "int" and isinstance(payload, int):
        return Value("int", payload)
    if kind == "float" and math.isfinite(payload):
        return Value("float", float(payload))
    return None
