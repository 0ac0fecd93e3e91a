"""The coding benchmark's board (pure): a row per agent × model × prompt of a problem set.

Its input is what `slopmark.server.benchreads` sums with one indexed SQL query
per row, problem and phase (`CellSums`); nothing here reads a store. A row has:

- the checkpoints attempted, those counted (errored ones aside: an errored
  checkpoint is no verdict on the agent) and how many problems they cover;
- strict / isolated / core solve rates over the counted checkpoints, each with
  its 95% interval clustered by problem (`slopmark.board.stats.pass_rate_interval_of_counts`:
  a problem's checkpoints are correlated, as a template's tasks are);
- mean erosion and verbosity per phase (Start, Early, Mid, Late, Final, as
  `slopmark.code.bench.scoring.phase`) and overall, each over the checkpoints
  measured, with that count;
- mean relative churn, cost and time per checkpoint, each over the checkpoints
  where it is known (an unknown cost is never 0).

A row is provisional until it rests on `MIN_RANK` counted checkpoints (the
board's threshold to rank, `slopmark.board.leaderboard`); it shows from the
first finished one. Rows sort on any column (`SORTS`), undefined values last.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from slopmark.board.leaderboard import MIN_RANK
from slopmark.board.stats import Interval, pass_rate_interval_of_counts
from slopmark.errors import BadInput

__all__ = [
    "MEANS",
    "PHASES",
    "SORTS",
    "VERDICTS",
    "BenchRow",
    "BenchTable",
    "CellSums",
    "Mean",
    "RowKey",
    "bench_tables",
    "check_sort",
]

PHASES = ("Start", "Early", "Mid", "Late", "Final")
VERDICTS = ("strict", "isolated", "core")


@dataclass(frozen=True, order=True)
class RowKey:
    """What a row is of: a problem set's agent, model (None: the agent's default) and prompt."""

    problem_set: str
    agent: str
    model: str
    prompt: str

    @property
    def label(self) -> str:
        model = f" · {self.model}" if self.model else ""
        return f"{self.agent}{model} · {self.prompt}"


@dataclass(frozen=True)
class Mean:
    """A mean over the ``n`` checkpoints where the value is known (None when n is 0)."""

    value: float | None
    n: int

    @classmethod
    def of(cls, total: float | None, n: int) -> Mean:
        return cls(None if not n or total is None else total / n, n)


@dataclass(frozen=True)
class CellSums:
    """Sums over a row's checkpoints of one problem in one phase, as SQL gives them.

    ``sums``/``counts`` hold each of `MEANS` over the counted checkpoints where it is
    known; ``chains`` is how many run folders the cell's checkpoints come from, and
    ``first_run`` the first of them by name.
    """

    key: RowKey
    problem: str
    phase: str
    checkpoints: int
    errored: int
    solved: dict[str, int]
    sums: dict[str, float | None]
    counts: dict[str, int]
    chains: int
    first_run: str

    @property
    def counted(self) -> int:
        return self.checkpoints - self.errored


@dataclass(frozen=True)
class BenchRow:
    key: RowKey
    checkpoints: int
    counted: int
    errored: int
    problems: int
    rates: dict[str, Interval]
    erosion: dict[str, Mean]
    verbosity: dict[str, Mean]
    means: dict[str, Mean]
    #: how many chains (run folder × problem) the row rests on, and the first chain of
    #: each problem (run folder, problem), at most `SHOWN_CHAINS` of them
    chain_count: int
    chains: tuple[tuple[str, str], ...]
    provisional: bool


@dataclass(frozen=True)
class BenchTable:
    problem_set: str
    rows: tuple[BenchRow, ...]


#: how many chains a row links to (the first of each problem)
SHOWN_CHAINS = 5
#: the quantities summed per cell for `BenchRow.means` (mean per checkpoint)
MEANS = ("erosion", "verbosity", "churn", "cost_usd", "wall_s")
#: sort name → what it sorts on; erosion and verbosity sort on the overall mean
SORTS = ("label", "checkpoints", *VERDICTS, "erosion", "verbosity", "churn", "cost", "time")
ORDERS = ("desc", "asc")
_MEAN_SORTS = {"erosion": "erosion", "verbosity": "verbosity", "churn": "churn",
               "cost": "cost_usd", "time": "wall_s"}  # fmt: skip


def _one_of(name: str, value: str, allowed: Sequence[str]) -> None:
    if value not in allowed:
        raise BadInput(f"{name} {value!r}: must be one of {', '.join(allowed)}")


def check_sort(sort: str, order: str) -> None:
    """`BadInput` naming the choices when ``sort`` or ``order`` is not one."""
    _one_of("sort", sort, SORTS)
    _one_of("order", order, ORDERS)


def _rate(cells: Sequence[CellSums], verdict: str) -> Interval:
    """The share of counted checkpoints solved, clustered by problem."""
    problems: dict[str, tuple[int, int]] = {}
    for cell in cells:
        solved, counted = problems.get(cell.problem, (0, 0))
        problems[cell.problem] = (solved + cell.solved[verdict], counted + cell.counted)
    return pass_rate_interval_of_counts(list(problems.values()))


def _mean(cells: Iterable[CellSums], name: str) -> Mean:
    known = [c for c in cells if c.counts.get(name)]
    total = math.fsum(c.sums.get(name) or 0.0 for c in known)
    return Mean.of(total if known else None, sum(c.counts[name] for c in known))


def _by_phase(cells: Sequence[CellSums], name: str) -> dict[str, Mean]:
    means = {phase: _mean((c for c in cells if c.phase == phase), name) for phase in PHASES}
    return {phase: mean for phase, mean in means.items() if mean.n}


def _chains(cells: Sequence[CellSums]) -> tuple[int, tuple[tuple[str, str], ...]]:
    """How many chains the cells come from, and the first run folder of each problem."""
    first: dict[str, str] = {}
    for cell in cells:
        first[cell.problem] = min(first.get(cell.problem, cell.first_run), cell.first_run)
    count = sum(cell.chains for cell in cells)
    shown = sorted((run, problem) for problem, run in first.items())[:SHOWN_CHAINS]
    return count, tuple(shown)


def _row(key: RowKey, cells: Sequence[CellSums]) -> BenchRow:
    counted = sum(c.counted for c in cells)
    chain_count, chains = _chains(cells)
    return BenchRow(
        key=key, checkpoints=sum(c.checkpoints for c in cells), counted=counted,
        errored=sum(c.errored for c in cells), problems=len({c.problem for c in cells}),
        rates={v: _rate(cells, v) for v in VERDICTS},
        erosion=_by_phase(cells, "erosion"), verbosity=_by_phase(cells, "verbosity"),
        means={name: _mean(cells, name) for name in MEANS},
        chain_count=chain_count, chains=chains, provisional=counted < MIN_RANK,
    )  # fmt: skip


def _sort_value(row: BenchRow, sort: str) -> float | str | None:
    if sort == "label":
        return row.key.label
    if sort == "checkpoints":
        return row.checkpoints
    if sort in VERDICTS:
        return row.rates[sort].estimate
    return row.means[_MEAN_SORTS[sort]].value


def sorted_rows(rows: Iterable[BenchRow], sort: str, order: str) -> tuple[BenchRow, ...]:
    """``rows`` by ``sort`` (``asc`` or ``desc``), undefined values last, ties by label."""
    rows = sorted(rows, key=lambda row: row.key.label)
    known = [row for row in rows if _sort_value(row, sort) is not None]
    unknown = [row for row in rows if _sort_value(row, sort) is None]
    known.sort(key=lambda row: _sort_value(row, sort), reverse=order == "desc")  # type: ignore[arg-type, return-value]
    return (*known, *unknown)


def bench_tables(
    cells: Iterable[CellSums], sort: str = "strict", order: str = "desc"
) -> list[BenchTable]:
    """One table per problem set (by name), its rows sorted by ``sort``."""
    check_sort(sort, order)
    by_key: dict[RowKey, list[CellSums]] = {}
    for cell in cells:
        by_key.setdefault(cell.key, []).append(cell)
    rows = [_row(key, found) for key, found in by_key.items()]
    sets = sorted({row.key.problem_set for row in rows})
    return [
        BenchTable(name, sorted_rows((r for r in rows if r.key.problem_set == name), sort, order))
        for name in sets
    ]
