"""The store commands, registered by name with their argument rules."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from arguments import Arguments, split_arguments
from errors import KeyNotFound, UsageError, WrongType
from keys import check_key
from values import Value, number_value, parse_int, parse_number, parse_value

from store import Entry, Store

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


def lookup(store: Store, key: str) -> Entry:
    """Return the live entry at ``key`` or raise KeyNotFound."""
    entry = store.get(check_key(key))
    if entry is None:
        raise KeyNotFound(key)
    return entry


def parse_seconds(text: str, *, minimum: int) -> int:
    """Read a whole number of seconds, at least ``minimum``, or raise UsageError."""
    seconds = parse_int(text)
    if seconds < minimum:
        raise UsageError(f"invalid number of seconds: {text!r} (must be at least {minimum})")
    return seconds


def _set(store: Store, args: Arguments) -> list[str]:
    key, text = args.positional
    value = parse_value(text, args.options.get("type", "string"))
    ttl = args.options.get("ttl")
    expires_at = None if ttl is None else store.clock + parse_seconds(ttl, minimum=1)
    store.put(check_key(key), Entry(value, expires_at))
    return []


def _get(store: Store, args: Arguments) -> list[str]:
    return [lookup(store, args.positional[0]).value.render()]


def _type(store: Store, args: Arguments) -> list[str]:
    return [lookup(store, args.positional[0]).value.kind]


def _delete(store: Store, args: Arguments) -> list[str]:
    key = args.positional[0]
    lookup(store, key)
    store.remove(key)
    return []


def _list(store: Store, args: Arguments) -> list[str]:
    prefix = args.positional[0] if args.positional else ""
    return [key for key in store.live_keys() if key.startswith(prefix)]


def _incr(store: Store, args: Arguments) -> list[str]:
    key = check_key(args.positional[0])
    delta = parse_number(args.positional[1]) if len(args.positional) > 1 else 1
    entry = store.get(key) or Entry(Value("int", 0))
    current = entry.value.payload
    if not isinstance(current, int | float):
        raise WrongType(f"{key} holds a {entry.value.kind}; incr needs an int or a float")
    result = number_value(current + delta)
    store.put(key, Entry(result, entry.expires_at))
    return [result.render()]


def _append(store: Store, args: Arguments) -> list[str]:
    key = check_key(args.positional[0])
    entry = store.get(key) or Entry(Value("list", ()))
    current = entry.value.payload
    if not isinstance(current, tuple):
        raise WrongType(f"{key} holds a {entry.value.kind}; append needs a list")
    items = current + args.positional[1:]
    store.put(key, Entry(Value("list", items), entry.expires_at))
    return [str(len(items))]


def _expire(store: Store, args: Arguments) -> list[str]:
    key, text = args.positional
    seconds = parse_seconds(text, minimum=0)
    entry = lookup(store, key)
    store.put(key, Entry(entry.value, store.clock + seconds))
    return []


def _ttl(store: Store, args: Arguments) -> list[str]:
    expires_at = lookup(store, args.positional[0]).expires_at
    return ["-1" if expires_at is None else str(expires_at - store.clock)]


def _persist(store: Store, args: Arguments) -> list[str]:
    key = args.positional[0]
    store.put(key, Entry(lookup(store, key).value))
    return []


def _tick(store: Store, args: Arguments) -> list[str]:
    seconds = parse_seconds(args.positional[0], minimum=0) if args.positional else 1
    store.advance_by(seconds)
    return [str(store.clock)]


def _time(store: Store, args: Arguments) -> list[str]:
    return [str(store.clock)]


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
        Command("set", 2, 2, _set, options=frozenset({"type", "ttl"})),
        Command("get", 1, 1, _get),
        Command("type", 1, 1, _type),
        Command("del", 1, 1, _delete),
        Command("list", 0, 1, _list),
        Command("incr", 1, 2, _incr),
        Command("append", 2, None, _append),
        Command("expire", 2, 2, _expire),
        Command("ttl", 1, 1, _ttl),
        Command("persist", 1, 1, _persist),
        Command("tick", 0, 1, _tick),
        Command("time", 0, 0, _time),
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
