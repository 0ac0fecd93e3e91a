"""The runs a board counts: per group, the latest ok run of each (model, task), as rows.

A board reads runs in one of two shapes. `Outcome` is one stored run with the
fields the board uses (`outcome` makes one from a `slopmark.store.Run`; the
gate, comparisons and tests pass lists of them). A *counted row* is the
compact form a board keeps per (model, task): the fields of `COUNTED`, in
that order, as a plain tuple or a database row (`slopmark.board.grouprows` reads
them straight from the store, one group at a time, already in this layout).

Which run counts: per (model, task) the latest ok run, the one stored last
(highest store id). Errored runs count in no statistic; `GroupRuns.errors`
says how many each model had. A model's counted rows are read as `Columns`
(one tuple per field, row i of each is one task), which is what the
statistics take.
"""

from __future__ import annotations

from collections import Counter, defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from itertools import groupby
from operator import itemgetter
from typing import TYPE_CHECKING, Any, NamedTuple

from slopmark.board.checkpoints import CODE_ITERATIVE_DOMAIN
from slopmark.gcpause import gc_paused

if TYPE_CHECKING:
    from slopmark.store.runs import Run

CALIBRATION_DOMAIN = "calibration"

#: one counted run: the fields of `COUNTED` in order (a tuple or a database row)
CountedRow = Sequence[Any]


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
    #: the details of a `code_iterative` run (a mapping or JSON text), else None
    checkpoint: Any = None

    @property
    def cluster(self) -> str:
        return self.template_id or f"task:{self.task_id}"


def outcome(run: Run) -> Outcome:
    """The board's view of a stored run; the run must carry its store id.

    Confidence and correctness are read from the details of calibration runs only, and
    the whole details are kept for `code_iterative` runs only (`board.checkpoints`).
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
        run.details if run.domain == CODE_ITERATIVE_DOMAIN else None,
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


#: an outcome's four group fields as a plain tuple (a cheap key for big inputs)
group_key = itemgetter(0, 1, 2, 3)


def group_of(item: Outcome) -> Group:
    return Group(*group_key(item))


class Columns(NamedTuple):
    """One model's counted runs as columns: row i of every field is one task.

    Booleans may arrive as 0/1 (SQLite returns them so): read them with `truthy`.
    ``cluster`` is the template id, or ``task:<task id>`` for a task without one.
    """

    model: tuple[str, ...]
    ok: tuple[Any, ...]  # status == "ok"
    task_id: tuple[str, ...]
    cluster: tuple[str, ...]
    source: tuple[str, ...]
    passed: tuple[Any, ...]
    score: tuple[float | None, ...]
    latency_ms: tuple[float | None, ...]
    cost_usd: tuple[float | None, ...]
    paste: tuple[Any, ...]
    confidence: tuple[float | None, ...]
    correct: tuple[Any, ...]
    #: a `code_iterative` run's details (a mapping or JSON text); None for other domains
    checkpoint: tuple[Any, ...]
    #: the store id; None on rows read in store order (`GroupRuns.add_sorted`)
    order: tuple[int | None, ...]


#: the fields of a counted row, in order
COUNTED = Columns._fields
_MODEL, _OK, _TASK = 0, 1, 2
_ORDER = len(COUNTED) - 1


def counted(item: Outcome) -> tuple[Any, ...]:
    """An outcome as a counted row (`COUNTED`)."""
    return (
        item.model, item.status == "ok", item.task_id, item.cluster, item.source, item.passed,
        item.score, item.latency_ms, item.cost_usd, item.paste, item.confidence,
        item.correct, item.checkpoint, item.order,
    )  # fmt: skip


def columns(rows: Sequence[CountedRow]) -> Columns:
    """Counted rows transposed into columns (all empty for no rows)."""
    if not rows:
        return Columns._make(() for _ in COUNTED)
    return Columns._make(zip(*rows, strict=True))


def truthy(values: Iterable[Any]) -> list[bool]:
    """Booleans of stored flags: True, 1 → True; False, 0, None → False."""
    return list(map(bool, values))


@dataclass
class GroupRuns:
    """One group's counted row per model and task, and errored runs per model."""

    latest: dict[str, dict[str, CountedRow]] = field(default_factory=lambda: defaultdict(dict))
    errors: Counter[str] = field(default_factory=Counter)
    models: set[str] = field(default_factory=set)

    def add(self, item: Outcome) -> None:
        """Count one outcome, in any order (the highest store id wins)."""
        self.models.add(item.model)
        if item.status != "ok":
            self.errors[item.model] += 1
            return
        mine = self.latest[item.model]
        held = mine.get(item.task_id)
        if held is None or item.order > held[_ORDER]:
            mine[item.task_id] = counted(item)

    def add_sorted(self, rows: Iterable[CountedRow]) -> None:
        """Count rows sorted by model, task and store order (the last ok row of a task wins)."""
        for model, items in groupby(rows, key=itemgetter(_MODEL)):
            self.models.add(model)
            everything = list(items)
            ok = [row for row in everything if row[_OK]]
            if len(ok) < len(everything):
                self.errors[model] += len(everything) - len(ok)
            if ok:
                self.latest[model].update(zip(map(itemgetter(_TASK), ok), ok, strict=True))


def collect(outcomes: Iterable[Outcome]) -> dict[Group, GroupRuns]:
    """Each group's runs: the latest ok run per (model, task) and errored-run counts."""
    groups: dict[tuple[str, ...], GroupRuns] = defaultdict(GroupRuns)
    with gc_paused():
        for item in outcomes:
            groups[group_key(item)].add(item)
    return {Group(*key): runs for key, runs in groups.items()}
