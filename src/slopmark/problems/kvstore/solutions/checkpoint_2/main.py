"""kvstore: a file-backed key-value store.

Usage: python main.py --db PATH COMMAND [ARGS...]
"""

from __future__ import annotations

import sys
from dataclasses import dataclass
from pathlib import Path

from batch import run_script
from commands import find_command
from errors import KvError, UsageError
from storefile import load_store, save_store
from transactions import Store


@dataclass(frozen=True)
class Invocation:
    """The parsed command line: store path, command name and its arguments."""

    db: Path
    command: str
    args: list[str]


def parse_invocation(argv: list[str]) -> Invocation:
    """Split ``argv`` into the global ``--db`` option, the command and its arguments."""
    db: str | None = None
    position = 0
    while position < len(argv) and argv[position].startswith("--"):
        option = argv[position]
        if option.startswith("--db="):
            db, position = option[len("--db="):], position + 1
        elif option == "--db" and position + 1 < len(argv):
            db, position = argv[position + 1], position + 2
        else:
            raise UsageError(f"unknown or incomplete option: {option}")
    if not db:
        raise UsageError("missing --db PATH")
    if position >= len(argv):
        raise UsageError("missing command")
    return Invocation(Path(db), argv[position], argv[position + 1:])


def run_invocation(invocation: Invocation, store: Store) -> None:
    """Run the invocation's command (or batch script) against ``store``, printing output."""
    if invocation.command != "batch":
        for line in find_command(invocation.command, in_script=False).run(store, invocation.args):
            print(line)
        return
    if invocation.args:
        raise UsageError("batch takes no arguments; the script is read from stdin")
    run_script(store, sys.stdin.read(), print)


def execute(invocation: Invocation) -> None:
    """Load the store, run the invocation, and save the store if its data changed.

    Changes are saved even when a batch script fails part-way (its completed,
    non-transactional commands are kept).
    """
    if invocation.command != "batch":
        find_command(invocation.command, in_script=False)
    store = Store(load_store(invocation.db))
    before = dict(store.entries)
    try:
        run_invocation(invocation, store)
    finally:
        if store.entries != before:
            save_store(invocation.db, store.entries)


def main(argv: list[str]) -> int:
    """Run one invocation and return its exit code."""
    try:
        execute(parse_invocation(argv))
    except KvError as error:
        print(f"error: {error}", file=sys.stderr)
        return error.exit_code
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
