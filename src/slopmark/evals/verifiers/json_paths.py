"""JSON Pointer paths with ``*`` wildcards over a parsed answer (see `verifiers.json_output`)."""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any, NoReturn

POINTER = re.compile(r"(?:/(?:[^~/]|~[01])*)*")


class PathError(ValueError):
    """A path that does not lead to a value in the answer."""


@dataclass(frozen=True)
class Match:
    """One value a path reached: its concrete pointer and what each ``*`` matched."""

    where: str
    keys: tuple[str, ...]
    value: Any
    literal: bool = False

    def __str__(self) -> str:
        return brief(self.value) if self.literal else f"{self.where or '/'} = {brief(self.value)}"


def steps(path: str) -> list[str]:
    """The unescaped segments of a JSON Pointer (``""`` has none)."""
    return [s.replace("~1", "/").replace("~0", "~") for s in path.split("/")[1:]]


def _children(match: Match) -> Iterator[tuple[str, Any]]:
    if isinstance(match.value, list):
        return ((str(i), v) for i, v in enumerate(match.value))
    if isinstance(match.value, dict):
        return iter(match.value.items())
    raise PathError(f"{match.where or '/'} is {kind_of(match.value)}, so '*' matches nothing there")


def _step(match: Match, step: str) -> list[Match]:
    value, where = match.value, match.where
    if step == "*":
        return [Match(f"{where}/{_escape(k)}", (*match.keys, k), v) for k, v in _children(match)]
    if isinstance(value, dict) and step in value:
        return [Match(f"{where}/{_escape(step)}", match.keys, value[step])]
    if isinstance(value, list) and step.isdigit() and int(step) < len(value):
        return [Match(f"{where}/{step}", match.keys, value[int(step)])]
    return _missing(where, step, value)


def _missing(where: str, step: str, value: Any) -> NoReturn:
    if isinstance(value, dict):
        lack = f"has no key {step!r}"
    elif isinstance(value, list):
        lack = f"has no element {step!r} (it has {len(value)})"
    else:
        lack = f"is {kind_of(value)}, not an array or object"
    raise PathError(f"{where or '/'} {lack}")


def _escape(key: str) -> str:
    return key.replace("~", "~0").replace("/", "~1")


def resolve(document: Any, path: str) -> list[Match]:
    """Every value ``path`` reaches in ``document``; raises PathError if it breaks off."""
    matches = [Match("", (), document)]
    for step in steps(path):
        matches = [found for match in matches for found in _step(match, step)]
    return matches


def kind_of(value: Any) -> str:
    """How a message names the JSON type of ``value``: ``an object``, ``a number``, ``null``…"""
    if isinstance(value, bool) or value is None:
        return json.dumps(value)
    if isinstance(value, dict | list | str):
        return {dict: "an object", list: "an array", str: "a string"}[type(value)]
    return "a number"


def is_number(value: Any) -> bool:
    return isinstance(value, int | float) and not isinstance(value, bool)


def brief(value: Any) -> str:
    """``value`` as JSON, cut to 40 characters."""
    text = json.dumps(value, ensure_ascii=False)
    return text if len(text) <= 40 else text[:39] + "…"
