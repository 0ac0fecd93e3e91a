"""The store commands, registered by name with their argument rules."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from arguments import Arguments, split_arguments
from errors import KeyNotFound, UsageError, WrongType
from keys import check_key
from transactions import Store
from values import Value, number_value, parse_number, parse_value

Handler = Callable[[Store, Arguments], list[str]]


@dataclass(frozen=True)
class Command:
    """A command: its name, argument count, accepted options and handler."""

    name: str
    min_args: int
    max_args: int | None
    handler: Handler
    options: frozenset[str] = frozenset()
    script_only: bool = False

    def run(self, store: Store, words: list[str]) -> list[str]:
        """Parse ``words``, check the argument count, run; return the lines to print."""
        args = split_arguments(self.name, words, self.options)
        count = len(args.positional)
        if count < self.min_args or (self.max_args is not None and count > self.max_args):
            raise UsageError(f"wrong number of arguments for {self.name}: {count}")
        return self.handler(store, args)


def lookup(store: Store, key: str) -> Value:
    """Return the value at ``key`` or raise KeyNotFound."""
    value = store.entries.get(check_key(key))
    if value is None:
        raise KeyNotFound(key)
    return value


def _set(store: Store, args: Arguments) -> list[str]:
    key, text = args.positional
    store.entries[check_key(key)] = parse_value(text, args.options.get("type", "string"))
    return []


def _get(store: Store, args: Arguments) -> list[str]:
    return [lookup(store, args.positional[0]).render()]


def _type(store: Store, args: Arguments) -> list[str]:
    return [lookup(store, args.positional[0]).kind]


def _delete(store: Store, args: Arguments) -> list[str]:
    key = args.positional[0]
    lookup(store, key)
    del store.entries[key]
    return []


def _list(store: Store, args: Arguments) -> list[str]:
    prefix = args.positional[0] if args.positional else ""
    return sorted(key for key in store.entries if key.startswith(prefix))


def _incr(store: Store, args: Arguments) -> list[str]:
    key = check_key(args.positional[0])
    delta = parse_number(args.positional[1]) if len(args.positional) > 1 else 1
    current = store.entries.get(key, Value("int", 0)).payload
    if not isinstance(current, int | float):
        raise WrongType(f"{key} holds a {store.entries[key].kind}; incr needs an int or a float")
    result = number_value(current + delta)
    store.entries[key] = result
    return [result.render()]


def _append(store: Store, args: Arguments) -> list[str]:
    key = check_key(args.positional[0])
    current = store.entries.get(key, Value("list", ())).payload
    if not isinstance(current, tuple):
        raise WrongType(f"{key} holds a {store.entries[key].kind}; append needs a list")
    items = current + args.positional[1:]
    store.entries[key] = Value("list", items)
    return [str(len(items))]


def _begin(store: Store, args: Arguments) -> list[str]:
    store.begin()
    return []


def _commit(store: Store, args: Arguments) -> list[str]:
    store.commit()
    return []


def _rollback(store: Store, args: Arguments) -> list[str]:
    store.rollback()
    return []


COMMANDS: dict[str, Command] = {
    command.name: command
    for command in (
        Command("set", 2, 2, _set, options=frozenset({"type"})),
        Command("get", 1, 1, _get),
        Command("type", 1, 1, _type),
        Command("del", 1, 1, _delete),
        Command("list", 0, 1, _list),
        Command("incr", 1, 2, _incr),
        Command("append", 2, None, _append),
        Command("begin", 0, 0, _begin, script_only=True),
        Command("commit", 0, 0, _commit, script_only=True),
        Command("rollback", 0, 0, _rollback, script_only=True),
    )
}


def find_command(name: str, *, in_script: bool) -> Command:
    """Return the command called ``name`` (case-insensitive in scripts) or raise UsageError."""
    command = COMMANDS.get(name.lower() if in_script else name)
    if command is None:
        raise UsageError(f"unknown command: {name}")
    if command.script_only and not in_script:
        raise UsageError(f"{name} is only available in batch scripts")
    return command
