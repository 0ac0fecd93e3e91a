"""Solve rates, phases and quality trajectories of a run (pure).

Per checkpoint: strict (every test passes, regression included), isolated
(every test of the checkpoint itself passes), core (every core test passes).
Per problem: partial (at least one checkpoint strictly solved). Rates use the
fixed denominator of every checkpoint attempted, so a checkpoint the agent
never reached counts as unsolved. An errored checkpoint (the environment or
the harness failed, `results.ERRORED`) is no verdict on the agent: it is
counted apart and left out of every rate. Quality means are over the
checkpoints that produced a workspace only: a missing workspace is never
imputed.

The three solve rates mirror SlopCodeBench's ``get_evaluation_metrics``
(``src/slop_code/metrics/checkpoint/extractors.py``: ``pass_rate``,
``checkpoint_pass_rate`` without the Regression group, ``core_pass_rate``,
each 0 when its group is empty) and ``compute_solve_rates``
(``src/slop_code/metrics/summary/aggregators.py``: a checkpoint is solved
when its rate is 1).

Phases follow SlopCodeBench's trajectory view: the first checkpoint is Start,
the last Final, and the interior is split in thirds: Early, Mid, Late.

Per test group (core, functionality, error, regression), a set of checkpoints
has a pass rate: the mean over its checkpoints of each checkpoint's group pass
rate (every checkpoint weighs the same, as each is one point of SCB's
per-checkpoint ``{group}_passed / {group}_total`` counts), over the scored
checkpoints that have tests of the group; the pooled passed/total is given
beside it.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from statistics import fmean
from typing import Any

from slopmark.code.bench.results import GROUPS, CheckpointResult
from slopmark.code.measure.metrics import rose, slope

PHASES = ("Start", "Early", "Mid", "Late", "Final")
INTERIOR = ("Early", "Mid", "Late")


def phase(index: int, count: int) -> str:
    """The progress phase of the checkpoint at 0-based ``index`` of ``count``."""
    if index == 0:
        return "Start"
    if index == count - 1:
        return "Final"
    return INTERIOR[(index - 1) * 3 // (count - 2)]


def rate(flags: Sequence[bool]) -> float | None:
    return sum(flags) / len(flags) if flags else None


def counted(results: Sequence[CheckpointResult]) -> list[CheckpointResult]:
    """The results that are a verdict on the agent (errored ones aside)."""
    return [result for result in results if not result.errored]


def mean(values: Iterable[float | None]) -> float | None:
    defined = [value for value in values if value is not None]
    return fmean(defined) if defined else None


def _quality(name: str) -> Callable[[CheckpointResult], float | None]:
    def read(result: CheckpointResult) -> float | None:
        value = getattr(result.quality, name) if result.quality is not None else None
        return float(value) if value is not None else None

    return read


EROSION = _quality("erosion")
VERBOSITY = _quality("verbosity")
COMPLEX_CALLABLES = _quality("complex_callables")
RELATIVE_CHURN = _quality("relative_churn")


@dataclass(frozen=True)
class GroupRate:
    """One test group's passes over a set of checkpoints (see the module docstring)."""

    #: The scored checkpoints with tests of the group.
    checkpoints: int
    passed: int
    total: int
    #: Mean over those checkpoints of passed/total; None without any.
    rate: float | None
    #: passed/total over all their tests.
    pooled: float | None

    @classmethod
    def of(cls, results: Sequence[CheckpointResult], group: str) -> GroupRate:
        counts = [
            (sum(t.passed for t in tests), len(tests))
            for tests in (r.group(group) for r in results if r.status == "scored")
            if tests
        ]
        passed, total = sum(p for p, _ in counts), sum(t for _, t in counts)
        return cls(
            checkpoints=len(counts), passed=passed, total=total,
            rate=mean(p / t for p, t in counts), pooled=passed / total if total else None,
        )  # fmt: skip


def group_rates(results: Sequence[CheckpointResult]) -> dict[str, GroupRate]:
    """Every test group's `GroupRate` over ``results``, in `GROUPS` order."""
    return {group: GroupRate.of(results, group) for group in GROUPS}


def _cost(result: CheckpointResult) -> float | None:
    return result.agent.cost_usd if result.agent is not None else None


@dataclass(frozen=True)
class Rates:
    checkpoints: int
    strict: float | None
    isolated: float | None
    core: float | None
    mean_pass_fraction: float | None
    erosion: float | None
    verbosity: float | None
    measured: int
    #: Checkpoints left out of the rates because they errored (not counted in ``checkpoints``).
    errored: int = 0
    groups: dict[str, GroupRate] = field(default_factory=dict)
    #: Means over the measured checkpoints where defined (the first has no churn).
    relative_churn: float | None = None
    complex_callables: float | None = None
    #: Means per checkpoint: the agent's known cost, the checkpoint's whole time.
    cost_per_checkpoint_usd: float | None = None
    wall_per_checkpoint_s: float | None = None

    @classmethod
    def of(cls, everything: Sequence[CheckpointResult]) -> Rates:
        results = counted(everything)
        measured = [r for r in results if r.quality is not None]
        return cls(
            checkpoints=len(results),
            strict=rate([r.strict for r in results]),
            isolated=rate([r.isolated for r in results]),
            core=rate([r.core for r in results]),
            mean_pass_fraction=mean(r.pass_fraction for r in results),
            erosion=mean(EROSION(r) for r in measured),
            verbosity=mean(VERBOSITY(r) for r in measured),
            measured=len(measured),
            errored=len(everything) - len(results),
            groups=group_rates(results),
            relative_churn=mean(RELATIVE_CHURN(r) for r in measured),
            complex_callables=mean(COMPLEX_CALLABLES(r) for r in measured),
            cost_per_checkpoint_usd=mean(_cost(r) for r in results),
            wall_per_checkpoint_s=mean(r.timings.get("total_s") for r in results),
        )


@dataclass(frozen=True)
class Trajectory:
    """One problem's checkpoints in order, with the slopes of its quality."""

    problem: str
    results: tuple[CheckpointResult, ...]
    partial: bool
    erosion_slope: float | None
    verbosity_slope: float | None
    erosion_rose: bool | None
    verbosity_rose: bool | None

    @classmethod
    def of(cls, problem: str, results: Sequence[CheckpointResult]) -> Trajectory:
        ordered = tuple(sorted(results, key=lambda r: r.index))
        erosion = [EROSION(r) for r in ordered]
        verbosity = [VERBOSITY(r) for r in ordered]
        return cls(
            problem=problem,
            results=ordered,
            partial=any(r.strict for r in ordered),
            erosion_slope=slope(erosion),
            verbosity_slope=slope(verbosity),
            erosion_rose=rose(erosion),
            verbosity_rose=rose(verbosity),
        )


@dataclass(frozen=True)
class Summary:
    overall: Rates
    #: The phases that have checkpoints, in `PHASES` order.
    phases: dict[str, Rates]
    trajectories: tuple[Trajectory, ...]
    partial: float | None
    erosion_rose_share: float | None
    verbosity_rose_share: float | None
    cost_usd: float | None
    cost_unknown: int
    input_tokens: int | None
    output_tokens: int | None
    agent_wall_s: float


def _share(flags: Iterable[bool | None]) -> float | None:
    return rate([flag for flag in flags if flag is not None])


def _known_sum(values: Sequence[float | int | None]) -> float | None:
    known = [value for value in values if value is not None]
    return sum(known) if known else None


def _trajectories(results: Sequence[CheckpointResult]) -> tuple[Trajectory, ...]:
    by_problem: dict[str, list[CheckpointResult]] = {}
    for result in results:
        by_problem.setdefault(result.problem, []).append(result)
    return tuple(Trajectory.of(name, rs) for name, rs in sorted(by_problem.items()))


def _phases(results: Sequence[CheckpointResult]) -> dict[str, Rates]:
    grouped: dict[str, list[CheckpointResult]] = {}
    for result in results:
        grouped.setdefault(phase(result.index, result.count), []).append(result)
    return {name: Rates.of(grouped[name]) for name in PHASES if name in grouped}


def _tokens(values: Sequence[int | None]) -> int | None:
    total = _known_sum(values)
    return None if total is None else int(total)


def _spend(results: Sequence[CheckpointResult]) -> dict[str, Any]:
    """What the agents spent: known costs and tokens summed, unknown costs counted."""
    agents = [r.agent for r in results if r.agent is not None]
    return {
        "cost_usd": _known_sum([a.cost_usd for a in agents]),
        "cost_unknown": sum(a.cost_usd is None for a in agents),
        "input_tokens": _tokens([a.input_tokens for a in agents]),
        "output_tokens": _tokens([a.output_tokens for a in agents]),
        "agent_wall_s": sum(a.wall_s for a in agents),
    }


def summarize(results: Sequence[CheckpointResult]) -> Summary:
    """Every number of the report, from the checkpoint results of one run."""
    trajectories = _trajectories(results)
    return Summary(
        overall=Rates.of(results),
        phases=_phases(results),
        trajectories=trajectories,
        partial=rate([t.partial for t in trajectories if counted(t.results)]),
        erosion_rose_share=_share(t.erosion_rose for t in trajectories),
        verbosity_rose_share=_share(t.verbosity_rose for t in trajectories),
        **_spend(results),
    )
