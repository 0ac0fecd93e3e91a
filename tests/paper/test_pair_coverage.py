"""Coverage of the PairAcc interval, by simulation.

1,000 simulated corpora of 40 AI and 40 human papers, each AI paper matched with
three human papers and each human paper with three AI papers (120 pairs, as
when anchors are shared). AI scores ~ N(1, 1), human scores ~ N(0, 1), so the
true PairAcc is P(A > H) = Φ(1/√2) = 0.7602. The paper-level interval
(`two_way_interval`) must cover it in 93–97% of the corpora; the bootstrap over
pairs that `paper bench` used before falls well short because pairs that share
a paper are not independent (it is written out here, vectorised, only to show
that).
"""

from __future__ import annotations

import math

import numpy as np

from slopmark.paper.pairs import Design, two_way_interval

CORPORA = 1000
PAPERS = 40
PARTNERS = 3
SEPARATION = 1.0
TRUE_PAIR_ACC = 0.5 * (1 + math.erf(SEPARATION / 2))  # Φ(d / √2)
PAIRS = tuple((i, (i + s) % PAPERS) for i in range(PAPERS) for s in range(PARTNERS))


def _pair_bootstrap(wins: np.ndarray, rng: np.random.Generator) -> tuple[float, float]:
    draws = rng.integers(0, len(wins), size=(1000, len(wins)))
    low, high = np.quantile(wins[draws].mean(axis=1), [0.025, 0.975])
    return float(low), float(high)


def test_paper_level_interval_covers_the_true_pair_accuracy() -> None:
    rng = np.random.default_rng(2027)
    ai_of = np.array([i for i, _ in PAIRS])
    human_of = np.array([j for _, j in PAIRS])
    ours = naive = 0
    for corpus in range(CORPORA):
        ai, human = rng.normal(SEPARATION, 1, PAPERS), rng.normal(0, 1, PAPERS)
        low, high = two_way_interval(Design(tuple(ai), tuple(human), PAIRS), 1000, corpus)
        assert low is not None and high is not None
        ours += low <= TRUE_PAIR_ACC <= high
        wins = (ai[ai_of] > human[human_of]).astype(float)
        pair_low, pair_high = _pair_bootstrap(wins, rng)
        naive += pair_low <= TRUE_PAIR_ACC <= pair_high
    coverage, naive_coverage = ours / CORPORA, naive / CORPORA
    print(f"coverage: paper-level {coverage:.3f}, pair bootstrap {naive_coverage:.3f}")
    assert 0.93 <= coverage <= 0.97
    assert naive_coverage < 0.90
