"""Checks of option values that Typer's types cannot express."""

from __future__ import annotations

from collections.abc import Iterable

from slopmark.errors import BadInput

#: The help of every ``--db``: where the store is when it is not given.
DB_HELP = "Run store URL or SQLite file (default: $SLOPMARK_DB, else `slopmark store path`)."


def non_empty(value: str | None, option: str) -> str | None:
    """``value`` unless it is given but blank (``--model ''``), which would silently match
    nothing or label a run with nothing."""
    if value is not None and not value.strip():
        raise BadInput(f"{option} {value!r}: is empty; give a value or leave the option out")
    return value


def none_empty(values: Iterable[str], option: str) -> None:
    """Every value of a repeatable option is non-blank."""
    for value in values:
        non_empty(value, option)
