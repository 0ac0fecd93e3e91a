"""The rules a key must follow."""

from __future__ import annotations

import re

from errors import UsageError

MAX_KEY_LENGTH = 250
_KEY_PATTERN = re.compile(r"[A-Za-z0-9_.:/-]+")


def check_key(key: str) -> str:
    """Return ``key`` unchanged, or raise UsageError if it breaks the key rules."""
    if len(key) > MAX_KEY_LENGTH or not _KEY_PATTERN.fullmatch(key):
        raise UsageError(f"invalid key: {key!r}")
    return key
