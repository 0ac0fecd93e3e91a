r"""The lines of a paper's experiment records that hold a given number (the reviewer's evidence).

`record_lines` walks a records folder (result files, logs, tables) in path
order and returns every line holding one of the numbers as a whole token:
``0.93`` matches ``acc=0.93,`` but not ``10.935`` or ``0.930``. A LaTeX
number is looked up as the records write it: ``12%`` (or ``12\%``) as ``12``
with or without ``%``, ``3{,}000`` as ``3,000`` or ``3000``. Binary files,
files over `MAX_BYTES`, hidden files and folders (``.git``) and symlinks that lead
outside the folder are skipped.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator
from pathlib import Path

from slopmark.confine import inside
from slopmark.errors import BadInput
from slopmark.regular import Unreadable, read_regular

MAX_BYTES = 5_000_000
_SNIFF = 8192


def _forms(number: str) -> set[str]:
    """The ways the records may write a number given as LaTeX writes it."""
    bare = re.sub(r"\s*\\?%$", "", number.strip())
    forms = {bare, bare.replace("{,}", ",")}
    if "," in bare:
        forms.add(bare.replace("{,}", "").replace(",", ""))
    return {form for form in forms if form}


def _pattern(numbers: Iterable[str]) -> re.Pattern[str] | None:
    forms = sorted({form for number in numbers for form in _forms(number)}, key=len, reverse=True)
    if not forms:
        return None
    alternatives = "|".join(re.escape(form) for form in forms)
    return re.compile(rf"(?<![\w.])(?:{alternatives})(?![\w])(?!\.\d)")


def _text_files(records: Path) -> Iterator[Path]:
    """The non-hidden files of the folder (or the file itself), in path order."""
    if records.is_file():
        yield records
        return
    for path in sorted(records.rglob("*")):
        hidden = any(part.startswith(".") for part in path.relative_to(records).parts)
        if path.is_file() and not hidden and inside(records, path):
            yield path


def _read_text(path: Path) -> str | None:
    """The decoded text of a records file; None for a binary or oversized one, or one that
    is no longer a regular file (a FIFO swapped in is not waited for)."""
    try:
        data = read_regular(path, MAX_BYTES)
    except Unreadable:
        return None
    if b"\x00" in data[:_SNIFF]:
        return None
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError:
        return data.decode("latin-1")


def record_lines(records: Path, numbers: Iterable[str]) -> list[tuple[str, int, str]]:
    """(file relative to ``records``, 1-based line number, line) of every records line that
    holds one of ``numbers`` as a whole token, in file then line order."""
    if not records.exists():
        raise BadInput(f"{records}: no such records folder; pass --records an existing folder")
    pattern = _pattern(numbers)
    if pattern is None:
        return []
    base = records.parent if records.is_file() else records
    found: list[tuple[str, int, str]] = []
    for path in _text_files(records):
        text = _read_text(path)
        if text is None:
            continue
        name = path.relative_to(base).as_posix()
        for number, line in enumerate(text.splitlines(), start=1):
            if pattern.search(line):
                found.append((name, number, line))
    return found
