"""Fixture papers carry their expected counts on their first line: ``% expect: key=value ...``."""

from __future__ import annotations

import re
from pathlib import Path


def expected_counts(path: Path) -> dict[str, str]:
    """The ``key=value`` pairs of the fixture's first line (values as written)."""
    first = path.read_text(encoding="utf-8").splitlines()[0]
    return dict(re.findall(r"(\w+)=(\S+)", first))
