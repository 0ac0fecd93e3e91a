"""The store commands: each takes the key/value data and its arguments."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from errors import KeyNotFound, UsageError
from keys import check_key

Data = dict[str, str]
Handler = Callable[[Data, list[str]], list[str]]


@dataclass(frozen=True)
class Command:
    """A command name, how many arguments it takes, and what it does."""

    name: str
    min_args: int
    max_args: int
    handler: Handler

    def run(self, data: Data, args: list[str]) -> list[str]:
        """Check the argument count, then run; returns the lines to print."""
        if not self.min_args <= len(args) <= self.max_args:
            raise UsageError(f"wrong number of arguments for {self.name}: {len(args)}")
        return self.handler(data, args)


def _set(data: Data, args: list[str]) -> list[str]:
    key, value = args
    data[check_key(key)] = value
    return []


def _get(data: Data, args: list[str]) -> list[str]:
    key = check_key(args[0])
    if key not in data:
        raise KeyNotFound(key)
    return [data[key]]


def _delete(data: Data, args: list[str]) -> list[str]:
    key = check_key(args[0])
    if key not in data:
        raise KeyNotFound(key)
    del data[key]
    return []


def _list(data: Data, args: list[str]) -> list[str]:
    prefix = args[0] if args else ""
    return sorted(key for key in data if key.startswith(prefix))


COMMANDS: dict[str, Command] = {
    command.name: command
    for command in (
        Command("set", 2, 2, _set),
        Command("get", 1, 1, _get),
        Command("del", 1, 1, _delete),
        Command("list", 0, 1, _list),
    )
}


def find_command(name: str) -> Command:
    """Return the command called ``name`` or raise UsageError."""
    command = COMMANDS.get(name)
    if command is None:
        raise UsageError(f"unknown command: {name}")
    return command
