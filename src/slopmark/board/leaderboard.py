"""Leaderboards from runs: one board per (domain, harness version, task-set version, mode).

The rules (slopmark metrics spec, issue 4), per model on one board:

- Which run counts: per (model, task) the latest ok run, the one stored last
  (highest store id), so a re-run task counts once, with its newest verdict.
  Errored runs count in no statistic; ``errors`` says how many a model had.
- ``pass_rate = passed / n`` and ``avg_score`` = mean score over the counted
  runs, paste runs included, each with a 95% interval clustered by
  ``template_id`` (a task without one is its own cluster) and its ``n`` and
  number of templates. An ok run without a score is left out of the score
  (the score interval's ``n`` says so).
- ``avg_latency_ms`` and ``avg_cost_usd`` are means over non-paste runs
  whose value is known. Unknown stays unknown: with no known cost the cost is
  None, and a partly known cost is the mean over the known ones, shown with
  ``cost_known`` of ``priced_runs``.
- Comparable task sets: with ``tasks="common"`` (the default) a board uses
  only the tasks every listed model ran; ``coverage`` gives each model's own
  count and how many of its tasks were dropped. A model with fewer than 5
  counted runs of its own is not listed (it goes to ``hidden``) so that it
  cannot shrink everyone's common set. ``tasks="all"`` uses every model's own
  tasks; such a board is labelled not comparable and ranks nobody.
- Display: fewer than 5 runs hidden; 5–9 shown as provisional, not ranked;
  10 or more ranked. Rows sort by pass rate, then average score, descending.
- Rank bands: walking the ranked rows in order, two neighbours are tied when
  the 95% CI of their paired pass/fail difference on their common tasks
  contains 0. Ties chain: a run of tied neighbours from place i to place j
  all get the band "i–j" (so A≈B and B≈C put A, B and C in one band even if
  A and C differ). The table then never claims a gap it cannot support.
- Domains are never averaged together; the calibration domain also carries
  ECE, Brier score and overconfidence per model (from run details), and the
  coding benchmark's domain its per-group pass rates, relative churn, CC>10
  callables and time per checkpoint (`slopmark.board.checkpoints`).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import asdict, dataclass, replace
from itertools import groupby, pairwise
from statistics import fmean
from typing import Any, NamedTuple

from slopmark.board.calibration import CalibrationReport, calibration
from slopmark.board.checkpoints import CODE_ITERATIVE_DOMAIN, CheckpointMeans, checkpoint_means
from slopmark.board.counted import (
    CALIBRATION_DOMAIN,
    Columns,
    CountedRow,
    Group,
    GroupRuns,
    Outcome,
    collect,
    columns,
    group_key,
    group_of,
    outcome,
    truthy,
)
from slopmark.board.sample_size import n_for_margin
from slopmark.board.stats import Interval, clustered_mean, pass_rate_interval
from slopmark.board.stats import ties_contain_zero as _tied
from slopmark.errors import BadInput
from slopmark.gcpause import gc_paused

__all__ = [
    "CALIBRATION_DOMAIN",
    "MARGIN",
    "MIN_DISPLAY",
    "MIN_RANK",
    "TASK_SETS",
    "Adequacy",
    "Board",
    "Coverage",
    "Group",
    "GroupRuns",
    "Hidden",
    "Outcome",
    "Row",
    "adequacy",
    "board_json",
    "boards",
    "collect",
    "group_of",
    "leaderboard",
    "outcome",
    "rank_bands",
    "required_tasks",
    "stream_boards",
]

MIN_DISPLAY = 5
MIN_RANK = 10
TASK_SETS = ("common", "all")
#: the margin of error `adequacy` asks of a pool (±3 points at 95%)
MARGIN = 0.03


@dataclass(frozen=True)
class Coverage:
    """``tasks`` the model ran (ok) of the ``of`` tasks on the board; ``dropped`` not used."""

    tasks: int
    of: int
    dropped: int


@dataclass(frozen=True)
class Row:
    model: str
    n: int
    templates: int
    passed: int
    pass_rate: Interval
    avg_score: Interval
    avg_latency_ms: float | None
    latency_known: int
    avg_cost_usd: float | None
    cost_known: int
    priced_runs: int
    paste_runs: int
    errors: int
    coverage: Coverage
    sources: tuple[str, ...]
    provisional: bool
    rank: str | None = None
    calibration: CalibrationReport | None = None
    #: the coding benchmark's numbers (`code_iterative` boards only)
    checkpoints: CheckpointMeans | None = None


@dataclass(frozen=True)
class Hidden:
    """A model with too few counted runs to show (``n`` < 5)."""

    model: str
    n: int
    errors: int


@dataclass(frozen=True)
class Board:
    group: Group
    tasks: str
    comparable: bool
    tasks_seen: int
    tasks_used: int
    rows: tuple[Row, ...]
    hidden: tuple[Hidden, ...]

    @property
    def tasks_dropped(self) -> int:
        return self.tasks_seen - self.tasks_used


def board_json(board: Board) -> dict[str, Any]:
    """The board as JSON-ready data, with its group label and dropped-task count."""
    return asdict(board) | {"label": board.group.label(), "tasks_dropped": board.tasks_dropped}


def _check_tasks(tasks: str) -> None:
    if tasks not in TASK_SETS:
        raise BadInput(f"tasks {tasks!r}: must be one of {', '.join(TASK_SETS)}")


def leaderboard(
    outcomes: Iterable[Outcome], tasks: str = "common", models: Sequence[str] = ()
) -> tuple[Board, ...]:
    """One board per group in ``outcomes``, in group order; ``models`` limits who is listed
    (a group where none of them ran gives no board)."""
    _check_tasks(tasks)
    groups = collect(outcomes)
    return tuple(boards(sorted(groups.items()), tasks, models))


def stream_boards(
    outcomes: Iterable[Outcome], tasks: str = "common", models: Sequence[str] = ()
) -> Iterator[Board]:
    """Boards of outcomes sorted by group, one group in memory at a time."""
    for _, items in groupby(outcomes, key=group_key):
        yield from leaderboard(items, tasks, models)


def boards(
    groups: Iterable[tuple[Group, GroupRuns]], tasks: str = "common", models: Sequence[str] = ()
) -> Iterator[Board]:
    """The board of each group's counted runs, in the order given (groups with nobody
    listed give none); `slopmark.board.grouprows.stream_group_runs` reads them from a store."""
    _check_tasks(tasks)
    pending = iter(groups)
    while (board := _next_board(pending, tasks, models)) is not None:
        if board.rows or board.hidden:
            yield board


def _next_board(
    groups: Iterator[tuple[Group, GroupRuns]], tasks: str, models: Sequence[str]
) -> Board | None:
    """The next group's board, read and computed with the garbage collector paused
    (see `gc_paused`); its counted runs are freed before the collector resumes."""
    with gc_paused():
        found = next(groups, None)
        return None if found is None else _board(*found, tasks, models)


def _board(group: Group, runs: GroupRuns, tasks: str, models: Sequence[str]) -> Board:
    wanted = set(models) or runs.models
    own = {m: runs.latest.get(m, {}) for m in sorted(wanted & runs.models)}
    listed = {m: done for m, done in own.items() if len(done) >= MIN_DISPLAY}
    seen = set().union(*own.values())
    used = sorted(_common(listed.values()) if tasks == "common" else seen)
    rows, hidden, chosen = _rows(group, listed, used, len(seen), runs.errors)
    hidden += [Hidden(m, len(done), runs.errors[m]) for m, done in own.items() if m not in listed]
    comparable = tasks == "common"
    if comparable:
        rows = _ranked(rows, chosen)
    hidden.sort(key=lambda item: item.model)
    return Board(group, tasks, comparable, len(seen), len(used), tuple(rows), tuple(hidden))


def _chosen(done: Mapping[str, CountedRow], used: Sequence[str]) -> list[CountedRow]:
    return [done[t] for t in used if t in done]


def _rows(
    group: Group,
    listed: Mapping[str, Mapping[str, CountedRow]],
    used: Sequence[str],
    seen: int,
    errors: Counter[str],
) -> tuple[list[Row], list[Hidden], dict[str, Columns]]:
    """Rows of the models with 5 or more counted runs on ``used``, sorted, and the runs
    each row counts (row i of each model's columns: its i-th task of ``used``);
    the other models hidden."""
    rows: list[Row] = []
    hidden: list[Hidden] = []
    counted: dict[str, Columns] = {}
    for model, done in listed.items():
        chosen = _chosen(done, used)
        if len(chosen) < MIN_DISPLAY:
            hidden.append(Hidden(model, len(chosen), errors[model]))
            continue
        coverage = Coverage(len(done), seen, len(done) - len(chosen))
        counted[model] = columns(chosen)
        rows.append(_row(model, counted[model], coverage, errors[model], group.domain))
    return sorted(rows, key=_order), hidden, counted


def _common(task_sets: Iterable[Mapping[str, CountedRow]]) -> set[str]:
    sets = [set(done) for done in task_sets]
    return set.intersection(*sets) if sets else set()


def _order(row: Row) -> tuple[float, float, str]:
    score = row.avg_score.estimate
    rate = row.pass_rate.estimate
    return (
        -(rate if rate is not None else -1.0),
        -(score if score is not None else float("-inf")),
        row.model,
    )


class _Usage(NamedTuple):
    latency: float | None
    latency_known: int
    cost: float | None
    cost_known: int
    priced: int


def _mean_known(values: Iterable[float | None]) -> tuple[float | None, int]:
    known = [value for value in values if value is not None]
    return (fmean(known) if known else None), len(known)


def _usage(runs: Columns) -> _Usage:
    """Latency and cost over non-paste runs whose value is known (module doc)."""
    priced = [i for i, paste in enumerate(runs.paste) if not paste]
    latency, latency_known = _mean_known(runs.latency_ms[i] for i in priced)
    cost, cost_known = _mean_known(runs.cost_usd[i] for i in priced)
    return _Usage(latency, latency_known, cost, cost_known, len(priced))


def _row(model: str, runs: Columns, coverage: Coverage, errors: int, domain: str) -> Row:
    passed, cluster_ids = truthy(runs.passed), list(runs.cluster)
    usage = _usage(runs)
    return Row(
        model=model,
        n=len(passed),
        templates=len(set(cluster_ids)),
        passed=sum(passed),
        pass_rate=pass_rate_interval(passed, cluster_ids),
        avg_score=_score(runs),
        avg_latency_ms=usage.latency,
        latency_known=usage.latency_known,
        avg_cost_usd=usage.cost,
        cost_known=usage.cost_known,
        priced_runs=usage.priced,
        paste_runs=len(passed) - usage.priced,
        errors=errors,
        coverage=coverage,
        sources=tuple(sorted(set(runs.source))),
        provisional=len(passed) < MIN_RANK,
        calibration=_calibration(runs) if domain == CALIBRATION_DOMAIN else None,
        checkpoints=checkpoint_means(runs.checkpoint) if domain == CODE_ITERATIVE_DOMAIN else None,
    )


def _score(runs: Columns) -> Interval:
    """The mean score, clustered, over the runs that have a score.

    Scores live in [0, 1], so the t interval is clipped to that range (a
    symmetric interval on bounded data can otherwise promise impossible values).
    """
    scored = [(s, c) for s, c in zip(runs.score, runs.cluster, strict=True) if s is not None]
    interval = clustered_mean([float(s) for s, _ in scored], [c for _, c in scored])
    if interval.low is None or interval.high is None:
        return interval
    return replace(interval, low=max(0.0, interval.low), high=min(1.0, interval.high))


def _calibration(runs: Columns) -> CalibrationReport:
    """Calibration of the runs that stated a confidence (calibration domain only)."""
    stated = [(c, ok) for c, ok in zip(runs.confidence, runs.correct, strict=True) if c is not None]
    return calibration([float(c) for c, _ in stated], truthy(ok for _, ok in stated))


def _ranked(rows: Sequence[Row], counted: Mapping[str, Columns]) -> list[Row]:
    """Rows with their rank bands (see the module doc); provisional rows keep none.

    On a comparable board every row counts the same tasks, in the same order."""
    ranked = [row for row in rows if not row.provisional]
    if not ranked:
        return list(rows)
    ties = [_tie(counted[a.model], counted[b.model]) for a, b in pairwise(ranked)]
    bands = {row.model: band for row, band in zip(ranked, rank_bands(ties), strict=True)}
    return [_with_rank(row, bands.get(row.model)) for row in rows]


def _tie(a: Columns, b: Columns) -> bool:
    """Whether the paired pass/fail difference of A and B on the same tasks has a CI
    holding 0: the interval `slopmark.board.stats.paired` gives, without its extras."""
    passes = zip(truthy(a.passed), truthy(b.passed), strict=True)
    differences = [float(x) - float(y) for x, y in passes]
    return _tied(clustered_mean(differences, a.cluster))


def rank_bands(ties: Sequence[bool]) -> list[str]:
    """Bands for places 1..len(ties)+1, where ``ties[i]`` says places i+1 and i+2 are tied."""
    bands: list[str] = []
    start = 1
    for place in range(1, len(ties) + 2):
        if place <= len(ties) and ties[place - 1]:
            continue
        label = str(start) if start == place else f"{start}–{place}"
        bands.extend([label] * (place - start + 1))
        start = place + 1
    return bands


def _with_rank(row: Row, band: str | None) -> Row:
    return row if band is None else replace(row, rank=band)


def required_tasks(sigma: float, margin: float = MARGIN) -> int:
    """Tasks needed for a ±``margin`` 95% interval: n = ⌈(z·σ/E)²⌉ (metrics spec), 1 if σ = 0."""
    return n_for_margin(sigma, margin) if sigma > 0 else 1


@dataclass(frozen=True)
class Adequacy:
    """A domain's pool against the tasks its observed score spread needs.

    ``verdict``: ``adequate`` (templates, the independent unit, suffice),
    ``tasks only`` (tasks suffice but templates do not), ``short`` (too few
    tasks) or ``unknown`` (σ undefined: fewer than 2 scored runs).
    """

    domain: str
    tasks: int
    templates: int
    scores: int
    sigma: float | None
    required: int | None
    verdict: str


def adequacy(domain: str, tasks: int, templates: int, scores: int, sigma: float | None) -> Adequacy:
    """Judge a pool of ``tasks`` from ``templates`` against σ of ``scores`` scored runs."""
    if sigma is None:
        return Adequacy(domain, tasks, templates, scores, None, None, "unknown")
    required = required_tasks(sigma)
    if templates >= required:
        verdict = "adequate"
    else:
        verdict = "tasks only" if tasks >= required else "short"
    return Adequacy(domain, tasks, templates, scores, sigma, required, verdict)
