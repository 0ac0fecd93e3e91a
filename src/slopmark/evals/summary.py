"""The state of one suite from its stored runs: what finished, what passed, what it cost.

Per task, its ok run counts if it has one; a task whose every run errored
counts as an error and stays out of the pass rate. Undefined numbers are
None (with ``n``), never 0:

- ``pass_rate = passed / n`` over the ``n`` tasks with an ok run;
- ``mean_latency_ms`` over ok runs whose latency is known;
- ``total_cost_usd`` is None when no task finished, or as soon as one ok
  run's cost is unknown (``cost_unknown`` says how many);
- ``top_error`` is the most frequent error text among the errored tasks.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import asdict, dataclass
from statistics import fmean
from typing import Any

from slopmark.store.runs import Run


@dataclass(frozen=True)
class Summary:
    tasks: int
    ok: int
    errors: int
    not_run: int
    passed: int
    pass_rate: float | None
    mean_score: float | None
    mean_latency_ms: float | None
    total_cost_usd: float | None
    cost_unknown: int
    #: the most frequent error text among errored tasks, and how many tasks it hit
    top_error: str | None = None
    top_error_count: int = 0

    @property
    def n(self) -> int:
        return self.ok

    def to_json(self) -> dict[str, Any]:
        return asdict(self) | {"n": self.n}


def _mean(values: Sequence[float]) -> float | None:
    return fmean(values) if values else None


def _split(task_ids: Sequence[str], runs: Iterable[Run]) -> tuple[list[Run], list[Run]]:
    """The ok run of each finished task, and the last run of each task whose every run errored."""
    wanted = set(task_ids)
    ok: dict[str, Run] = {}
    errored: dict[str, Run] = {}
    for run in runs:
        if run.task_id not in wanted:
            continue
        (ok if run.status == "ok" else errored)[run.task_id] = run
    return list(ok.values()), [run for task, run in errored.items() if task not in ok]


def _top_error(errored: Sequence[Run]) -> tuple[str | None, int]:
    counts = Counter(run.error or "" for run in errored).most_common(1)
    return counts[0] if counts else (None, 0)


def _total_cost(ok: Sequence[Run]) -> tuple[float | None, int]:
    """The summed cost (None when none ran or any is unknown) and how many are unknown."""
    known = [run.cost_usd for run in ok if run.cost_usd is not None]
    unknown = len(ok) - len(known)
    return (sum(known) if ok and not unknown else None), unknown


def summarise(task_ids: Sequence[str], runs: Iterable[Run]) -> Summary:
    """Summarise the runs of ``task_ids`` (runs of other tasks are ignored)."""
    ok, errored = _split(task_ids, runs)
    passed = sum(bool(run.passed) for run in ok)
    total_cost, unknown = _total_cost(ok)
    top_error, top_error_count = _top_error(errored)
    return Summary(
        tasks=len(set(task_ids)),
        ok=len(ok),
        errors=len(errored),
        not_run=len(set(task_ids)) - len(ok) - len(errored),
        passed=passed,
        pass_rate=passed / len(ok) if ok else None,
        mean_score=_mean([run.score for run in ok if run.score is not None]),
        mean_latency_ms=_mean([run.latency_ms for run in ok if run.latency_ms is not None]),
        total_cost_usd=total_cost,
        cost_unknown=unknown,
        top_error=top_error,
        top_error_count=top_error_count,
    )
