# expect-file: sloc=64 callables=4
# ruff: noqa
# fmt: off
"""match statements with guards, and `if TYPE_CHECKING:` blocks.

match and case add nothing to CC; each case guard adds one (and the and/or
inside a guard add theirs). `if TYPE_CHECKING:` blocks are never clone
candidates, whatever they hold; other `if` blocks of the same form are.
"""

from __future__ import annotations

import typing
from typing import TYPE_CHECKING

DEBUG = False

if TYPE_CHECKING:
    from collections import abc
    from collections import deque
    from collections import OrderedDict

# Same form as the block above, which is not a candidate: so no group.
if DEBUG:
    from json import dumps
    from json import loads
    from json import JSONDecoder

if typing.TYPE_CHECKING:
    from os import path
    from os import sep
    from os import environ

if not TYPE_CHECKING:  # expect-clone: A
    from csv import reader
    from csv import writer
    from csv import Dialect

if not DEBUG:  # expect-clone: A
    from io import StringIO
    from io import BytesIO
    from io import TextIOWrapper


def describe(command):  # expect: cc=5 sloc=14
    match command:
        case ["go", direction] if direction in ("north", "south"):
            return f"walk {direction}"
        case ["go", _]:
            return "unknown direction"
        case {"action": action, **rest} if rest and action:
            return action
        case Point(x=0, y=0):
            return "origin"
        case int() | float() as number if number > 0:
            return "positive"
        case _:
            return "other"


def status_text(code):  # expect: cc=1 sloc=8; expect-clone: B
    match code:  # expect-clone: C
        case 200:
            return "ok"
        case 404:
            return "missing"
        case _:
            return "error"


def colour_name(value):  # expect: cc=1 sloc=8; expect-clone: B
    match value:  # expect-clone: C
        case 1:
            return "red"
        case 2:
            return "green"
        case _:
            return "blue"


def nested_match(event):  # expect: cc=4 sloc=10
    match event:
        case {"type": "key", "code": code}:
            match code:
                case "q" if event.get("ctrl"):
                    return "quit"
                case _ if code.isdigit() or code == "-":
                    return "number"
        case _:
            return None
