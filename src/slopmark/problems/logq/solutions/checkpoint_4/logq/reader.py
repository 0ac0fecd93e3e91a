"""Turn the lines of the input sources into records, reporting malformed lines."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from typing import TextIO

from logq.errors import MalformedLine
from logq.records import Record
from logq.sources import Source

LineParser = Callable[[str], dict[str, str]]


class Diagnostics:
    """Writes one warning per malformed line and counts them for the exit status."""

    def __init__(self, stream: TextIO) -> None:
        self._stream = stream
        self.malformed_count = 0

    def malformed(self, source: str, lineno: int, error: MalformedLine) -> None:
        """Report that line ``lineno`` of ``source`` was skipped."""
        self.malformed_count += 1
        self._stream.write(
            f"logq: warning: {source}:{lineno}: malformed {error.format_name}: {error.reason}\n"
        )


def read_records(
    sources: Iterable[Source], parse_line: LineParser, diagnostics: Diagnostics
) -> Iterator[Record]:
    """Yield the well-formed, non-blank lines of every source, in order."""
    for source in sources:
        yield from _read_source(source, parse_line, diagnostics)


def _read_source(
    source: Source, parse_line: LineParser, diagnostics: Diagnostics
) -> Iterator[Record]:
    for lineno, raw in enumerate(source.stream, start=1):
        text = raw.rstrip("\r\n")
        if not text.strip(" \t"):
            continue
        try:
            fields = parse_line(text)
        except MalformedLine as error:
            diagnostics.malformed(source.name, lineno, error)
            continue
        yield Record(source.name, lineno, text, fields)
