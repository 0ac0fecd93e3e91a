"""Exports as streams of text chunks: task-level runs or leaderboards, each as JSON or CSV.

Every export takes an iterator and yields text as it goes, so none holds a
whole table: the runs as one JSON document, ``{"format": ..., "runs": [...]}``,
`BATCH` runs per chunk (and per line), or as CSV, a line per run; the
leaderboards as one JSON document, ``{"format": ..., "boards": [...]}``, a
board per chunk, or as CSV, one line per model of each board. Unknown values
are JSON ``null`` and empty CSV cells.

Every stored run is exported (errored runs and re-runs included, with their
``status`` and ``attempt``), so a reader can redo any aggregation; the CSV
holds what the leaderboard counts (see `slopmark.board.leaderboard`).
"""

from __future__ import annotations

import csv
import io
import json
from collections.abc import Iterable, Iterator, Mapping, Sequence
from datetime import datetime
from itertools import islice
from typing import Any

from slopmark.board.leaderboard import Board, Hidden, Row, board_json

JSON_FORMAT = "slopmark.runs/1"
BOARDS_FORMAT = "slopmark.leaderboards/1"
#: records per JSON chunk: few enough to stream, enough to keep writes cheap
BATCH = 1_000

CSV_COLUMNS = (
    "domain", "harness_version", "task_set_version", "mode", "tasks", "comparable",
    "model", "status", "rank", "n", "templates", "passed",
    "pass_rate", "pass_rate_low", "pass_rate_high",
    "avg_score", "avg_score_low", "avg_score_high",
    "avg_latency_ms", "latency_known", "avg_cost_usd", "cost_known", "priced_runs",
    "paste_runs", "errors", "coverage_tasks", "coverage_of", "dropped_tasks", "sources",
)  # fmt: skip


def _plain(value: Any) -> Any:
    """JSON for what `json` cannot encode itself: timestamps as ISO 8601."""
    if isinstance(value, datetime):
        return value.isoformat()
    raise TypeError(f"cannot export {type(value).__name__} value {value!r} as JSON")


_ENCODER = json.JSONEncoder(separators=(",", ":"), allow_nan=False, default=_plain)


def json_chunks(
    records: Iterable[Mapping[str, Any]], meta: Mapping[str, Any] | None = None
) -> Iterator[str]:
    """One JSON document in chunks: the header, `BATCH` records a chunk (a line), the end."""
    head = _ENCODER.encode({"format": JSON_FORMAT, **(meta or {})})
    yield head[:-1] + ',"runs":[\n'
    separator = ""
    for batch in batched(records, BATCH):
        yield separator + _ENCODER.encode(batch)[1:-1]  # a list encodes faster than its items
        separator = ",\n"
    yield "\n]}\n"


def boards_json_chunks(
    boards: Iterable[Board], meta: Mapping[str, Any] | None = None
) -> Iterator[str]:
    """The leaderboards as one JSON document, a board per chunk (and per line)."""
    head = _ENCODER.encode({"format": BOARDS_FORMAT, **(meta or {})})
    yield head[:-1] + ',"boards":[\n'
    separator = ""
    for board in boards:
        yield separator + _ENCODER.encode(board_json(board))
        separator = ",\n"
    yield "\n]}\n"


def csv_rows(columns: Sequence[str], rows: Iterable[Mapping[str, Any]]) -> Iterator[str]:
    """The header (``columns``), then a CSV line per row (a run record, a board's
    model); None is an empty cell, a timestamp ISO 8601."""
    buffer = io.StringIO()
    writer = csv.DictWriter(buffer, columns, lineterminator="\n")
    writer.writeheader()
    for row in rows:
        writer.writerow({key: "" if value is None else _cell(value) for key, value in row.items()})
        yield buffer.getvalue()
        buffer.seek(0)
        buffer.truncate()
    yield buffer.getvalue()


def _cell(value: Any) -> Any:
    return value.isoformat() if isinstance(value, datetime) else spreadsheet_safe(value)


#: What a spreadsheet reads as the start of a formula (OWASP, "CSV Injection").
_FORMULA_START = ("=", "+", "-", "@", "\t", "\r")


def spreadsheet_safe(value: Any) -> Any:
    """``value`` as a CSV cell a spreadsheet shows as text: a string that would start a
    formula (a model name or task id anyone can submit, `=HYPERLINK(…)`) gets a leading
    apostrophe, as OWASP advises; numbers and other strings are kept."""
    if isinstance(value, str) and value.startswith(_FORMULA_START):
        return "'" + value
    return value


def _status(board: Board, row: Row) -> str:
    if not board.comparable:
        return "not comparable"
    return "provisional" if row.provisional else "ranked"


def _row_cells(board: Board, row: Row) -> dict[str, Any]:
    return {
        "status": _status(board, row),
        "rank": row.rank,
        "n": row.n,
        "templates": row.templates,
        "passed": row.passed,
        "pass_rate": row.pass_rate.estimate,
        "pass_rate_low": row.pass_rate.low,
        "pass_rate_high": row.pass_rate.high,
        "avg_score": row.avg_score.estimate,
        "avg_score_low": row.avg_score.low,
        "avg_score_high": row.avg_score.high,
        "avg_latency_ms": row.avg_latency_ms,
        "latency_known": row.latency_known,
        "avg_cost_usd": row.avg_cost_usd,
        "cost_known": row.cost_known,
        "priced_runs": row.priced_runs,
        "paste_runs": row.paste_runs,
        "errors": row.errors,
        "coverage_tasks": row.coverage.tasks,
        "coverage_of": row.coverage.of,
        "dropped_tasks": row.coverage.dropped,
        "sources": " ".join(row.sources),
    }


def _hidden_cells(hidden: Hidden) -> dict[str, Any]:
    return {"status": "hidden", "n": hidden.n, "errors": hidden.errors}


def _board_cells(board: Board) -> Iterator[dict[str, Any]]:
    group = board.group
    common = {
        "domain": group.domain,
        "harness_version": group.harness_version,
        "task_set_version": group.task_set_version,
        "mode": group.mode,
        "tasks": board.tasks,
        "comparable": board.comparable,
    }
    for row in board.rows:
        yield common | {"model": row.model} | _row_cells(board, row)
    for hidden in board.hidden:
        yield common | {"model": hidden.model} | _hidden_cells(hidden)


def batched(items: Iterable[Any], size: int) -> Iterator[list[Any]]:
    """``items`` in lists of ``size`` (the last one shorter), read lazily."""
    iterator = iter(items)
    while batch := list(islice(iterator, size)):
        yield batch


def csv_lines(boards: Iterable[Board]) -> Iterator[str]:
    """The header, then one CSV line per model of each board (hidden models last)."""
    return csv_rows(CSV_COLUMNS, (cells for board in boards for cells in _board_cells(board)))
