"""The tasks × models matrix: each task's verdict per model, the matrix's row filters, and
the per-template paired test between two models.

Which run a cell shows is what the leaderboard counts (`slopmark.board.counted`): per
(model, task) the latest ok run, the one stored last. Its verdict is pass or fail (an ok
run without a verdict counts as failed, as in the pass rate). A cell whose runs all
errored is *errored*: an errored run is not a failed run, so it is neither a failure nor
a verdict that differs. A model with no run of the task has no cell. ``runs`` counts
every stored run of the cell, errored ones included.

The store gives a cell as three numbers (`cell`): the latest ok run packed with its
verdict, ``4·id + 2`` for a pass and ``4·id + 1`` for a fail (one ``max`` in SQL picks
the latest ok run and its verdict together), the latest run's id, and the run count.

"Significant" templates come from `board compare`'s statistics
(`slopmark.board.stats.paired`) on one template's tasks that both models ran, each task
its own pair: a template is significant when McNemar's exact test on the pass/fail
pairs gives p < `ALPHA`. An exact test on few tasks claims little: with five tasks
p is at least 0.0625, so a template needs six discordant pairs all one way or more.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import NamedTuple

from slopmark.board.counted import COUNTED, CountedRow, columns, truthy
from slopmark.board.stats import PairedComparison, paired

PASS, FAIL, ERRORED = "pass", "fail", "errored"
VERDICTS = (PASS, FAIL, ERRORED)
#: the significance level of the template filter
ALPHA = 0.05
#: the packed verdicts of an ok run: 4·id + code
PASSED_CODE, FAILED_CODE = 2, 1
_SCORE, _CLUSTER = COUNTED.index("score"), COUNTED.index("cluster")


class Cell(NamedTuple):
    """One model on one task: the verdict of the run shown, that run, and how many runs
    (a tuple: a page builds thousands)."""

    verdict: str
    run_id: int
    runs: int


def cell(latest_ok: int | None, latest: int, runs: int) -> Cell:
    """A cell from the store's numbers: the packed latest ok run (None: every run errored),
    the latest run's id and the number of runs."""
    if latest_ok is None:
        return Cell(ERRORED, latest, runs)
    run_id, code = divmod(latest_ok, 4)
    return Cell(PASS if code == PASSED_CODE else FAIL, run_id, runs)


@dataclass(frozen=True)
class Row:
    """One task: its template (None: none) and its cell per model (no key: no run)."""

    template_id: str | None
    task_id: str
    cells: Mapping[str, Cell]

    @property
    def cluster(self) -> str:
        """The template, or ``task:<id>`` for a task without one (as the board clusters)."""
        return self.template_id or f"task:{self.task_id}"

    def line(self, models: Iterable[str]) -> list[Cell | None]:
        """The cells of ``models`` in order (None: no run)."""
        return [self.cells.get(model) for model in models]

    def verdicts(self) -> set[str]:
        """The distinct verdicts (pass, fail) of the models with an ok run."""
        return {found.verdict for found in self.cells.values() if found.verdict != ERRORED}


@dataclass(frozen=True)
class Filters:
    """Which rows the matrix keeps; each filter given narrows it."""

    #: only rows where a shown model failed
    failures: bool = False
    #: only rows whose verdicts differ across the shown models (one passed, one failed)
    differ: bool = False
    #: only rows of these templates (None: every template)
    templates: frozenset[str] | None = None

    def keeps(self, row: Row) -> bool:
        verdicts = row.verdicts()
        return (
            (not self.failures or FAIL in verdicts)
            and (not self.differ or len(verdicts) > 1)
            and (self.templates is None or row.cluster in self.templates)
        )


@dataclass(frozen=True)
class TemplatePair:
    """Model A against model B on the tasks of one template that both ran."""

    template_id: str
    comparison: PairedComparison

    @property
    def significant(self) -> bool:
        p = self.comparison.mcnemar_p
        return p is not None and p < ALPHA


def _compared(template: str, a: list[CountedRow], b: list[CountedRow]) -> TemplatePair:
    """`paired` on the tasks where both runs have a score, each task its own cluster."""
    both = [
        (x, y) for x, y in zip(a, b, strict=True)
        if x[_SCORE] is not None and y[_SCORE] is not None
    ]  # fmt: skip
    a_rows, b_rows = columns([x for x, _ in both]), columns([y for _, y in both])
    comparison = paired(
        [float(x) for x in a_rows.score if x is not None],
        [float(y) for y in b_rows.score if y is not None],
        a_rows.task_id, truthy(a_rows.passed), truthy(b_rows.passed),
    )  # fmt: skip
    return TemplatePair(template, comparison)


def template_pairs(
    a: Mapping[str, CountedRow], b: Mapping[str, CountedRow]
) -> dict[str, TemplatePair]:
    """Per template (its cluster), A against B on the tasks both have a counted run of:
    ``a`` and ``b`` are each model's counted rows by task (`GroupRuns.latest`)."""
    tasks: defaultdict[str, list[str]] = defaultdict(list)
    for task in sorted(a.keys() & b.keys()):
        tasks[a[task][_CLUSTER]].append(task)
    return {
        template: _compared(template, [a[t] for t in found], [b[t] for t in found])
        for template, found in sorted(tasks.items())
    }


def significant(pairs: Iterable[TemplatePair]) -> frozenset[str]:
    """The templates whose paired difference is significant."""
    return frozenset(pair.template_id for pair in pairs if pair.significant)
