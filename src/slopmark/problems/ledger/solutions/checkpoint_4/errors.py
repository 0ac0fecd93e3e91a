"""The one error the ledger raises for bad input."""

from __future__ import annotations


class LedgerError(Exception):
    """Bad input (arguments, files, rows): printed as one line on stderr, exit code 2."""
