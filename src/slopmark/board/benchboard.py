"""The coding benchmark's board (pure): a row per agent × model × prompt of a problem set.

Its input is what `slopmark.server.benchreads` sums per chain (one run folder's
checkpoints of one problem) and per phase with indexed SQL; nothing here reads
a store. A row has:

- the checkpoints attempted, those counted (errored ones aside: an errored
  checkpoint is no verdict on the agent) and how many problems they cover;
- strict / isolated / core solve rates over the counted checkpoints, each with
  its 95% interval clustered by problem (`slopmark.board.stats.pass_rate_interval`:
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

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from itertools import groupby

from slopmark.board.leaderboard import MIN_RANK
from slopmark.board.stats import Interval, pass_rate_interval
from slopmark.errors import BadInput

__all__ = [
    "PHASES",
    "SORTS",
    "BenchRow",
    "BenchTable",
    "ChainSums",
    "Mean",
    "PhaseSums",
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
class ChainSums:
    """Sums over one chain's checkpoints (one run folder, one problem), as SQL gives them."""

    key: RowKey
    run: str
    problem: str
    checkpoints: int
    errored: int
    strict: int
    isolated: int
    core: int
    sums: dict[str, float | None] = field(default_factory=dict)
    counts: dict[str, int] = field(default_factory=dict)

    @property
    def counted(self) -> int:
        return self.checkpoints - self.errored


@dataclass(frozen=True)
class PhaseSums:
    """Erosion and verbosity summed over a row's measured checkpoints of one phase."""

    key: RowKey
    phase: str
    erosion: float | None
    erosion_n: int
    verbosity: float | None
    verbosity_n: int


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
    chains: tuple[tuple[str, str], ...]
    provisional: bool


@dataclass(frozen=True)
class BenchTable:
    problem_set: str
    rows: tuple[BenchRow, ...]


#: the quantities summed per chain for `BenchRow.means` (mean per checkpoint)
MEANS = ("erosion", "verbosity", "churn", "cost_usd", "wall_s")
#: sort name → what it sorts on; erosion and verbosity sort on the overall mean
SORTS = ("label", "checkpoints", *VERDICTS, "erosion", "verbosity", "churn", "cost", "time")
_MEAN_SORTS = {"erosion": "erosion", "verbosity": "verbosity", "churn": "churn",
               "cost": "cost_usd", "time": "wall_s"}  # fmt: skip


def check_sort(sort: str, order: str) -> None:
    """`BadInput` naming the choices when ``sort`` or ``order`` is not one."""
    if sort not in SORTS:
        raise BadInput(f"sort {sort!r}: must be one of {', '.join(SORTS)}")
    if order not in ("asc", "desc"):
        raise BadInput(f"order {order!r}: must be asc or desc")


def _rate(chains: Sequence[ChainSums], verdict: str) -> Interval:
    """The share of counted checkpoints solved, clustered by problem."""
    flags: list[bool] = []
    clusters: list[str] = []
    for chain in chains:
        solved = getattr(chain, verdict)
        flags += [True] * solved + [False] * (chain.counted - solved)
        clusters += [chain.problem] * chain.counted
    if not flags:
        return Interval(None, None, None, 0, 0, "undefined")
    return pass_rate_interval(flags, clusters)


def _pooled(chains: Sequence[ChainSums], name: str) -> Mean:
    known = [c for c in chains if c.counts.get(name)]
    total = sum(c.sums.get(name) or 0.0 for c in known)
    return Mean.of(total if known else None, sum(c.counts[name] for c in known))


def _phase_means(phases: Sequence[PhaseSums]) -> tuple[dict[str, Mean], dict[str, Mean]]:
    by_phase = {p.phase: p for p in phases}
    erosion = {n: Mean.of(p.erosion, p.erosion_n) for n, p in by_phase.items()}
    verbosity = {n: Mean.of(p.verbosity, p.verbosity_n) for n, p in by_phase.items()}
    return ({n: erosion[n] for n in PHASES if n in erosion},
            {n: verbosity[n] for n in PHASES if n in verbosity})  # fmt: skip


def _row(key: RowKey, chains: Sequence[ChainSums], phases: Sequence[PhaseSums]) -> BenchRow:
    counted = sum(c.counted for c in chains)
    erosion, verbosity = _phase_means(phases)
    return BenchRow(
        key=key, checkpoints=sum(c.checkpoints for c in chains), counted=counted,
        errored=sum(c.errored for c in chains), problems=len({c.problem for c in chains}),
        rates={v: _rate(chains, v) for v in VERDICTS}, erosion=erosion, verbosity=verbosity,
        means={name: _pooled(chains, name) for name in MEANS},
        chains=tuple(sorted({(c.run, c.problem) for c in chains})),
        provisional=counted < MIN_RANK,
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
    chains: Iterable[ChainSums], phases: Iterable[PhaseSums], sort: str = "strict",
    order: str = "desc",
) -> list[BenchTable]:  # fmt: skip
    """One table per problem set (by name), its rows sorted by ``sort``."""
    check_sort(sort, order)
    by_key = {k: list(g) for k, g in groupby(sorted(chains, key=lambda c: c.key), lambda c: c.key)}
    phased: dict[RowKey, list[PhaseSums]] = {}
    for item in phases:
        phased.setdefault(item.key, []).append(item)
    rows = [_row(key, found, phased.get(key, [])) for key, found in by_key.items()]
    sets = sorted({row.key.problem_set for row in rows})
    return [
        BenchTable(name, sorted_rows((r for r in rows if r.key.problem_set == name), sort, order))
        for name in sets
    ]
