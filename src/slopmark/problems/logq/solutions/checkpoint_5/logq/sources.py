"""Open the input files named on the command line (``-`` is standard input)."""

from __future__ import annotations

import sys
from collections.abc import Sequence
from contextlib import ExitStack
from dataclasses import dataclass
from typing import TextIO

from logq.errors import UsageError

STDIN_NAME = "<stdin>"


@dataclass(frozen=True)
class Source:
    """An opened input: the name used in warnings and its text stream."""

    name: str
    stream: TextIO


def open_sources(paths: Sequence[str], stack: ExitStack) -> list[Source]:
    """Open every path up front so a missing file fails before any output.

    With no path, standard input is the only source. Opened files are closed by ``stack``.
    """
    if not paths:
        return [Source(STDIN_NAME, sys.stdin)]
    return [_open_one(path, stack) for path in paths]


def _open_one(path: str, stack: ExitStack) -> Source:
    if path == "-":
        return Source(STDIN_NAME, sys.stdin)
    try:
        stream = open(path, encoding="utf-8", errors="replace")  # noqa: SIM115
    except OSError as error:
        raise UsageError(f"cannot read {path!r}: {error.strerror}") from error
    stack.callback(stream.close)
    return Source(path, stream)
