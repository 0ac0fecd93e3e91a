"""Splitting a command's words into plain arguments and ``--name VALUE`` options."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field

from errors import UsageError


@dataclass(frozen=True)
class Arguments:
    """A command's plain arguments, in order, and its options by name."""

    positional: tuple[str, ...]
    options: dict[str, str] = field(default_factory=dict)


def split_arguments(command: str, words: list[str], allowed: frozenset[str]) -> Arguments:
    """Separate options (words starting with ``--``) from plain arguments.

    ``--name VALUE`` and ``--name=VALUE`` are options; ``--`` ends the options.
    """
    positional: list[str] = []
    options: dict[str, str] = {}
    remaining = iter(words)
    for word in remaining:
        if word == "--":
            positional.extend(remaining)
        elif word.startswith("--"):
            name, value = _read_option(command, word, remaining, allowed)
            if name in options:
                raise UsageError(f"option --{name} given twice to {command}")
            options[name] = value
        else:
            positional.append(word)
    return Arguments(tuple(positional), options)


def _read_option(
    command: str, word: str, remaining: Iterator[str], allowed: frozenset[str]
) -> tuple[str, str]:
    name, has_value, value = word[2:].partition("=")
    if name not in allowed:
        raise UsageError(f"unknown option for {command}: --{name}")
    if not has_value:
        following = next(remaining, None)
        if following is None:
            raise UsageError(f"option --{name} of {command} needs a value")
        value = following
    return name, value
