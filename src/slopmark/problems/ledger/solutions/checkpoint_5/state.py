"""The state file: every imported transaction, kept as one JSON document.

```
{"format": "ledger-state", "version": 1,
 "transactions": [{"date": "2024-01-05", "account": "checking", "amount": "-45.20",
                   "category": "food", "memo": "Groceries"}, ...]}
```
Writes go to a temporary file first and then replace the state, so a failed
run never leaves a half-written state behind.
"""

from __future__ import annotations

import json
import os
import tempfile
from collections import Counter
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from errors import LedgerError
from readers import read_text
from transactions import Transaction, build_transaction

FORMAT_TAG = "ledger-state"
VERSION = 1


@dataclass(frozen=True)
class ImportResult:
    """How many incoming transactions were new and how many were already stored."""

    stored: tuple[Transaction, ...]
    imported: int
    skipped: int


def _record(txn: Transaction) -> dict[str, str]:
    return {
        "date": txn.date.isoformat(),
        "account": txn.account,
        "amount": str(txn.amount),
        "category": txn.category,
        "memo": txn.memo,
    }


def _transaction(raw: Any, where: str) -> Transaction:
    if not isinstance(raw, dict) or not all(isinstance(value, str) for value in raw.values()):
        raise LedgerError(f"{where}: expected an object of strings")
    return build_transaction(raw, where)


def _document(path: str) -> dict[str, Any]:
    try:
        document = json.loads(read_text(path))
    except json.JSONDecodeError:
        document = None
    if not isinstance(document, dict) or document.get("format") != FORMAT_TAG:
        raise LedgerError(f"{path}: not a ledger state file")
    if document.get("version") != VERSION or not isinstance(document.get("transactions"), list):
        raise LedgerError(f"{path}: unsupported or damaged ledger state (version {VERSION})")
    return document


def load_state(path: str, *, missing_ok: bool = False) -> list[Transaction]:
    """The stored transactions; a missing file is empty only when ``missing_ok``."""
    if not Path(path).exists():
        if missing_ok:
            return []
        raise LedgerError(f"{path}: no such state file (run 'import' first)")
    raws = _document(path)["transactions"]
    return [_transaction(raw, f"{path}: transaction {n}") for n, raw in enumerate(raws, start=1)]


def save_state(path: str, transactions: tuple[Transaction, ...]) -> None:
    """Replace the state at ``path`` atomically."""
    document = {
        "format": FORMAT_TAG,
        "version": VERSION,
        "transactions": [_record(txn) for txn in transactions],
    }
    folder = Path(path).resolve().parent
    try:
        handle, temporary = tempfile.mkstemp(dir=folder, prefix=".ledger-", suffix=".tmp")
        with os.fdopen(handle, "w", encoding="utf-8") as out:
            json.dump(document, out, indent=1)
        os.replace(temporary, path)
    except OSError as error:
        raise LedgerError(f"{path}: cannot write the state ({error.strerror})") from None


def merge(stored: list[Transaction], incoming: list[Transaction]) -> ImportResult:
    """Add the incoming transactions that are not stored yet.

    Identical transactions are counted: if a transaction occurs k times in
    ``incoming`` and s times in ``stored``, max(0, k - s) copies are added.
    """
    have = Counter(stored)
    added: list[Transaction] = []
    for txn, wanted in Counter(incoming).items():
        added.extend([txn] * max(0, wanted - have[txn]))
    return ImportResult(tuple(stored) + tuple(added), len(added), len(incoming) - len(added))
