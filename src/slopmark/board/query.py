"""The board's reads from the run store: filtered runs, streamed from the ``runs`` table.

Every reader here streams (``yield_per``): rows arrive in batches and only
what the caller keeps stays in memory. Outcomes read only the columns the
board uses; the calibration fields come from ``details`` by JSON path, and
`code_iterative` runs bring their whole ``details`` (`slopmark.board.checkpoints`).

The leaderboard's fast read, one statement per board group, is
`slopmark.board.grouprows` (which also defines `RunFilter`).
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass, replace
from math import sqrt
from typing import Any

from sqlalchemy import Engine, case, func, select, text

from slopmark.board.checkpoints import CODE_ITERATIVE_DOMAIN
from slopmark.board.compare import Comparison, compare
from slopmark.board.counted import CALIBRATION_DOMAIN, Outcome
from slopmark.board.gate import GateRequest, GateResult, gate_runs
from slopmark.board.grouprows import GROUP
from slopmark.board.grouprows import RunFilter as RunFilter
from slopmark.errors import BadInput
from slopmark.store.schema import runs

BATCH = 5_000

#: The columns of a task-level export, in order (no output text, no details).
EXPORT_COLUMNS = (
    "id", "domain", "harness_version", "task_set_version", "mode", "model", "provider",
    "task_id", "template_id", "source", "attempt", "status", "passed", "score",
    "latency_ms", "latency_first_byte_ms", "input_tokens", "output_tokens", "cost_usd",
    "paste", "truncated", "finish_reason", "error", "created_at",
)  # fmt: skip


def _calibration_only(value: Any) -> Any:
    """``value`` on calibration runs, else NULL: other runs' details are never parsed."""
    return case((runs.c.domain == CALIBRATION_DOMAIN, value), else_=None)


def _outcome_columns() -> list[Any]:
    names = (*GROUP, "model", "task_id", "template_id", "source", "status", "passed")
    more = ("score", "latency_ms", "cost_usd", "paste", "id")
    return [
        *(runs.c[name] for name in (*names, *more)),
        _calibration_only(runs.c.details["confidence"].as_float()),
        _calibration_only(runs.c.details["correct"].as_boolean()),
        case((runs.c.domain == CODE_ITERATIVE_DOMAIN, runs.c.details), else_=None),
    ]


def _stream(engine: Engine, query: Any) -> Iterator[Sequence[Any]]:
    """The query's rows in batches of `BATCH` (a batch costs less than a row at a time)."""
    with engine.connect() as connection:
        yield from connection.execution_options(yield_per=BATCH).execute(query).partitions()


def stream_outcomes(engine: Engine, where: RunFilter, by_group: bool = False) -> Iterator[Outcome]:
    """The matching runs as outcomes in store order, or grouped by board group first.

    Grouped, a group's runs come per model and task (then store order): the order
    of the ``ix_runs_board`` index, so the database reads it without sorting.
    """
    order = [runs.c[name] for name in (*GROUP, "model", "task_id")] if by_group else []
    query = select(*_outcome_columns()).where(*where.clauses()).order_by(*order, runs.c.id)
    for batch in _stream(engine, query):
        yield from map(Outcome._make, batch)


def stream_records(engine: Engine, where: RunFilter) -> Iterator[dict[str, Any]]:
    """The matching runs as export records (`EXPORT_COLUMNS`), in store order."""
    query = (
        select(*(runs.c[name] for name in EXPORT_COLUMNS))
        .where(*where.clauses())
        .order_by(runs.c.id)
    )
    for batch in _stream(engine, query):
        for row in batch:
            yield dict(zip(EXPORT_COLUMNS, row, strict=True))


def _distinct(engine: Engine, column: Any, where: RunFilter) -> list[str]:
    query = select(column).where(*where.clauses()).distinct().order_by(column)
    with engine.connect() as connection:
        return list(connection.execute(query).scalars())


#: Each stored domain by one probe of ``ix_runs_board`` (domain first): the next domain
#: after the last one found. A plain ``DISTINCT`` reads the whole index instead (~0.13 s
#: on a million runs, on every board page).
_STORED_DOMAINS = text(
    "WITH RECURSIVE found(domain) AS (SELECT min(domain) FROM runs UNION ALL "
    "SELECT (SELECT min(domain) FROM runs WHERE domain > found.domain) FROM found "
    "WHERE found.domain IS NOT NULL) SELECT domain FROM found WHERE domain IS NOT NULL"
)


def stored_domains(engine: Engine) -> list[str]:
    """The domains with runs in the store, sorted."""
    with engine.connect() as connection:
        return list(connection.execute(_STORED_DOMAINS).scalars())


def known_domain(engine: Engine, domain: str) -> str:
    """``domain`` when it is an eval domain or has runs in the store (e.g. the coding
    benchmark's); otherwise `BadInput` with a suggestion."""
    from slopmark.evals.pool import check_domain
    from slopmark.evals.task import DOMAINS

    if domain in DOMAINS:
        return domain
    with engine.connect() as connection:
        found = connection.execute(select(runs.c.id).where(runs.c.domain == domain).limit(1))
        if found.first() is not None:
            return domain
    return check_domain(domain)


def models(engine: Engine, where: RunFilter) -> list[str]:
    """The models with runs matching ``where``, sorted."""
    return _distinct(engine, runs.c.model, where)


def domains(engine: Engine, where: RunFilter) -> list[str]:
    """The domains with runs matching ``where``, sorted."""
    return _distinct(engine, runs.c.domain, where)


@dataclass(frozen=True)
class Spread:
    """The standard deviation of ok runs' scores (None below 2 scores) and their count."""

    n: int
    sigma: float | None


def score_spread(engine: Engine, where: RunFilter) -> Spread:
    """σ of the scores of every matching ok run, computed in the database (sample SD)."""
    score = runs.c.score
    query = select(func.count(score), func.avg(score), func.avg(score * score)).where(
        *where.clauses(), runs.c.status == "ok"
    )
    with engine.connect() as connection:
        n, mean, mean_square = connection.execute(query).one()
    if n < 2:
        return Spread(int(n), None)
    variance = max(float(mean_square) - float(mean) ** 2, 0.0) * n / (n - 1)
    return Spread(int(n), sqrt(variance))


def run_gate(engine: Engine, where: RunFilter, request: GateRequest) -> GateResult:
    """`slopmark.board.gate.gate_runs` on the matching runs of the model (and baseline)."""
    wanted = (request.model, *([request.baseline] if request.baseline else []))
    result = gate_runs(list(stream_outcomes(engine, replace(where, models=wanted))), request)
    if result is None:
        known = ", ".join(models(engine, where)) or "none"
        raise BadInput(f"model {request.model!r}: no runs match {where.label()}; models: {known}")
    return result


def compare_stored(engine: Engine, where: RunFilter, a: str, b: str) -> tuple[Comparison, ...]:
    """`slopmark.board.compare.compare` of models ``a`` and ``b`` on the matching runs
    (``board compare`` and the ``/compare`` page); `BadInput` when they are the same
    model or share no group with ok runs (naming the models that have runs there)."""
    if a == b:
        raise BadInput(f"compare {a!r} with itself: give two different models")
    found = compare(stream_outcomes(engine, replace(where, models=(a, b))), a, b)
    if not found:
        known = ", ".join(models(engine, where)) or "none"
        raise BadInput(
            f"{a!r} and {b!r} have no ok runs in one group of {where.label()}; "
            f"models with runs there: {known}"
        )
    return found
