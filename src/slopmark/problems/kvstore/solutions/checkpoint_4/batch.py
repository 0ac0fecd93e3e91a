"""Batch mode: run a script of commands, one per line, with transactions."""

from __future__ import annotations

import shlex
from collections.abc import Callable, Iterator

from commands import find_command
from errors import KvError, ScriptLineError, TransactionError, UsageError

from store import Store

Writer = Callable[[str], None]


def script_lines(text: str) -> Iterator[tuple[int, str]]:
    """Yield ``(line number, line)`` for every line that is not blank or a comment."""
    for number, line in enumerate(text.splitlines(), start=1):
        stripped = line.strip()
        if stripped and not stripped.startswith("#"):
            yield number, line


def run_script(store: Store, text: str, write: Writer) -> None:
    """Run every command of ``text`` in order; the first failure stops the script.

    Open transactions are rolled back when the script fails or ends early.
    """
    try:
        for number, line in script_lines(text):
            _run_line(store, number, line, write)
        if store.depth:
            raise TransactionError(
                f"script ended with {store.depth} open transaction(s); rolled back"
            )
    finally:
        store.rollback_all()


def _run_line(store: Store, number: int, line: str, write: Writer) -> None:
    try:
        words = _split_line(line)
        command = find_command(words[0], in_script=True)
        for output in command.run(store, words[1:]):
            write(output)
    except KvError as error:
        raise ScriptLineError(number, error) from error


def _split_line(line: str) -> list[str]:
    try:
        return shlex.split(line)
    except ValueError as exc:
        raise UsageError(f"cannot split line: {exc}") from exc
