"""What one measured file yields, as the native core (`slopmark._core`) reports it.

The core parses each file once with tree-sitter and returns a typed record per file (a
`slopmark._core.Measured`, or a `slopmark._core.Failed` saying why not): the SLOC line
map, the callables with CC and SLOC, the clone candidates' normal-form digests, the rule
hits, the suppression comments and whether the text may declare an encoding of its own
(definitions: the language modules of `native/src/lang/`, Python's in
`native/src/lang/python.rs`). This module turns those records into named tuples and frozen
dataclasses; it does no I/O.
"""

from __future__ import annotations

import io
import tokenize
from collections.abc import Sequence
from dataclasses import dataclass
from typing import NamedTuple

from slopmark import _core
from slopmark.code.measure.hits import RuleHit
from slopmark.code.measure.rules import Rule

#: Clone candidates must span at least this many SLOC lines.
MIN_CLONE_SLOC = 3


class Callable(NamedTuple):
    """A function or method with its complexity.

    ``start`` is the ``def`` line (decorators excluded), ``end`` its last line, ``sloc``
    the SLOC lines between them. A named tuple: a big tree has tens of thousands, made
    straight from the core's tuples.
    """

    qualname: str
    start: int
    end: int
    cc: int
    sloc: int


class Fingerprint(NamedTuple):
    """A clone candidate reduced to its span and normalised-form digest."""

    kind: str
    start: int
    end: int
    digest: bytes


@dataclass(frozen=True, slots=True)
class FileAnalysis:
    """One measured file. ``sloc`` holds a byte per line (index 0 unused)."""

    path: str
    sloc: bytes
    callables: tuple[Callable, ...]
    fingerprints: tuple[Fingerprint, ...]
    hits: tuple[RuleHit, ...]
    ignores: tuple[tuple[int, tuple[str, ...]], ...]
    notes: tuple[str, ...] = ()
    #: The language the file is reported under (`slopmark.code.measure.languages`).
    language: str = "python"

    @property
    def sloc_count(self) -> int:
        return self.sloc.count(1)

    def sloc_between(self, start: int, end: int) -> int:
        """SLOC lines in the inclusive line range ``start..end``."""
        return self.sloc.count(1, start, end + 1)


@dataclass(frozen=True, slots=True)
class Skipped:
    """A file left out of every metric, and why."""

    path: str
    reason: str


class Undecodable(ValueError):
    """Source bytes Python itself would refuse to decode (so it would never run them)."""


def decode(data: bytes) -> tuple[str, tuple[str, ...]]:
    """Decode Python source bytes (PEP 263 cookie or BOM, else UTF-8), as Python does.

    Bytes that are not valid in that encoding, or a cookie naming an unknown
    encoding, raise `Undecodable` with the reason: Python would not run the file.
    """
    try:
        encoding, _ = tokenize.detect_encoding(io.BytesIO(data).readline)
    except SyntaxError as error:
        raise Undecodable(f"not decodable as Python source: {error.msg}") from error
    try:
        return data.decode(encoding), ()
    except UnicodeDecodeError as error:
        bad = error.object[error.start : error.start + 1].hex()
        raise Undecodable(
            f"not valid {encoding} (byte 0x{bad} at offset {error.start}); "
            "Python would not run it"
        ) from error
    except LookupError as error:
        raise Undecodable(f"unknown encoding {encoding!r}; Python would not run it") from error


#: How the core's error kinds read in a skipped file's reason.
_REASONS = {"unreadable": "unreadable: {}", "internal": "not measured ({}); please report it"}


def from_record(
    path: str,
    record: _core.Record,
    rules: Sequence[Rule],
    notes: tuple[str, ...] = (),
    language: str = "python",
) -> FileAnalysis | Skipped:
    """The core's record of the file shown as ``path``; hits name rules of ``rules``.

    A file measured despite a syntax error (languages other than Python) carries the
    error's place in its notes."""
    if isinstance(record, _core.Failed):
        return Skipped(path, _REASONS.get(record.kind, "{}").format(record.message))
    if record.syntax is not None:
        notes = (*notes, f"{record.syntax[0]}; the rest of the file was measured")
    return FileAnalysis(
        path=path,
        sloc=record.sloc,
        callables=tuple(map(Callable._make, record.callables)),
        fingerprints=tuple(map(Fingerprint._make, record.clones)),
        hits=tuple(_hit(path, rules[r], start, end, text) for r, start, end, text in record.hits),
        ignores=tuple((line, tuple(ids)) for line, ids in record.ignores),
        notes=notes,
        language=language,
    )


def _hit(path: str, rule: Rule, start: int, end: int, message: str | None) -> RuleHit:
    """A hit of ``rule``; ``message`` is given when the rule's message names metavariables."""
    return RuleHit(rule.id, path, start, end, message or rule.message, rule.severity)
