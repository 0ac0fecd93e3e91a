"""The pair benchmark's statistics, with intervals that resample papers, not pairs.

A `Design` holds one score per AI paper, one per human paper, and the pairs
compared: the matched pairs of a PAIRS.jsonl (a paper may sit in several) or
every AI × human pair of two labelled folders. Directions are fixed in advance:
higher = more AI-like.

- PairAcc: share of the design's pairs whose AI paper scores higher (ties ½).
  Over all cross pairs it equals AUROC.
- AUROC: P(AI > human) + ½ P(tie) over the distinct papers (Mann–Whitney).
- TPR at 5% FPR: share of AI papers above the lowest threshold that at most 5%
  of human papers exceed.

Intervals (95%, seeded). Pairs that share a paper are not independent, so a
bootstrap over pairs is too narrow. PairAcc uses the two-way cluster bootstrap
of Cameron, Gelbach & Miller (2011, "Robust inference with multiway
clustering", J. Bus. Econ. Stat. 29(2)): a bootstrap over AI papers
(each drawn paper brings all its pairs), one over human papers, and one over
pairs (its variance in closed form, σ²/pairs, the limit of infinitely many
draws); the variance is v_AI + v_human − v_pairs (the pair term is counted in
both one-way variances), falling back to the larger one-way variance if that
difference is negative; each variance is scaled by G / (G − 1) for its G
clusters (CGM's small-sample factor); the interval is the estimate ± t₀.₉₇₅
standard errors, with t quantiles on G − 1 degrees of
freedom, G the smaller number of papers (CGM's advice for few clusters),
on the logit scale (delta method), so it stays inside (0, 1).
With one pair per paper this is the pair bootstrap; with shared papers it
widens as it should. When every pair goes one way (PairAcc 0 or 1) that
variance is 0; the interval is then Wilson's score interval on G comparisons
(`slopmark.paper.score_intervals`), never [1, 1]. AUROC takes Newcombe's score
interval (Method 5, the Hanley–McNeil variance at the candidate value; formula
in `slopmark.paper.score_intervals`), which stays below 1 at perfect separation.
TPR resamples the AI papers and the human papers independently (stratified
bootstrap, percentile interval), widened to hold Wilson's interval of the same
share over the AI papers (a bootstrap that draws only AI papers above every
threshold repeats the estimate). A group of fewer than `FEW_PAPERS` papers is
noted in the report: its intervals rest on very few papers.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
from numpy.typing import NDArray

from slopmark.paper.score_intervals import auroc_interval, wilson_interval

Pair = tuple[float, float]  # (AI score, human score)
BOOTSTRAP = 2000
FPR = 0.05
Z95 = 1.959963984540054
STATISTICS = ("pair_accuracy", "auroc", "tpr_at_5_fpr")
#: A group with fewer papers than this is noted: its intervals rest on very few papers.
FEW_PAPERS = 5
Floats = NDArray[np.float64]


def pair_accuracy(pairs: Sequence[Pair]) -> float | None:
    if not pairs:
        return None
    wins = sum(1.0 if ai > human else 0.5 if ai == human else 0.0 for ai, human in pairs)
    return wins / len(pairs)


def _wins(ai: Floats, human: Floats) -> Floats:
    """1 where the AI score is higher, ½ on ties, 0 otherwise (element-wise or broadcast)."""
    return np.asarray((ai > human) + 0.5 * (ai == human), dtype=np.float64)


def auroc(ai: Sequence[float], human: Sequence[float]) -> float | None:
    """P(AI > human) + ½ P(AI = human)."""
    if not ai or not human:
        return None
    return float(_wins(np.asarray(ai)[:, None], np.asarray(human)[None, :]).mean())


def tpr_at_fpr(ai: Sequence[float], human: Sequence[float], fpr: float = FPR) -> float | None:
    """Share of AI scores above the lowest threshold that at most ``fpr`` of human scores exceed."""
    if not ai or not human:
        return None
    allowed = math.floor(fpr * len(human))
    threshold = sorted(human, reverse=True)[min(allowed, len(human) - 1)]
    return float(sum(score > threshold for score in ai) / len(ai))


@dataclass(frozen=True)
class Design:
    """Scores of the distinct papers and the (AI index, human index) pairs compared."""

    ai: tuple[float, ...]
    human: tuple[float, ...]
    pairs: tuple[tuple[int, int], ...]
    #: "matched pairs" (a pairs file) or "all cross pairs" (two labelled folders).
    kind: str = "matched pairs"

    @classmethod
    def matched(cls, pairs: Sequence[Pair]) -> Design:
        """Pairs of distinct papers (no paper shared), from their scores alone."""
        return cls(tuple(a for a, _ in pairs), tuple(h for _, h in pairs),
                   tuple((i, i) for i in range(len(pairs))))  # fmt: skip

    @classmethod
    def crossed(cls, ai: Sequence[float], human: Sequence[float]) -> Design:
        every = tuple((i, j) for i in range(len(ai)) for j in range(len(human)))
        return cls(tuple(ai), tuple(human), every, "all cross pairs")


@dataclass(frozen=True)
class Estimate:
    value: float | None
    low: float | None
    high: float | None


def _kernel(design: Design) -> tuple[Floats, NDArray[np.intp], NDArray[np.intp]]:
    ai_of = np.array([i for i, _ in design.pairs], dtype=np.intp)
    human_of = np.array([j for _, j in design.pairs], dtype=np.intp)
    return _wins(np.asarray(design.ai)[ai_of], np.asarray(design.human)[human_of]), ai_of, human_of


def _cluster_variance(
    wins: Floats, cluster: NDArray[np.intp], clusters: int, samples: int, rng: np.random.Generator
) -> float:
    """Variance of PairAcc when whole clusters (a paper with all its pairs) are redrawn."""
    sums = np.bincount(cluster, weights=wins, minlength=clusters)
    sizes = np.bincount(cluster, minlength=clusters).astype(np.float64)
    draws = rng.integers(0, clusters, size=(samples, clusters))
    drawn = sums[draws].sum(axis=1) / sizes[draws].sum(axis=1)
    return float(np.var(drawn)) * _small_sample(clusters)


def _small_sample(clusters: int) -> float:
    """G / (G - 1): the bootstrap variance of a mean over G clusters is (G - 1) / G too small."""
    return clusters / (clusters - 1) if clusters > 1 else 1.0


def two_way_interval(
    design: Design, samples: int = BOOTSTRAP, seed: int = 0
) -> tuple[float | None, float | None]:
    """The 95% interval of PairAcc from the two-way cluster bootstrap (module docstring)."""
    if len(design.pairs) < 2:
        return None, None
    wins, ai_of, human_of = _kernel(design)
    rng = np.random.default_rng(seed)
    v_ai = _cluster_variance(wins, ai_of, len(design.ai), samples, rng)
    v_human = _cluster_variance(wins, human_of, len(design.human), samples, rng)
    v_pairs = float(np.var(wins)) / len(wins) * _small_sample(len(wins))
    variance = v_ai + v_human - v_pairs
    if variance < 0:
        variance = max(v_ai, v_human)
    clusters = min(len(design.ai), len(design.human))
    if variance == 0:
        return wilson_interval(float(wins.mean()), clusters) or (None, None)
    return _logit_interval(float(wins.mean()), t_critical(clusters - 1) * math.sqrt(variance))


def _logit_interval(value: float, half: float) -> tuple[float, float]:
    """value ± half, taken on the logit scale (delta method) so it stays inside (0, 1)."""
    if not 0.0 < value < 1.0:
        return max(0.0, value - half), min(1.0, value + half)
    centre = math.log(value / (1 - value))
    spread = half / (value * (1 - value))
    return _expit(centre - spread), _expit(centre + spread)


def _expit(x: float) -> float:
    return 1 / (1 + math.exp(-x)) if x > -700 else 0.0


def t_critical(freedom: int) -> float:
    """The 97.5% quantile of Student's t: tabled for ν ≤ 4, else the Cornish–Fisher series
    in 1/ν (off by less than 0.1% from ν = 5 on)."""
    if freedom < 1:
        return math.inf
    if freedom <= 4:
        return (12.7062, 4.3027, 3.1824, 2.7764)[freedom - 1]
    z, nu = Z95, float(freedom)
    return (z + (z**3 + z) / (4 * nu) + (5 * z**5 + 16 * z**3 + 3 * z) / (96 * nu**2)
            + (3 * z**7 + 19 * z**5 + 17 * z**3 - 15 * z) / (384 * nu**3))  # fmt: skip


def _counts(draws: NDArray[np.int64], size: int) -> Floats:
    """Per bootstrap sample (row), how often each of ``size`` items was drawn."""
    rows = np.arange(draws.shape[0])[:, None] * size
    flat = np.bincount((draws + rows).ravel(), minlength=draws.shape[0] * size)
    return flat.reshape(draws.shape[0], size).astype(np.float64)


def _percentile(values: Floats) -> tuple[float | None, float | None]:
    if values.size == 0:
        return None, None
    low, high = np.quantile(values, [0.025, 0.975])
    return float(low), float(high)


def _hull(
    bootstrap: tuple[float | None, float | None], score: tuple[float, float] | None
) -> tuple[float | None, float | None]:
    """The smallest interval holding both (the bootstrap alone when either is missing)."""
    low, high = bootstrap
    if low is None or high is None or score is None:
        return bootstrap
    return min(low, score[0]), max(high, score[1])


def paper_intervals(
    design: Design, samples: int = BOOTSTRAP, seed: int = 0
) -> dict[str, tuple[float | None, float | None]]:
    """95% intervals of AUROC (Newcombe's score interval) and TPR (the stratified bootstrap
    widened to Wilson's interval over the AI papers); see the module docstring."""
    ai, human = np.asarray(design.ai), np.asarray(design.human)
    if len(ai) < 2 or len(human) < 2:
        return {"auroc": (None, None), "tpr_at_5_fpr": (None, None)}
    tprs = _percentile(_bootstrap_tprs(ai, human, samples, seed))
    area, value = auroc(design.ai, design.human), tpr_at_fpr(design.ai, design.human)
    assert area is not None and value is not None  # both groups hold papers
    return {
        "auroc": auroc_interval(area, len(ai), len(human)) or (None, None),
        "tpr_at_5_fpr": _hull(tprs, wilson_interval(value, len(ai))),
    }


def _bootstrap_tprs(ai: Floats, human: Floats, samples: int, seed: int) -> Floats:
    """TPR at 5% FPR in each of ``samples`` draws of both groups (papers redrawn per group)."""
    rng = np.random.default_rng(seed + 1)
    ai_counts = _counts(rng.integers(0, len(ai), size=(samples, len(ai))), len(ai))
    human_counts = _counts(rng.integers(0, len(human), size=(samples, len(human))), len(human))
    order = np.argsort(-human, kind="stable")
    allowed = min(math.floor(FPR * len(human)), len(human) - 1)
    first = (human_counts[:, order].cumsum(axis=1) > allowed).argmax(axis=1)
    thresholds = human[order][first]
    return np.asarray(
        (ai_counts * (ai[None, :] > thresholds[:, None])).sum(axis=1) / len(ai), dtype=np.float64
    )


@dataclass(frozen=True)
class PairReport:
    measure: str
    pairs: int
    pair_accuracy: Estimate
    auroc: Estimate
    tpr_at_5_fpr: Estimate
    #: What the pairs are ("matched pairs" / "all cross pairs") and the distinct papers.
    design: str = "matched pairs"
    ai_papers: int = 0
    human_papers: int = 0
    #: Cautions for the reader (a group of fewer than `FEW_PAPERS` papers).
    notes: tuple[str, ...] = ()


def few_papers(ai: int, human: int) -> tuple[str, ...]:
    """A note per group of fewer than `FEW_PAPERS` papers (its intervals rest on very few)."""
    return tuple(
        f"only {n} {group} paper{'s' if n != 1 else ''} (fewer than {FEW_PAPERS}): "
        "the intervals rest on very few papers; read them as rough"
        for group, n in (("AI", ai), ("human", human)) if n < FEW_PAPERS
    )  # fmt: skip


def evaluate(
    measure: str, design: Design, samples: int = BOOTSTRAP, seed: int = 0
) -> PairReport:
    """Every statistic of ``design`` with its interval (module docstring)."""
    compared = [(design.ai[i], design.human[j]) for i, j in design.pairs]
    accuracy = Estimate(pair_accuracy(compared), *two_way_interval(design, samples, seed))
    intervals = paper_intervals(design, samples, seed)
    area = Estimate(auroc(design.ai, design.human), *intervals["auroc"])
    tpr = Estimate(tpr_at_fpr(design.ai, design.human), *intervals["tpr_at_5_fpr"])
    return PairReport(measure, len(design.pairs), accuracy, area, tpr, design.kind,
                      len(design.ai), len(design.human),
                      few_papers(len(design.ai), len(design.human)))  # fmt: skip
