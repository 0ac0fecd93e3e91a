"""Source bytes of one file → everything the tree-level measures need.

This is the per-file half of `slopmark code measure`: decode, parse once,
walk once, count SLOC, fingerprint clone candidates and read suppression
comments. It does no I/O; it runs in worker processes.
"""

from __future__ import annotations

import ast
import io
import re
import tokenize
from array import array
from dataclasses import dataclass
from hashlib import blake2b

from slopmark.code.anatomy import Anatomy, Callable, Candidate, walk
from slopmark.code.sloc import sloc_map

#: Clone candidates must span at least this many SLOC lines.
MIN_CLONE_SLOC = 3

_INT = array("i").itemsize
_IGNORE = re.compile(r"#\s*slopmark:\s*ignore\[([^\]\n]*)\]")


@dataclass(frozen=True, slots=True)
class Fingerprint:
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
    ignores: tuple[tuple[int, tuple[str, ...]], ...]
    notes: tuple[str, ...] = ()

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


def analyze_source(path: str, data: bytes) -> FileAnalysis | Skipped:
    """Measure one file's source; a file that does not decode or parse is `Skipped`."""
    try:
        text, notes = decode(data)
    except Undecodable as error:
        return Skipped(path, str(error))
    if "\r" in text:
        text = text.replace("\r\n", "\n").replace("\r", "\n")
    try:
        tree = ast.parse(text, filename=path)
    except SyntaxError as error:
        return Skipped(path, f"syntax error at line {error.lineno}: {error.msg}")
    except (ValueError, RecursionError, MemoryError) as error:
        return Skipped(path, f"does not parse: {type(error).__name__}: {error}")
    lines = text.encode("utf-8", errors="surrogateescape").split(b"\n")
    try:
        anatomy = walk(tree, lines)
    except RecursionError:
        return Skipped(path, "nesting too deep to walk")
    sloc = sloc_map(lines, anatomy.multiline_strings, anatomy.string_statements)
    fingerprints = tuple(_fingerprints(anatomy, sloc))
    return FileAnalysis(path, sloc, anatomy.callables, fingerprints, _ignores(text), notes)


def _fingerprints(anatomy: Anatomy, sloc: bytes) -> list[Fingerprint]:
    return [
        Fingerprint(c.kind, c.start, c.end, _digest(anatomy, c))
        for c in anatomy.candidates
        if sloc.count(1, c.start, c.end + 1) >= MIN_CLONE_SLOC
    ]


def _digest(anatomy: Anatomy, candidate: Candidate) -> bytes:
    """Digest of the candidate's normalised form.

    Identifiers are renamed to positions in order of first appearance within
    the candidate, so renaming variables keeps the digest.
    """
    start, end = candidate.shape
    shape = anatomy.shape[start * _INT : end * _INT]
    names = anatomy.names[slice(*candidate.names)]
    position = dict(zip(dict.fromkeys(names), range(len(names)), strict=False))
    renamed = array("i", map(position.__getitem__, names)).tobytes()
    return blake2b(shape + b"|" + renamed, digest_size=16).digest()


def _ignores(text: str) -> tuple[tuple[int, tuple[str, ...]], ...]:
    """Suppression directives, read from comment tokens only (not from strings)."""
    if "slopmark:" not in text:
        return ()
    found = []
    tokens = tokenize.generate_tokens(io.StringIO(text).readline)
    for token in tokens:
        if token.type == tokenize.COMMENT and "slopmark:" in token.string:
            for match in _IGNORE.finditer(token.string):
                ids = tuple(i.strip() for i in match.group(1).split(",") if i.strip())
                found.append((token.start[0], ids))
    return tuple(found)
