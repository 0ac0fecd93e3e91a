"""The exceptions logq raises; the CLI turns them into messages and exit codes."""

from __future__ import annotations


class LogqError(Exception):
    """Base of every error logq reports to the user."""


class UsageError(LogqError):
    """The command line is invalid (exit status 2, nothing on stdout)."""


class MalformedLine(LogqError):
    """One input line cannot be parsed; the line is skipped with a warning."""
