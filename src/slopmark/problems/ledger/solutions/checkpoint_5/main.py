"""ledger: a personal-finance ledger — summaries, budget rules and a stored history.

Usage: python main.py summary FILE [FILE ...] [--input-format F] [--format F]
                                  [--from DATE] [--to DATE]
       python main.py check [FILE ...] [--state PATH] --rules RULES [same options]
       python main.py import FILE [FILE ...] --state PATH [--input-format F]
       python main.py report --state PATH [--format F] [--from DATE] [--to DATE]
                                         [--month YYYY-MM]
"""

from __future__ import annotations

import argparse
import sys

from commands import COMMANDS
from errors import LedgerError
from readers import PARSERS

OUTPUT_FORMATS = ["text", "json", "csv"]


def _add_files(command: argparse.ArgumentParser, nargs: str) -> None:
    command.add_argument("files", nargs=nargs, metavar="FILE", help="transaction files")
    command.add_argument("--input-format", choices=sorted(PARSERS), help="format of every FILE")


def _add_view_options(command: argparse.ArgumentParser) -> None:
    command.add_argument("--format", choices=OUTPUT_FORMATS, default="text")
    command.add_argument("--from", dest="start", help="first date to include (YYYY-MM-DD)")
    command.add_argument("--to", dest="end", help="last date to include (YYYY-MM-DD)")


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="ledger", description=__doc__)
    commands = parser.add_subparsers(dest="command", required=True)
    summary = commands.add_parser("summary", help="balances per account, totals per category")
    _add_files(summary, "+")
    _add_view_options(summary)
    summary.set_defaults(state=None, month=None)
    check = commands.add_parser("check", help="alerts of budget rules; exit 1 when any")
    _add_files(check, "*")
    _add_view_options(check)
    check.add_argument("--rules", required=True, help="the JSON rules file")
    check.add_argument("--state", help="check the stored transactions instead of files")
    check.set_defaults(month=None)
    imports = commands.add_parser("import", help="store new transactions in the state file")
    _add_files(imports, "+")
    imports.add_argument("--state", required=True, help="the state file (created if absent)")
    report = commands.add_parser("report", help="the summary of the stored transactions")
    report.add_argument("--state", required=True, help="the state file")
    _add_view_options(report)
    report.add_argument("--month", help="only this month (YYYY-MM)")
    report.set_defaults(files=[], input_format=None)
    return parser


def main(argv: list[str] | None = None) -> int:
    args = _parser().parse_args(argv)
    try:
        return COMMANDS[args.command](args)
    except LedgerError as error:
        print(f"error: {error}", file=sys.stderr)
        return 2


if __name__ == "__main__":
    sys.exit(main())
