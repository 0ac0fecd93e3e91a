"""kvstore: a file-backed key-value store.

Usage: python main.py --db PATH COMMAND [ARGS...]
"""

from __future__ import annotations

import sys
from dataclasses import dataclass
from pathlib import Path

from batch import run_script
from commands import find_command, parse_seconds
from errors import KvError, UsageError
from storefile import load_store, save_store

from store import Store

GLOBAL_OPTIONS = ("db", "now")


@dataclass(frozen=True)
class Invocation:
    """The parsed command line: global options, command name and its arguments."""

    db: Path
    now: int | None
    command: str
    args: list[str]


def parse_invocation(argv: list[str]) -> Invocation:
    """Split ``argv`` into the global options, the command and its arguments."""
    options, position = _read_global_options(argv)
    if not options.get("db"):
        raise UsageError("missing --db PATH")
    if position >= len(argv):
        raise UsageError("missing command")
    now = options.get("now")
    return Invocation(
        db=Path(options["db"]),
        now=None if now is None else parse_seconds(now, minimum=0),
        command=argv[position],
        args=argv[position + 1:],
    )


def _read_global_options(argv: list[str]) -> tuple[dict[str, str], int]:
    """Read leading ``--name VALUE`` / ``--name=VALUE`` words; return them and where they end."""
    options: dict[str, str] = {}
    position = 0
    while position < len(argv) and argv[position].startswith("--"):
        name, has_value, value = argv[position][2:].partition("=")
        if name not in GLOBAL_OPTIONS:
            raise UsageError(f"unknown global option: --{name}")
        if not has_value:
            position += 1
            if position >= len(argv):
                raise UsageError(f"option --{name} needs a value")
            value = argv[position]
        options[name] = value
        position += 1
    return options, position


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
    """Load the store, move its clock to ``--now``, run the invocation, save any change.

    Changes are saved even when the command fails part-way: the clock moved by
    ``--now`` and a failed script's completed, non-transactional commands are kept.
    """
    if invocation.command != "batch":
        find_command(invocation.command, in_script=False)
    store = load_store(invocation.db)
    before = store.state()
    try:
        if invocation.now is not None:
            store.advance_to(invocation.now)
        run_invocation(invocation, store)
    finally:
        if store.state() != before:
            save_store(invocation.db, store)


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
