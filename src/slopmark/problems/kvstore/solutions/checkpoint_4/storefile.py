"""Reading and writing the JSON store file."""

from __future__ import annotations

import json
import math
import os
import tempfile
from pathlib import Path
from typing import Any

from errors import StoreFileError
from values import Value, is_string_list

from store import Entry, Store

FORMAT_VERSION = 1


def load_store(path: Path) -> Store:
    """Return the store held in ``path``; a missing or empty file is an empty store."""
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        return Store({})
    except (OSError, UnicodeDecodeError) as exc:
        raise StoreFileError(f"cannot read store {path}: {exc}") from exc
    if not text:
        return Store({})
    return _decode(path, text)


def save_store(path: Path, store: Store) -> None:
    """Write the live entries and the clock of ``store`` to ``path``."""
    document = {
        "kvstore": FORMAT_VERSION,
        "clock": store.clock,
        "keys": {key: _encode_entry(entry) for key, entry in store.live_entries().items()},
    }
    try:
        _replace_atomically(path, json.dumps(document, ensure_ascii=False))
    except OSError as exc:
        raise StoreFileError(f"cannot write store {path}: {exc}") from exc


def _replace_atomically(path: Path, text: str) -> None:
    """Write ``text`` to a temporary file beside ``path``, fsync it, rename it over ``path``."""
    descriptor, temporary = tempfile.mkstemp(
        prefix=f".{path.name}.", suffix=".tmp", dir=path.parent
    )
    try:
        with os.fdopen(descriptor, "w", encoding="utf-8") as handle:
            handle.write(text)
            handle.flush()
            os.fsync(handle.fileno())
        os.replace(temporary, path)
    except BaseException:
        Path(temporary).unlink(missing_ok=True)
        raise


def _encode_entry(entry: Entry) -> dict[str, Any]:
    encoded = {"type": entry.value.kind, "value": entry.value.to_json()}
    if entry.expires_at is not None:
        encoded["expires_at"] = entry.expires_at
    return encoded


def _decode(path: Path, text: str) -> Store:
    try:
        document = json.loads(text)
    except json.JSONDecodeError as exc:
        raise StoreFileError(f"corrupt store {path}: not valid JSON") from exc
    if not isinstance(document, dict) or document.get("kvstore") != FORMAT_VERSION:
        raise StoreFileError(f"corrupt store {path}: expected \"kvstore\": {FORMAT_VERSION}")
    clock = document.get("clock", 0)
    if not _is_json_int(clock) or clock < 0:
        raise StoreFileError(f"corrupt store {path}: \"clock\" must be a non-negative integer")
    keys = document.get("keys")
    if not isinstance(keys, dict):
        raise StoreFileError(f"corrupt store {path}: \"keys\" must be an object")
    entries: dict[str, Entry] = {}
    for key, raw in keys.items():
        entry = _decode_entry(raw)
        if entry is None:
            raise StoreFileError(f"corrupt store {path}: entry {key!r} is malformed")
        entries[key] = entry
    return Store(entries, clock)


def _decode_entry(raw: Any) -> Entry | None:
    if not isinstance(raw, dict):
        return None
    value = _decode_value(raw.get("type", "string"), raw.get("value"))
    expires_at = raw.get("expires_at")
    if value is None or (expires_at is not None and not _is_json_int(expires_at)):
        return None
    return Entry(value, expires_at)


def _decode_value(kind: Any, payload: Any) -> Value | None:
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


def _is_json_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)
