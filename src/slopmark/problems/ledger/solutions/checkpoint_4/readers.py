"""Pick the input format of a file and read its transactions."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from csv_format import parse_csv
from errors import LedgerError
from jsonl_format import parse_jsonl
from qif_format import parse_qif
from transactions import Transaction

Parser = Callable[[str, str], list[Transaction]]

PARSERS: dict[str, Parser] = {"csv": parse_csv, "jsonl": parse_jsonl, "qif": parse_qif}
EXTENSIONS = {".csv": "csv", ".jsonl": "jsonl", ".ndjson": "jsonl", ".qif": "qif"}


def read_text(path: str) -> str:
    """The file's text, or a LedgerError naming the path."""
    try:
        return Path(path).read_text(encoding="utf-8")
    except FileNotFoundError:
        raise LedgerError(f"{path}: no such file") from None
    except (OSError, UnicodeDecodeError) as error:
        raise LedgerError(f"{path}: cannot read ({error})") from None


def detect_format(path: str) -> str:
    """The input format named by the file's extension."""
    found = EXTENSIONS.get(Path(path).suffix.lower())
    if found is None:
        known = ", ".join(sorted(EXTENSIONS))
        raise LedgerError(
            f"{path}: cannot tell the input format from the extension ({known}); "
            "use --input-format"
        )
    return found


def read_transactions(paths: list[str], input_format: str | None) -> list[Transaction]:
    """The transactions of every file, in order; ``input_format`` overrides detection."""
    found: list[Transaction] = []
    for path in paths:
        parse = PARSERS[input_format or detect_format(path)]
        found.extend(parse(read_text(path), path))
    return found
