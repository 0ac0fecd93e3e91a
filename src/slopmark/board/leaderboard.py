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
  ECE, Brier score and overconfidence per model (from run details).
"""

from __future__ import annotations

import gc
from collections import Counter, defaultdict
from collections.abc import Iterable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import asdict, dataclass, field, replace
from itertools import groupby, pairwise
from operator import itemgetter
from statistics import fmean
from typing import TYPE_CHECKING, Any, NamedTuple

from slopmark.board.calibration import CalibrationReport, calibration
from slopmark.board.sample_size import n_for_margin
from slopmark.board.stats import Interval, clustered_mean, paired, pass_rate_interval
from slopmark.board.stats import ties_contain_zero as _tied
from slopmark.errors import BadInput

if TYPE_CHECKING:
    from slopmark.store.runs import Run

MIN_DISPLAY = 5
MIN_RANK = 10
TASK_SETS = ("common", "all")
CALIBRATION_DOMAIN = "calibration"
#: the margin of error `adequacy` asks of a pool (±3 points at 95%)
MARGIN = 0.03


class Outcome(NamedTuple):
    """The fields of one run the board reads (``order`` is the store id)."""

    domain: str
    harness_version: str
    task_set_version: str
    mode: str
    model: str
    task_id: str
    template_id: str | None
    source: str
    status: str
    passed: bool | None
    score: float | None
    latency_ms: float | None
    cost_usd: float | None
    paste: bool
    order: int
    confidence: float | None = None
    correct: bool | None = None

    @property
    def cluster(self) -> str:
        return self.template_id or f"task:{self.task_id}"


def outcome(run: Run) -> Outcome:
    """The board's view of a stored run; the run must carry its store id.

    Confidence and correctness are read from the details of calibration runs only.
    """
    if run.id is None:
        raise ValueError(f"run of task {run.task_id!r} has no store id; insert it first")
    details = run.details if run.domain == CALIBRATION_DOMAIN else {}
    confidence, correct = details.get("confidence"), details.get("correct")
    return Outcome(
        run.domain, run.harness_version, run.task_set_version, run.mode, run.model,
        run.task_id, run.template_id, run.source, run.status, run.passed, run.score,
        run.latency_ms, run.cost_usd, run.paste, run.id,
        None if confidence is None else float(confidence),
        None if correct is None else bool(correct),
    )  # fmt: skip


@dataclass(frozen=True, order=True)
class Group:
    """Runs that may share one ranking: never merged across these four."""

    domain: str
    harness_version: str
    task_set_version: str
    mode: str

    def label(self) -> str:
        return (
            f"{self.domain} · harness {self.harness_version} · "
            f"task set {self.task_set_version} · mode {self.mode}"
        )


def group_of(item: Outcome) -> Group:
    return Group(*_group_key(item))


#: an outcome's four group fields as a plain tuple (a cheap key for big inputs)
_group_key = itemgetter(0, 1, 2, 3)


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


@dataclass
class GroupRuns:
    """One group's counted (latest ok) outcome per model and task, and errored runs per model."""

    latest: dict[str, dict[str, Outcome]] = field(default_factory=lambda: defaultdict(dict))
    errors: Counter[str] = field(default_factory=Counter)
    models: set[str] = field(default_factory=set)

    def add(self, item: Outcome) -> None:
        self.models.add(item.model)
        if item.status != "ok":
            self.errors[item.model] += 1
            return
        mine = self.latest[item.model]
        held = mine.get(item.task_id)
        if held is None or item.order > held.order:
            mine[item.task_id] = item


@contextmanager
def _gc_paused() -> Iterator[None]:
    """The cyclic garbage collector paused (and resumed if it ran before).

    Collecting keeps every counted outcome, an acyclic tuple; with the collector
    on, each of its full passes walks them all again, which took about 40% of a
    125,000-run board. Nothing is lost: cycles made meanwhile are found later.
    """
    enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if enabled:
            gc.enable()


def collect(outcomes: Iterable[Outcome]) -> dict[Group, GroupRuns]:
    """Each group's runs: the latest ok run per (model, task) and errored-run counts."""
    groups: dict[tuple[str, ...], GroupRuns] = defaultdict(GroupRuns)
    with _gc_paused():
        for item in outcomes:
            groups[_group_key(item)].add(item)
    return {Group(*key): runs for key, runs in groups.items()}


def leaderboard(
    outcomes: Iterable[Outcome], tasks: str = "common", models: Sequence[str] = ()
) -> tuple[Board, ...]:
    """One board per group in ``outcomes``, in group order; ``models`` limits who is listed
    (a group where none of them ran gives no board)."""
    if tasks not in TASK_SETS:
        raise BadInput(f"tasks {tasks!r}: must be one of {', '.join(TASK_SETS)}")
    groups = collect(outcomes)
    boards = (_board(group, groups[group], tasks, models) for group in sorted(groups))
    return tuple(board for board in boards if board.rows or board.hidden)


def stream_boards(
    outcomes: Iterable[Outcome], tasks: str = "common", models: Sequence[str] = ()
) -> Iterator[Board]:
    """Boards of outcomes sorted by group, one group in memory at a time."""
    for _, items in groupby(outcomes, key=_group_key):
        yield from leaderboard(items, tasks, models)


def _board(group: Group, runs: GroupRuns, tasks: str, models: Sequence[str]) -> Board:
    wanted = set(models) or runs.models
    own = {m: runs.latest.get(m, {}) for m in sorted(wanted & runs.models)}
    listed = {m: done for m, done in own.items() if len(done) >= MIN_DISPLAY}
    seen = set().union(*own.values())
    used = sorted(_common(listed.values()) if tasks == "common" else seen)
    rows, hidden = _rows(listed, used, len(seen), runs.errors)
    hidden += [Hidden(m, len(done), runs.errors[m]) for m, done in own.items() if m not in listed]
    comparable = tasks == "common"
    if comparable:
        rows = _ranked(rows, listed, used)
    hidden.sort(key=lambda item: item.model)
    return Board(group, tasks, comparable, len(seen), len(used), tuple(rows), tuple(hidden))


def _rows(
    listed: Mapping[str, Mapping[str, Outcome]],
    used: Sequence[str],
    seen: int,
    errors: Counter[str],
) -> tuple[list[Row], list[Hidden]]:
    """Rows of the models with 5 or more counted runs on ``used``, sorted; the others hidden."""
    rows: list[Row] = []
    hidden: list[Hidden] = []
    for model, done in listed.items():
        chosen = [done[t] for t in used if t in done]
        if len(chosen) < MIN_DISPLAY:
            hidden.append(Hidden(model, len(chosen), errors[model]))
            continue
        coverage = Coverage(len(done), seen, len(done) - len(chosen))
        rows.append(_row(model, chosen, coverage, errors[model]))
    return sorted(rows, key=_order), hidden


def _common(task_sets: Iterable[Mapping[str, Outcome]]) -> set[str]:
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


def passes(items: Iterable[Outcome]) -> list[bool]:
    """Whether each run passed (an ok run never stores None here; None counts as not)."""
    return [item.passed is True for item in items]


def scores(items: Iterable[Outcome]) -> list[float]:
    """The scores of runs known to have one (filter with ``score is not None`` first)."""
    return [float(item.score or 0.0) for item in items]


def clusters(items: Iterable[Outcome]) -> list[str]:
    return [item.cluster for item in items]


class _Usage(NamedTuple):
    latency: float | None
    latency_known: int
    cost: float | None
    cost_known: int
    priced: int


def _mean_known(values: Iterable[float | None]) -> tuple[float | None, int]:
    known = [value for value in values if value is not None]
    return (fmean(known) if known else None), len(known)


def _usage(chosen: Sequence[Outcome]) -> _Usage:
    """Latency and cost over non-paste runs whose value is known (module doc)."""
    priced = [item for item in chosen if not item.paste]
    latency, latency_known = _mean_known(item.latency_ms for item in priced)
    cost, cost_known = _mean_known(item.cost_usd for item in priced)
    return _Usage(latency, latency_known, cost, cost_known, len(priced))


def _row(model: str, chosen: Sequence[Outcome], coverage: Coverage, errors: int) -> Row:
    passed, cluster_ids = passes(chosen), clusters(chosen)
    usage = _usage(chosen)
    return Row(
        model=model,
        n=len(chosen),
        templates=len(set(cluster_ids)),
        passed=sum(passed),
        pass_rate=pass_rate_interval(passed, cluster_ids),
        avg_score=_score(chosen, cluster_ids),
        avg_latency_ms=usage.latency,
        latency_known=usage.latency_known,
        avg_cost_usd=usage.cost,
        cost_known=usage.cost_known,
        priced_runs=usage.priced,
        paste_runs=len(chosen) - usage.priced,
        errors=errors,
        coverage=coverage,
        sources=tuple(sorted({item.source for item in chosen})),
        provisional=len(chosen) < MIN_RANK,
        calibration=_calibration(chosen),
    )


def _score(chosen: Sequence[Outcome], cluster_ids: list[str]) -> Interval:
    """The mean score, clustered, over the runs that have a score.

    Scores live in [0, 1], so the t interval is clipped to that range (a
    symmetric interval on bounded data can otherwise promise impossible values).
    """
    scored = [item for item in chosen if item.score is not None]
    if len(scored) < len(chosen):
        cluster_ids = clusters(scored)
    interval = clustered_mean(scores(scored), cluster_ids)
    if interval.low is None or interval.high is None:
        return interval
    return replace(interval, low=max(0.0, interval.low), high=min(1.0, interval.high))


def _calibration(chosen: Sequence[Outcome]) -> CalibrationReport | None:
    """Calibration of the runs that stated a confidence (calibration domain only)."""
    if not chosen or chosen[0].domain != CALIBRATION_DOMAIN:
        return None
    stated = [item for item in chosen if item.confidence is not None]
    confidences = [float(item.confidence or 0.0) for item in stated]
    return calibration(confidences, [item.correct is True for item in stated])


def _ranked(
    rows: Sequence[Row], listed: Mapping[str, Mapping[str, Outcome]], used: Sequence[str]
) -> list[Row]:
    """Rows with their rank bands (see the module doc); provisional rows keep none."""
    ranked = [row for row in rows if not row.provisional]
    if not ranked:
        return list(rows)
    ties = [_tie(listed[a.model], listed[b.model], used) for a, b in pairwise(ranked)]
    bands = {row.model: band for row, band in zip(ranked, rank_bands(ties), strict=True)}
    return [_with_rank(row, bands.get(row.model)) for row in rows]


def _tie(a: Mapping[str, Outcome], b: Mapping[str, Outcome], used: Sequence[str]) -> bool:
    """Whether the paired pass/fail difference of A and B on ``used`` has a CI holding 0."""
    a_runs, b_runs = [a[t] for t in used], [b[t] for t in used]
    a_pass, b_pass = passes(a_runs), passes(b_runs)
    as_numbers = [float(x) for x in a_pass], [float(x) for x in b_pass]
    return _tied(paired(*as_numbers, clusters(a_runs), a_pass, b_pass))


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
