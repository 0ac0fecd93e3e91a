"""ledger: summarize personal-finance transactions from CSV, JSON-lines or QIF files.

Usage: python main.py summary FILE [FILE ...] [--input-format F] [--format F]
                                  [--from DATE] [--to DATE]
"""

from __future__ import annotations

import argparse
import sys

from errors import LedgerError
from readers import PARSERS, read_transactions
from render import SUMMARY_FORMATS
from summary import DateRange, in_range, summarize
from transactions import parse_date


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="ledger", description=__doc__)
    commands = parser.add_subparsers(dest="command", required=True)
    summary = commands.add_parser("summary", help="balances per account, totals per category")
    summary.add_argument("files", nargs="+", metavar="FILE", help="transaction files")
    summary.add_argument("--input-format", choices=sorted(PARSERS), help="format of every FILE")
    summary.add_argument("--format", choices=list(SUMMARY_FORMATS), default="text")
    summary.add_argument("--from", dest="start", help="first date to include (YYYY-MM-DD)")
    summary.add_argument("--to", dest="end", help="last date to include (YYYY-MM-DD)")
    return parser


def date_range(args: argparse.Namespace) -> DateRange:
    """The --from/--to options as a DateRange; a LedgerError if they are bad."""
    start = parse_date(args.start, "--from") if args.start else None
    end = parse_date(args.end, "--to") if args.end else None
    if start and end and start > end:
        raise LedgerError(f"--from {start} is after --to {end}")
    return DateRange(start, end)


def run_summary(args: argparse.Namespace) -> int:
    dates = date_range(args)
    transactions = in_range(read_transactions(args.files, args.input_format), dates)
    sys.stdout.write(SUMMARY_FORMATS[args.format](summarize(transactions)))
    return 0


def main(argv: list[str] | None = None) -> int:
    args = _parser().parse_args(argv)
    try:
        return run_summary(args)
    except LedgerError as error:
        print(f"error: {error}", file=sys.stderr)
        return 2


if __name__ == "__main__":
    sys.exit(main())
