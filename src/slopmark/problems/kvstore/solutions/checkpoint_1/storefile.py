"""Reading and writing the JSON store file."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from errors import StoreFileError

FORMAT_VERSION = 1


def load_store(path: Path) -> dict[str, str]:
    """Return the key/value pairs held in ``path``; a missing or empty file is empty."""
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        return {}
    except (OSError, UnicodeDecodeError) as exc:
        raise StoreFileError(f"cannot read store {path}: {exc}") from exc
    if not text:
        return {}
    return _decode(path, text)


def save_store(path: Path, data: dict[str, str]) -> None:
    """Write ``data`` to ``path`` in the store format."""
    document = {
        "kvstore": FORMAT_VERSION,
        "keys": {key: {"value": value} for key, value in data.items()},
    }
    try:
        path.write_text(json.dumps(document, ensure_ascii=False), encoding="utf-8")
    except OSError as exc:
        raise StoreFileError(f"cannot write store {path}: {exc}") from exc


def _decode(path: Path, text: str) -> dict[str, str]:
    try:
        document = json.loads(text)
    except json.JSONDecodeError as exc:
        raise StoreFileError(f"corrupt store {path}: not valid JSON") from exc
    if not isinstance(document, dict) or document.get("kvstore") != FORMAT_VERSION:
        raise StoreFileError(f"corrupt store {path}: expected \"kvstore\": {FORMAT_VERSION}")
    keys = document.get("keys")
    if not isinstance(keys, dict):
        raise StoreFileError(f"corrupt store {path}: \"keys\" must be an object")
    return {key: _decode_entry(path, key, entry) for key, entry in keys.items()}


def _decode_entry(path: Path, key: str, entry: Any) -> str:
    value = entry.get("value") if isinstance(entry, dict) else None
    if not isinstance(value, str):
        raise StoreFileError(f"corrupt store {path}: entry {key!r} has no string \"value\"")
    return value
