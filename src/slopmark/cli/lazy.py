"""Command groups that import a subcommand's module only when Click asks for it.

`slopmark code diff` runs in a pre-commit hook, so the CLI's start-up counts: the
root and `code` groups name their subgroups by where they live
(``"slopmark.cli.board:app"``: a `typer.Typer` app or a command function), and a
subgroup's module, with everything it imports, loads when that name is looked up:
to run it, print its help or complete it. ``slopmark --help`` lists every group,
so it loads them all; ``slopmark code diff`` loads `code` alone.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, MutableMapping
from importlib import import_module
from typing import Any, ClassVar

import typer
from typer.core import TyperGroup
from typer.main import get_group


class LazyCommands(MutableMapping[str, Any]):
    """A group's commands: those built already, then the rest by where they live.

    Iterating gives names only (nothing is loaded); looking one up builds it once."""

    def __init__(self, built: Mapping[str, Any], lazy: Mapping[str, str]) -> None:
        self._built = dict(built)
        self._lazy = {name: target for name, target in lazy.items() if name not in built}

    def __getitem__(self, name: str) -> Any:
        if name not in self._built:
            self._built[name] = load(name, self._lazy[name])
        return self._built[name]

    def __setitem__(self, name: str, command: Any) -> None:
        self._built[name] = command

    def __delitem__(self, name: str) -> None:
        if name not in self:
            raise KeyError(name)
        self._built.pop(name, None)
        self._lazy.pop(name, None)

    def __iter__(self) -> Iterator[str]:
        yield from self._built
        yield from (name for name in self._lazy if name not in self._built)

    def __contains__(self, name: object) -> bool:
        return name in self._built or name in self._lazy

    def __len__(self) -> int:
        return len(self._built.keys() | self._lazy.keys())


def load(name: str, target: str) -> Any:
    """The Click command ``name`` made of ``target`` (``module:attribute``), exactly as
    ``add_typer(app, name=name)`` or ``command(name)(function)`` would have made it."""
    module, _, attribute = target.partition(":")
    found = getattr(import_module(module), attribute)
    holder = typer.Typer()
    if isinstance(found, typer.Typer):
        holder.add_typer(found, name=name)
    else:
        holder.command(name)(found)
    return get_group(holder).commands[name]


class LazyGroup(TyperGroup):
    """A group whose subcommands in `lazy` (name → ``module:attribute``, in the order
    they are listed) are loaded when first looked up."""

    lazy: ClassVar[Mapping[str, str]] = {}

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.commands = LazyCommands(self.commands, self.lazy)

    def list_commands(self, ctx: Any) -> list[str]:
        return list(self.commands)
