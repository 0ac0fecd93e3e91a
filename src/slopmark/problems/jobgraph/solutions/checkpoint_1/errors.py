"""Errors raised by jobgraph; main.py turns each into one stderr line and an exit code."""

from __future__ import annotations


class JobGraphError(Exception):
    """Base class for expected failures; `exit_code` is what the CLI exits with."""

    exit_code = 2


class InputError(JobGraphError):
    """The job file or a command-line value is invalid (exit code 2)."""


class CycleError(JobGraphError):
    """The dependencies form a cycle; `path` repeats its first job at the end (exit code 1)."""

    exit_code = 1

    def __init__(self, path: tuple[str, ...]) -> None:
        super().__init__("dependency cycle: " + " -> ".join(path))
        self.path = path
