"""Command-line interface: parse arguments, run the query, map errors to exit codes."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Iterable, Sequence
from contextlib import ExitStack
from typing import NoReturn, TextIO

from logq.errors import UsageError
from logq.filters import AllOf, Condition, parse_where
from logq.logfmt import parse_logfmt
from logq.reader import Diagnostics, read_records
from logq.records import Record
from logq.sources import open_sources

EXIT_OK = 0
EXIT_MALFORMED = 1
EXIT_USAGE = 2


class _ArgumentParser(argparse.ArgumentParser):
    """An argument parser that raises :class:`UsageError` instead of exiting."""

    def error(self, message: str) -> NoReturn:
        raise UsageError(message)


def build_parser() -> argparse.ArgumentParser:
    """Describe logq's command line."""
    parser = _ArgumentParser(prog="logq", description="Filter structured (logfmt) log lines.")
    parser.add_argument(
        "--where", action="append", default=[], metavar="KEY=VALUE",
        help="keep lines whose field KEY equals VALUE exactly (repeatable, all must hold)",
    )
    parser.add_argument("files", nargs="*", metavar="FILE", help="input files (default: stdin)")
    return parser


def main(argv: Sequence[str]) -> int:
    """Run logq with ``argv`` and return the exit status."""
    try:
        return _run(build_parser().parse_args(argv), sys.stdout, sys.stderr)
    except UsageError as error:
        sys.stderr.write(f"logq: error: {error}\n")
        return EXIT_USAGE


def _run(options: argparse.Namespace, out: TextIO, err: TextIO) -> int:
    condition = AllOf([parse_where(argument) for argument in options.where])
    diagnostics = Diagnostics(err)
    with ExitStack() as stack:
        sources = open_sources(options.files, stack)
        records = read_records(sources, parse_logfmt, diagnostics)
        _write_lines(_matching(records, condition), out)
    return EXIT_MALFORMED if diagnostics.malformed_count else EXIT_OK


def _matching(records: Iterable[Record], condition: Condition) -> Iterable[Record]:
    return (record for record in records if condition.matches(record.fields))


def _write_lines(records: Iterable[Record], out: TextIO) -> None:
    for record in records:
        out.write(record.text + "\n")
