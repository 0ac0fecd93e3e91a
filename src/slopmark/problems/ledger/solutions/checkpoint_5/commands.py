"""The sub-commands: each takes the parsed arguments and returns the exit status."""

from __future__ import annotations

import argparse
import sys

from dates import option_range
from engine import evaluate
from errors import LedgerError
from readers import read_transactions
from render import SUMMARY_FORMATS
from render_alerts import ALERT_FORMATS
from rules import load_rules
from state import load_state, merge, save_state
from summary import in_range, summarize
from transactions import Transaction


def _source(args: argparse.Namespace) -> list[Transaction]:
    if args.state is not None and args.files:
        raise LedgerError("give transaction files or --state, not both")
    if args.state is not None:
        return load_state(args.state)
    if not args.files:
        raise LedgerError("give at least one transaction file or --state")
    return read_transactions(args.files, args.input_format)


def selected_transactions(args: argparse.Namespace) -> list[Transaction]:
    """The transactions of the files (or the state) within the date options."""
    dates = option_range(args.start, args.end, args.month)
    return in_range(_source(args), dates)


def run_summary(args: argparse.Namespace) -> int:
    """Print the account and category tables; used by `summary` and `report`."""
    transactions = selected_transactions(args)
    sys.stdout.write(SUMMARY_FORMATS[args.format](summarize(transactions)))
    return 0


def run_check(args: argparse.Namespace) -> int:
    """Print the alerts of the rules; exit 1 when there is any."""
    rules = load_rules(args.rules)
    alerts = evaluate(rules, selected_transactions(args))
    sys.stdout.write(ALERT_FORMATS[args.format](alerts))
    return 1 if alerts else 0


def run_import(args: argparse.Namespace) -> int:
    """Add the new transactions of the files to the state file."""
    incoming = read_transactions(args.files, args.input_format)
    result = merge(load_state(args.state, missing_ok=True), incoming)
    save_state(args.state, result.stored)
    print(f"imported {result.imported}, skipped {result.skipped}")
    return 0


COMMANDS = {
    "summary": run_summary,
    "check": run_check,
    "import": run_import,
    "report": run_summary,
}
