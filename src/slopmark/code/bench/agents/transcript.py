"""A session's transcript: one JSON object per line, written as it happens.

Each record has a ``kind`` ("message", "usage", "switch", "stop") and the step
it belongs to; a message record holds the chat message as sent or received
(tool results included), so a run can be read back or replayed to a model.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import IO, Any

from slopmark.closing import Closes


class Transcript(Closes):
    """Appends records to ``path`` (created with its folder) and flushes each one."""

    def __init__(self, path: Path) -> None:
        path.parent.mkdir(parents=True, exist_ok=True)
        self.path = path
        self._file: IO[str] = path.open("a", encoding="utf-8")

    def write(self, kind: str, step: int, **fields: Any) -> None:
        record = {"kind": kind, "step": step} | fields
        self._file.write(json.dumps(record, ensure_ascii=False, default=str) + "\n")
        self._file.flush()

    def close(self) -> None:
        self._file.close()


def read_transcript(path: Path) -> list[dict[str, Any]]:
    """The records of a transcript file, in order."""
    lines = path.read_text(encoding="utf-8").splitlines()
    return [json.loads(line) for line in lines if line.strip()]
