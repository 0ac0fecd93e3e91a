"""The exceptions logq raises; the CLI turns them into messages and exit codes."""

from __future__ import annotations


class LogqError(Exception):
    """Base of every error logq reports to the user."""


class UsageError(LogqError):
    """The command line is invalid (exit status 2, nothing on stdout)."""


class MalformedLine(LogqError):
    """One input line cannot be parsed; the line is skipped with a warning."""


class QueryError(UsageError):
    """A ``--query`` expression cannot be parsed; ``column`` is 1-based."""

    def __init__(self, column: int, detail: str) -> None:
        super().__init__(f"query parse error at column {column}: {detail}")
        self.column = column
        self.detail = detail
