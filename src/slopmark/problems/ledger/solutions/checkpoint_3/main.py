"""ledger: summarize personal-finance transactions and check them against budget rules.

Usage: python main.py summary FILE [FILE ...] [--input-format F] [--format F]
                                  [--from DATE] [--to DATE]
       python main.py check FILE [FILE ...] --rules RULES [same options]
"""

from __future__ import annotations

import argparse
import sys

from engine import evaluate
from errors import LedgerError
from readers import PARSERS, read_transactions
from render import SUMMARY_FORMATS
from render_alerts import ALERT_FORMATS
from rules import load_rules
from summary import DateRange, in_range, summarize
from transactions import Transaction, parse_date


def _add_input_options(command: argparse.ArgumentParser) -> None:
    command.add_argument("files", nargs="+", metavar="FILE", help="transaction files")
    command.add_argument("--input-format", choices=sorted(PARSERS), help="format of every FILE")
    command.add_argument("--format", choices=["text", "json", "csv"], default="text")
    command.add_argument("--from", dest="start", help="first date to include (YYYY-MM-DD)")
    command.add_argument("--to", dest="end", help="last date to include (YYYY-MM-DD)")


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="ledger", description=__doc__)
    commands = parser.add_subparsers(dest="command", required=True)
    summary = commands.add_parser("summary", help="balances per account, totals per category")
    _add_input_options(summary)
    check = commands.add_parser("check", help="alerts of budget rules; exit 1 when any")
    _add_input_options(check)
    check.add_argument("--rules", required=True, help="the JSON rules file")
    return parser


def date_range(args: argparse.Namespace) -> DateRange:
    """The --from/--to options as a DateRange; a LedgerError if they are bad."""
    start = parse_date(args.start, "--from") if args.start else None
    end = parse_date(args.end, "--to") if args.end else None
    if start and end and start > end:
        raise LedgerError(f"--from {start} is after --to {end}")
    return DateRange(start, end)


def selected_transactions(args: argparse.Namespace) -> list[Transaction]:
    """The transactions of the FILE arguments within --from/--to."""
    dates = date_range(args)
    return in_range(read_transactions(args.files, args.input_format), dates)


def run_summary(args: argparse.Namespace) -> int:
    transactions = selected_transactions(args)
    sys.stdout.write(SUMMARY_FORMATS[args.format](summarize(transactions)))
    return 0


def run_check(args: argparse.Namespace) -> int:
    rules = load_rules(args.rules)
    alerts = evaluate(rules, selected_transactions(args))
    sys.stdout.write(ALERT_FORMATS[args.format](alerts))
    return 1 if alerts else 0


COMMANDS = {"summary": run_summary, "check": run_check}


def main(argv: list[str] | None = None) -> int:
    args = _parser().parse_args(argv)
    try:
        return COMMANDS[args.command](args)
    except LedgerError as error:
        print(f"error: {error}", file=sys.stderr)
        return 2


if __name__ == "__main__":
    sys.exit(main())
