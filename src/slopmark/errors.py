"""The one exception hierarchy of slopmark.

Messages say what was wrong, the offending value, and what to do. The CLI
turns `BadInput` into exit code 2 and `CheckFailed` into exit code 1.
"""

import difflib
from collections.abc import Iterable


def did_you_mean(value: str, known: Iterable[str]) -> str | None:
    """``"did you mean 'x'?"`` for the known name closest to ``value``, or None."""
    close = difflib.get_close_matches(value, list(known), n=1)
    return f"did you mean '{close[0]}'?" if close else None


class SlopmarkError(Exception):
    """Base of every error slopmark raises on purpose."""

    exit_code = 2


class BadInput(SlopmarkError):
    """The user gave a path, file, option or rule that cannot be used."""

    exit_code = 2


class EngineError(SlopmarkError):
    """A required external engine (ast-grep, git) is missing or broken."""

    exit_code = 2


class CheckFailed(SlopmarkError):
    """A gate or check the user asked for did not pass."""

    exit_code = 1
