"""A parsed log line and where it came from."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass


@dataclass(frozen=True)
class Record:
    """One well-formed input line: its original text and its named fields."""

    source: str
    lineno: int
    text: str
    fields: Mapping[str, str]
