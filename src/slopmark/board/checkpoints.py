"""The coding benchmark's numbers on a board: per test group pass rates, churn, CC>10, time.

Each checkpoint of ``code bench run`` is stored as one run of the
`CODE_ITERATIVE_DOMAIN` (`slopmark.code.bench.ledger`), with its numbers in
``details``: ``group_rates`` (per test group, passed/total of the checkpoint's
tests, null without tests of the group or when they did not run),
``relative_churn``, ``quality.complex_callables`` and ``wall_s`` (the whole
checkpoint's time). A board row of that domain carries `CheckpointMeans`:
the means of these over the row's counted runs, each over the runs where the
value is defined, with that count beside it (undefined is None, never 0). A
row's cost per checkpoint is the board's ``avg_cost_usd`` (one run is one
checkpoint).

Rows stored before those fields existed are read from what they held:
``tests.<group>.passed/total`` of a scored checkpoint, the churn from
``quality.code_lines_added/removed`` and ``previous_code_lines`` (None when
they are absent too), ``timings.total_s``.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from statistics import fmean
from typing import Any

__all__ = [
    "CODE_ITERATIVE_DOMAIN",
    "GROUPS",
    "CheckpointMeans",
    "CheckpointNumbers",
    "checkpoint_means",
    "checkpoint_numbers",
]

CODE_ITERATIVE_DOMAIN = "code_iterative"
#: the test groups, as `slopmark.code.bench.results.GROUPS` (not imported: the board
#: reads stores without loading the benchmark)
GROUPS = ("core", "functionality", "error", "regression")


@dataclass(frozen=True)
class CheckpointNumbers:
    """One stored checkpoint's numbers (None where undefined or not stored)."""

    group_rates: dict[str, float | None]
    relative_churn: float | None
    complex_callables: int | None
    wall_s: float | None


def _mapping(value: Any) -> Mapping[str, Any]:
    return value if isinstance(value, Mapping) else {}


def _number(value: Any) -> float | None:
    return float(value) if isinstance(value, int | float) and not isinstance(value, bool) else None


def _old_rate(details: Mapping[str, Any], group: str) -> float | None:
    counts = _mapping(_mapping(details.get("tests")).get(group))
    passed, total = _number(counts.get("passed")), _number(counts.get("total"))
    if details.get("checkpoint_status") != "scored" or not total or passed is None:
        return None
    return passed / total


def _old_churn(quality: Mapping[str, Any]) -> float | None:
    added, removed = _number(quality.get("code_lines_added")), quality.get("code_lines_removed")
    previous = _number(quality.get("previous_code_lines"))
    if added is None or not previous:
        return None
    return (added + (_number(removed) or 0.0)) / previous


def _rates(details: Mapping[str, Any]) -> dict[str, float | None]:
    if "group_rates" not in details:
        return {group: _old_rate(details, group) for group in GROUPS}
    stored = _mapping(details["group_rates"])
    return {group: _number(stored.get(group)) for group in GROUPS}


def checkpoint_numbers(details: Mapping[str, Any] | str | None) -> CheckpointNumbers:
    """The numbers of one stored checkpoint from its details (a mapping or JSON text)."""
    found = _mapping(json.loads(details) if isinstance(details, str) else details)
    quality = _mapping(found.get("quality"))
    churn = _number(found["relative_churn"]) if "relative_churn" in found else _old_churn(quality)
    wall = found["wall_s"] if "wall_s" in found else _mapping(found.get("timings")).get("total_s")
    complex_callables = _number(quality.get("complex_callables"))
    return CheckpointNumbers(
        group_rates=_rates(found),
        relative_churn=churn,
        complex_callables=None if complex_callables is None else int(complex_callables),
        wall_s=_number(wall),
    )


@dataclass(frozen=True)
class CheckpointMeans:
    """A board row's means over its counted checkpoints, each with how many it rests on."""

    group_rates: dict[str, float | None]
    group_checkpoints: dict[str, int]
    relative_churn: float | None
    churn_checkpoints: int
    complex_callables: float | None
    measured_checkpoints: int
    wall_per_checkpoint_s: float | None
    timed_checkpoints: int


def _mean(values: Iterable[float | int | None]) -> tuple[float | None, int]:
    known = [float(value) for value in values if value is not None]
    return (fmean(known) if known else None), len(known)


def checkpoint_means(details: Iterable[Mapping[str, Any] | str | None]) -> CheckpointMeans:
    """`CheckpointMeans` of the checkpoints whose details are given (any order)."""
    numbers = [checkpoint_numbers(item) for item in details]
    groups = {g: _mean(n.group_rates[g] for n in numbers) for g in GROUPS}
    churn, churned = _mean(n.relative_churn for n in numbers)
    complexity, measured = _mean(n.complex_callables for n in numbers)
    wall, timed = _mean(n.wall_s for n in numbers)
    return CheckpointMeans(
        group_rates={g: rate for g, (rate, _) in groups.items()},
        group_checkpoints={g: count for g, (_, count) in groups.items()},
        relative_churn=churn, churn_checkpoints=churned,
        complex_callables=complexity, measured_checkpoints=measured,
        wall_per_checkpoint_s=wall, timed_checkpoints=timed,
    )  # fmt: skip
