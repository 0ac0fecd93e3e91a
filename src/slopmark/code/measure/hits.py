"""Rule hits, suppression comments and per-file hit thresholds.

``# slopmark: ignore[rule-id, other-id]`` on a hit's first line, or on the
line above it, suppresses that hit. An id there that no rule has is reported
as a problem, never silently ignored. A rule with ``min_hits: N`` only counts
in a file where it hits at least N times (after suppression). With
``honour=False`` (the benchmark's profile) comments suppress nothing. A rule with a
``min_level`` the file's project is not known to reach counts nowhere in the file
(``dropped``: `slopmark.code.measure.levels.Floors.of`). This is where every command
counts a file's hits (measure, diff, history, the benchmark), after the result cache.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass
from typing import NamedTuple, Protocol


class RuleHit(NamedTuple):
    """One match of a rule; ``start``/``end`` are 1-based lines."""

    rule: str
    path: str
    start: int
    end: int
    message: str
    severity: str


@dataclass(frozen=True, slots=True)
class Problem:
    """Something in a measured file the user must fix (exit code 2)."""

    path: str
    line: int
    message: str


class HitSource(Protocol):
    """What the hits of one measured file are counted from (a `FileAnalysis` is one)."""

    @property
    def path(self) -> str: ...

    @property
    def hits(self) -> Sequence[RuleHit]: ...

    @property
    def ignores(self) -> Sequence[tuple[int, tuple[str, ...]]]: ...


def effective_hits(
    analysis: HitSource,
    min_hits: Mapping[str, int],
    known: Collection[str],
    honour: bool = True,
    dropped: Collection[str] = (),
) -> tuple[list[RuleHit], list[Problem]]:
    """The hits of one file that count, and the problems its directives have
    (``honour``: whether its suppression comments apply; ``dropped``: rules whose hits
    do not count in this file, its project's language level being too old or unknown)."""
    suppressed, problems = _directives(analysis, known) if honour else ({}, [])
    kept = [
        h for h in analysis.hits
        if h.rule not in suppressed.get(h.start, ()) and h.rule not in dropped
    ]  # fmt: skip
    if any(h.rule in min_hits for h in kept):  # most files have no hit of such a rule
        counts = Counter(h.rule for h in kept)
        kept = [h for h in kept if counts[h.rule] >= min_hits.get(h.rule, 1)]
    return kept, problems


def _directives(
    analysis: HitSource, known: Collection[str]
) -> tuple[dict[int, set[str]], list[Problem]]:
    """The rule ids each line's suppression comments name, and the ids no rule has."""
    suppressed: dict[int, set[str]] = {}
    problems = []
    for line, ids in analysis.ignores:
        for rule_id in ids:
            if rule_id not in known:
                problems.append(
                    Problem(
                        analysis.path, line, f"unknown rule id '{rule_id}' in slopmark: ignore[...]"
                    )
                )
        for target in (line, line + 1):
            suppressed.setdefault(target, set()).update(ids)
    return suppressed, problems
