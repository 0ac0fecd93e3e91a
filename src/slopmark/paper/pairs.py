"""The pair benchmark: does a measure score the AI paper of a pair above the human one?

For each measure (and the aggregate), over the pairs where both papers have a
score: PairAcc = share of pairs where the AI paper scores higher (ties 0.5);
AUROC = the probability that a random AI paper outscores a random human one
(ties 0.5, the Mann–Whitney statistic); TPR at 5% FPR = share of AI papers
scoring above the threshold at which at most 5% of human papers score above
it. Every direction is fixed in advance: higher = more AI-like. Confidence
intervals: percentile bootstrap over pairs (seeded).
"""

from __future__ import annotations

import math
import random
from collections.abc import Sequence
from dataclasses import dataclass

Pair = tuple[float, float]  # (AI score, human score)
BOOTSTRAP = 2000
FPR = 0.05
STATISTICS = ("pair_accuracy", "auroc", "tpr_at_5_fpr")


def pair_accuracy(pairs: Sequence[Pair]) -> float | None:
    if not pairs:
        return None
    wins = sum(1.0 if ai > human else 0.5 if ai == human else 0.0 for ai, human in pairs)
    return wins / len(pairs)


def auroc(ai: Sequence[float], human: Sequence[float]) -> float | None:
    """P(AI > human) + ½ P(AI = human), by ranks (O(n log n))."""
    if not ai or not human:
        return None
    ranked = sorted([(v, 1) for v in ai] + [(v, 0) for v in human])
    rank_sum, position = 0.0, 0
    while position < len(ranked):
        end = position
        while end < len(ranked) and ranked[end][0] == ranked[position][0]:
            end += 1
        mean_rank = (position + 1 + end) / 2
        rank_sum += mean_rank * sum(label for _, label in ranked[position:end])
        position = end
    n_ai, n_human = len(ai), len(human)
    return (rank_sum - n_ai * (n_ai + 1) / 2) / (n_ai * n_human)


def tpr_at_fpr(ai: Sequence[float], human: Sequence[float], fpr: float = FPR) -> float | None:
    """Share of AI scores above the lowest threshold that at most ``fpr`` of human scores exceed."""
    if not ai or not human:
        return None
    allowed = math.floor(fpr * len(human))
    ordered = sorted(human, reverse=True)
    threshold = ordered[allowed] if allowed < len(ordered) else ordered[-1]
    return sum(score > threshold for score in ai) / len(ai)


@dataclass(frozen=True)
class Estimate:
    value: float | None
    low: float | None
    high: float | None


def _statistics(pairs: Sequence[Pair]) -> dict[str, float | None]:
    ai, human = [a for a, _ in pairs], [h for _, h in pairs]
    return {
        "pair_accuracy": pair_accuracy(pairs),
        "auroc": auroc(ai, human),
        "tpr_at_5_fpr": tpr_at_fpr(ai, human),
    }


def _percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    position = q * (len(ordered) - 1)
    low = math.floor(position)
    high = min(low + 1, len(ordered) - 1)
    return ordered[low] + (ordered[high] - ordered[low]) * (position - low)


def bootstrap(
    pairs: Sequence[Pair], samples: int = BOOTSTRAP, seed: int = 0
) -> dict[str, tuple[float | None, float | None]]:
    """The 95% percentile interval of every statistic, over pairs resampled with replacement."""
    if len(pairs) < 2:
        return dict.fromkeys(STATISTICS, (None, None))
    rng = random.Random(seed)
    drawn: dict[str, list[float]] = {name: [] for name in STATISTICS}
    for _ in range(samples):
        sample = [pairs[rng.randrange(len(pairs))] for _ in pairs]
        for name, value in _statistics(sample).items():
            if value is not None:
                drawn[name].append(value)
    return {name: _interval(values) for name, values in drawn.items()}


def _interval(values: list[float]) -> tuple[float | None, float | None]:
    if not values:
        return None, None
    return _percentile(values, 0.025), _percentile(values, 0.975)


@dataclass(frozen=True)
class PairReport:
    measure: str
    pairs: int
    pair_accuracy: Estimate
    auroc: Estimate
    tpr_at_5_fpr: Estimate


def evaluate(
    measure: str, pairs: Sequence[Pair], samples: int = BOOTSTRAP, seed: int = 0
) -> PairReport:
    """Every statistic of ``pairs`` with its bootstrap interval."""
    intervals = bootstrap(pairs, samples, seed)
    point = _statistics(pairs)
    estimates = {name: Estimate(value, *intervals[name]) for name, value in point.items()}
    return PairReport(measure, len(pairs), **estimates)
