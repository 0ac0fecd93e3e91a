"""The one registry of every plug-in kind: built-ins found by module, third parties by entry point.

A kind (verifiers, measures, agents, sandboxes, generator templates, executors)
keeps one `Registry`. A plug-in is a module that registers itself when it is
imported, and every kind spells that the same way: the kind's package exports its
registry's `Registry.register` as ``register``, used as a decorator on the
plug-in's class or function::

    @register("name", **declared)

where ``declared`` is what the kind needs beyond the name (an agent's
``summary``, a sandbox's ``unavailable``...). Nothing is imported until the
registry is first read; then it imports every module of the kind's package (so
a new built-in is one new file) and every module named by an entry point of the
kind's group (so a third-party plug-in is one new file plus one line of its
``pyproject.toml``)::

    [project.entry-points."slopmark.verifiers"]
    wordle = "slopmark_wordle.verifier"

The entry point's name is the name its module registers. An unknown name is
one `BadInput`, worded the same for every kind, with the closest known name.
"""

from __future__ import annotations

import pkgutil
import threading
from collections.abc import Callable, Iterable
from importlib import import_module
from importlib.metadata import EntryPoint, entry_points
from typing import Any, Generic, TypeVar

from slopmark.errors import BadInput, did_you_mean

#: The entry-point group of each plug-in kind a third-party package can add to.
GROUPS = {
    "verifier": "slopmark.verifiers",
    "measure": "slopmark.measures",
    "agent": "slopmark.agents",
    "sandbox": "slopmark.sandboxes",
    "executor": "slopmark.executors",
}

T = TypeVar("T")
P = TypeVar("P")


def unknown(
    kind: str, name: str, known: Iterable[str], *, plural: str, option: str = "", extra: str = ""
) -> BadInput:
    """The one wording of an unknown plug-in (or domain) name, with the closest known one.

    ``option`` names the option the name came from (``--executor 'rya': unknown executor``,
    as every option's message starts); ``extra`` says what else is accepted.
    """
    names = list(known)
    hint = did_you_mean(name, names)
    listing = f"{plural}: {', '.join(names)}" + (f"; {extra}" if extra else "")
    said = f"{option} '{name}': unknown {kind}" if option else f"unknown {kind} '{name}'"
    return BadInput(said + (f"; {hint}" if hint else "") + f" ({listing})")


class Registry(Generic[T]):
    """Name → plug-in of one kind, filled on first read."""

    def __init__(
        self,
        kind: str,
        package: str,
        *,
        plural: str | None = None,
        declare: Callable[..., T] | None = None,
    ) -> None:
        self.kind = kind
        self.plural = plural or f"{kind}s"
        self.package = package
        self.group = GROUPS.get(kind)
        self._declare = declare
        self._items: dict[str, T] = {}
        self._loaded = False
        self._lock = threading.RLock()
        self._loading = False

    def register(self, name: str, **declared: Any) -> Callable[[P], P]:
        """The one registration of every kind: ``@register("name", **declared)`` on the
        plug-in's class or function, which it returns unchanged.

        The kind's ``declare(name, target, **declared)`` makes the registered item (a
        verifier's instance, an agent's `AgentSpec`...); without one, the target is it.
        """

        def add(target: P) -> P:
            made: Any = self._declare(name, target, **declared) if self._declare else target
            self.add(name, made)
            return target

        return add

    def add(self, name: str, item: T) -> T:
        """Register ``item`` as ``name`` (what `register` does once the item is made)."""
        if name in self._items and self._items[name] is not item:
            raise BadInput(f"two {self.plural} are registered as '{name}'; rename one of them")
        self._items[name] = item
        return item

    def items(self) -> dict[str, T]:
        """Every registered plug-in, by name, sorted."""
        self._load()
        return dict(sorted(self._items.items()))

    def names(self) -> list[str]:
        return list(self.items())

    def get(
        self, name: str, *, also: Iterable[str] = (), extra: str = "", option: str = ""
    ) -> T:
        """The plug-in ``name``, else `BadInput` naming the closest (``also``: more words)
        and ``option``, the option the name came from."""
        found = self.items()
        if name in found:
            return found[name]
        raise self.unknown(name, [*found, *also], option=option, extra=extra)

    def unknown(
        self, name: str, known: Iterable[str], *, option: str = "", extra: str = ""
    ) -> BadInput:
        """`unknown` for this kind."""
        return unknown(self.kind, name, known, plural=self.plural, option=option, extra=extra)

    def _load(self) -> None:
        """Import the kind's modules and plug-ins, once. A thread reading the registry while
        another loads it waits for the whole of it (tasks are scored on threads)."""
        if self._loaded:
            return
        with self._lock:
            if self._loaded or self._loading:
                return  # loaded meanwhile, or read by a module this thread is importing
            self._loading = True
            try:
                for module in pkgutil.iter_modules(import_module(self.package).__path__):
                    import_module(f"{self.package}.{module.name}")
                if self.group is not None:
                    for point in entry_points(group=self.group):
                        self._load_plugin(point)
            finally:
                self._loading, self._loaded = False, True

    def _load_plugin(self, point: EntryPoint) -> None:
        where = f"plug-in '{point.name}' (entry point {point.value} in group {self.group})"
        try:
            point.load()
        except Exception as error:  # a third party's import failed: say whose and why
            raise BadInput(
                f"{where} failed to load: {type(error).__name__}: {error};"
                " fix or uninstall the package that declares it"
            ) from error
        if point.name not in self._items:
            raise BadInput(
                f"{where} registered no {self.kind} named '{point.name}';"
                f" its module must register the {self.kind} under the entry point's name"
            )
