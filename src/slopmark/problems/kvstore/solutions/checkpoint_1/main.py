"""kvstore: a file-backed key-value store.

Usage: python main.py --db PATH COMMAND [ARGS...]
"""

from __future__ import annotations

import sys
from dataclasses import dataclass
from pathlib import Path

from commands import find_command
from errors import KvError, UsageError
from storefile import load_store, save_store


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


def execute(invocation: Invocation) -> list[str]:
    """Run the command against the store file; save it if the data changed."""
    command = find_command(invocation.command)
    data = load_store(invocation.db)
    before = dict(data)
    lines = command.run(data, invocation.args)
    if data != before:
        save_store(invocation.db, data)
    return lines


def main(argv: list[str]) -> int:
    """Run one invocation and return its exit code."""
    try:
        lines = execute(parse_invocation(argv))
    except KvError as error:
        print(f"error: {error}", file=sys.stderr)
        return error.exit_code
    for line in lines:
        print(line)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
