"""Machine-readable output shared by every command."""

from __future__ import annotations

import json
import sys
from typing import Any


def dumps(data: Any) -> str:
    """JSON text: indented for a person at a terminal, compact (and fast) for a pipe."""
    if sys.stdout.isatty():
        return json.dumps(data, indent=1)
    return json.dumps(data, separators=(",", ":"))


def print_json(data: Any) -> None:
    print(dumps(data))
