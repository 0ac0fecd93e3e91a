"""Write the reference values that pin slopmark's statistics, computed by independent tools.

The test suite only READS the JSON files beside this script; it never runs it,
and scipy, statsmodels and scikit-learn are NOT dependencies of slopmark. To
regenerate (and review the diff), in any environment with those packages::

    python -m venv /tmp/statsref
    /tmp/statsref/bin/pip install scipy statsmodels scikit-learn
    /tmp/statsref/bin/python tests/board/reference/make_reference.py

Tools per value:
- normal, t, beta and binomial: ``scipy.stats`` / ``scipy.special.betainc``;
- Wilson: ``statsmodels.stats.proportion.proportion_confint(method="wilson")``;
- cluster-robust mean: statsmodels OLS on a constant with ``cov_type="cluster"``
  and ``use_t=True`` (CR1: C/(C−1)·(N−1)/(N−K), t with C−1 df; K = 1);
- cluster-adjusted Wilson: the design effect from statsmodels' clustered vs
  non-robust OLS variance, the df factor from ``scipy.stats.t.ppf``, then
  ``proportion_confint(method="wilson")`` on the effective sample size;
- McNemar: ``statsmodels.stats.contingency_tables.mcnemar(exact=True)`` and
  ``scipy.stats.binomtest``; correlation: ``scipy.stats.pearsonr``;
- calibration: ``sklearn.calibration.calibration_curve`` and
  ``sklearn.metrics.brier_score_loss``;
- sample sizes: ``scipy.stats.norm``, ``statsmodels.stats.power.NormalIndPower``
  (ratio=0: one sample) and ``samplesize_confint_proportion``.
"""

from __future__ import annotations

import json
import math
import warnings
from pathlib import Path
from typing import Any

import numpy as np
import statsmodels.api as sm
from scipy import special, stats
from sklearn.calibration import calibration_curve
from sklearn.metrics import brier_score_loss
from statsmodels.stats.contingency_tables import mcnemar
from statsmodels.stats.power import NormalIndPower
from statsmodels.stats.proportion import proportion_confint, samplesize_confint_proportion

HERE = Path(__file__).parent
MIN_EACH_OUTCOME = 10


def write(name: str, data: Any) -> None:
    text = json.dumps(data, indent=1, allow_nan=False) + "\n"
    (HERE / name).write_text(text, encoding="utf-8")
    print(f"{name}: {len(text)} bytes")


# --- distributions -------------------------------------------------------------------


def distributions(rng: np.random.Generator) -> dict[str, Any]:
    probabilities = [
        1e-300,
        1e-100,
        1e-20,
        1e-10,
        1e-5,
        0.001,
        0.0123,
        0.025,
        0.05,
        0.1,
        0.25,
        0.4,
        0.499,
        0.501,
        0.6,
        0.8,
        0.9,
        0.95,
        0.975,
        0.99,
        0.995,
        0.999,
        1 - 1e-10,
    ]
    dfs = [1, 2, 3, 4, 5, 7, 10, 15, 29, 30, 49, 100, 1000, 10000, 2.5, 0.7]
    # scipy's t.ppf overflows below ~1e-100 for small df, so those cases are left out
    t_ppf = [
        [p, df, float(stats.t.ppf(p, df))]
        for p in probabilities
        for df in [*dfs, 1e5, 1e6, 1e9, 1e12]
        if p >= 1e-20 or df >= 5 + 10 * (p < 1e-100)
    ]
    t_values = [-40.0, -6.0, -2.5, -1.0, -0.1, 0.0, 0.3, 1.0, 1.96, 2.2, 4.0, 12.0, 60.0]
    t_cdf = [
        [t, df, float(stats.t.cdf(t, df)), float(stats.t.sf(t, df))] for t in t_values for df in dfs
    ]
    for _ in range(150):
        df = float(np.exp(rng.uniform(-1, 11)))
        t = float(rng.normal() * np.exp(rng.uniform(-3, 2.5)))
        t_cdf.append([t, df, float(stats.t.cdf(t, df)), float(stats.t.sf(t, df))])
    normal_ppf = [[p, float(stats.norm.ppf(p))] for p in probabilities + [1e-200, 0.3]]
    normal_cdf = [[x, float(stats.norm.cdf(x))] for x in np.linspace(-37, 8, 46).tolist()]
    beta = []
    for _ in range(300):
        a = float(np.exp(rng.uniform(-3, 9)))
        b = float(np.exp(rng.uniform(-3, 9)))
        x = float(rng.uniform())
        value = float(special.betainc(a, b, x))
        if value > 1e-250:  # scipy itself loses accuracy deeper in the tail
            beta.append([x, a, b, value])
    binomial_cdf, binomial_ppf = [], []
    for _ in range(200):
        n = int(np.exp(rng.uniform(0, 9.5)))
        p = float(rng.choice([0.5, rng.uniform()]))
        k = int(rng.integers(-1, n + 2))
        value = float(stats.binom.cdf(k, n, p))
        if value == 0.0 or value > 1e-250:
            binomial_cdf.append([k, n, p, value])
        q = float(rng.uniform(0.001, 0.999))
        binomial_ppf.append([q, n, p, int(stats.binom.ppf(q, n, p))])
    return {
        "t_ppf": t_ppf,
        "t_cdf_sf": t_cdf,
        "normal_ppf": normal_ppf,
        "normal_cdf": normal_cdf,
        "regularized_beta": beta,
        "binomial_cdf": binomial_cdf,
        "binomial_ppf": binomial_ppf,
    }


# --- interval estimates --------------------------------------------------------------


def wilson_cases() -> list[dict[str, Any]]:
    cases = []
    for n in [1, 2, 3, 5, 10, 17, 50, 171, 1000]:
        for successes in sorted({0, 1, n // 3, n // 2, n - 1, n} & set(range(n + 1))):
            for confidence in [0.8, 0.9, 0.95, 0.99]:
                low, high = proportion_confint(successes, n, 1 - confidence, method="wilson")
                cases.append(
                    {
                        "successes": successes,
                        "n": n,
                        "confidence": confidence,
                        "low": float(low),
                        "high": float(high),
                    }
                )
    return cases


def _codes(clusters: list[str]) -> np.ndarray:
    order = {name: index for index, name in enumerate(dict.fromkeys(clusters))}
    return np.array([order[c] for c in clusters])


def cluster_fit(values: list[float], clusters: list[str], confidence: float) -> dict[str, Any]:
    """statsmodels' CR1 cluster-robust mean and its t interval with C − 1 df."""
    y = np.asarray(values, dtype=float)
    count = len(set(clusters))
    if len(y) == 0:
        return {"estimate": None, "se": None, "iid_se": None, "low": None, "high": None}
    if count < 2:
        return {"estimate": float(y.mean()), "se": None, "iid_se": None, "low": None, "high": None}
    model = sm.OLS(y, np.ones(len(y)))
    fit = model.fit(cov_type="cluster", cov_kwds={"groups": _codes(clusters)}, use_t=True)
    low, high = fit.conf_int(1 - confidence)[0]
    plain = model.fit()
    assert fit.cov_kwds["use_correction"] is True
    return {
        "estimate": float(fit.params[0]),
        "se": float(fit.bse[0]),
        "iid_se": float(plain.bse[0]),
        "low": float(low),
        "high": float(high),
    }


def _template_scores(rng: np.random.Generator, sizes: list[int], spread: float) -> list[float]:
    values: list[float] = []
    for size in sizes:
        centre = rng.uniform(0.2, 0.8)
        values.extend(np.clip(centre + spread * rng.normal(size=size), 0, 1).round(4).tolist())
    return values


def _labels(sizes: list[int], prefix: str = "t") -> list[str]:
    return [f"{prefix}{index}" for index, size in enumerate(sizes) for _ in range(size)]


def score_datasets(rng: np.random.Generator) -> list[dict[str, Any]]:
    layouts = {
        "empty": [],
        "one value": [1],
        "one cluster": [6],
        "two clusters": [3, 4],
        "two singletons": [1, 1],
        "singletons": [1] * 12,
        "unequal sizes": [1, 2, 7, 3, 12, 1, 5],
        "equal sizes": [4] * 10,
        "many templates": [int(s) for s in rng.integers(1, 9, size=60)],
        "few big templates": [40, 25, 60],
    }
    datasets = []
    for name, sizes in layouts.items():
        values = _template_scores(rng, sizes, 0.15)
        datasets.append({"name": name, "values": values, "clusters": _labels(sizes)})
    datasets.append({"name": "constant", "values": [0.5] * 9, "clusters": _labels([3, 3, 3])})
    datasets.append(
        {
            "name": "negative and wide",
            "values": [-3.5, 2.0, 7.25, -1.0, 0.0, 11.0],
            "clusters": ["a", "b", "a", "c", "c", "b"],
        }
    )
    return datasets


def clustered_cases(rng: np.random.Generator) -> list[dict[str, Any]]:
    cases = []
    for data in score_datasets(rng):
        for confidence in [0.9, 0.95, 0.99]:
            fit = cluster_fit(data["values"], data["clusters"], confidence)
            cases.append({**data, "confidence": confidence, **fit})
    return cases


def _cluster_wilson(
    passed: list[bool], fit: dict[str, Any], count: int, confidence: float
) -> tuple[float, float]:
    n, rate = len(passed), fit["estimate"]
    # no variation (p̂ = 0 or 1): deff cannot be estimated and is 1 (statsmodels leaves ~1e-17)
    ratio = (fit["se"] / fit["iid_se"]) ** 2 if fit["iid_se"] > 1e-12 else 1.0
    deff = max(1.0, ratio)
    level = 0.5 + 0.5 * confidence
    adjust = stats.t.ppf(level, n - 1) / stats.t.ppf(level, count - 1)
    effective = n / deff * adjust**2
    low, high = proportion_confint(rate * effective, effective, 1 - confidence, method="wilson")
    return float(low), float(high)


def pass_rate_expected(
    passed: list[bool], clusters: list[str], confidence: float
) -> dict[str, Any]:
    """The documented rule, applied with statsmodels' numbers."""
    fit = cluster_fit([float(p) for p in passed], clusters, confidence)
    count = len(set(clusters))
    if fit["low"] is None:
        return {"method": "undefined", "estimate": fit["estimate"], "low": None, "high": None}
    passes = sum(passed)
    inside = fit["low"] >= 0 and fit["high"] <= 1
    if min(passes, len(passed) - passes) >= MIN_EACH_OUTCOME and inside:
        return {
            "method": "cluster-t",
            "estimate": fit["estimate"],
            "low": fit["low"],
            "high": fit["high"],
        }
    low, high = _cluster_wilson(passed, fit, count, confidence)
    return {"method": "cluster-wilson", "estimate": fit["estimate"], "low": low, "high": high}


def pass_datasets(rng: np.random.Generator) -> list[dict[str, Any]]:
    def draw(sizes: list[int], spread: float) -> list[bool]:
        out: list[bool] = []
        for size in sizes:
            rate = float(np.clip(rng.normal(0.6, spread), 0.02, 0.98))
            out.extend(bool(x) for x in rng.random(size) < rate)
        return out

    layouts = [
        ("empty", [], 0.1),
        ("one run", [1], 0.1),
        ("one cluster", [12], 0.1),
        ("two clusters", [8, 9], 0.2),
        ("singletons", [1] * 40, 0.1),
        ("unequal sizes", [1, 2, 7, 3, 12, 1, 5, 9, 4], 0.25),
        ("many templates", [int(s) for s in rng.integers(1, 9, size=50)], 0.2),
        ("strongly clustered", [30, 30, 30, 30], 0.35),
        ("small n", [2, 3, 1], 0.2),
    ]
    datasets = [
        {"name": name, "passed": draw(sizes, spread), "clusters": _labels(sizes)}
        for name, sizes, spread in layouts
    ]
    sizes = [5, 3, 8, 4, 6, 2]
    datasets += [
        {"name": "all pass", "passed": [True] * 28, "clusters": _labels(sizes)},
        {"name": "all fail", "passed": [False] * 28, "clusters": _labels(sizes)},
        {"name": "one failure", "passed": [True] * 27 + [False], "clusters": _labels(sizes)},
        {"name": "one pass", "passed": [False] * 27 + [True], "clusters": _labels(sizes)},
        {
            "name": "balanced big",
            "passed": [bool(i % 2) for i in range(400)],
            "clusters": [f"t{i % 40}" for i in range(400)],
        },
    ]
    return datasets


def pass_rate_cases(rng: np.random.Generator) -> list[dict[str, Any]]:
    cases = []
    for data in pass_datasets(rng):
        for confidence in [0.9, 0.95]:
            expected = pass_rate_expected(data["passed"], data["clusters"], confidence)
            cases.append({**data, "confidence": confidence, **expected})
    return cases


def _pearson(a: list[float], b: list[float]) -> float | None:
    if len(a) < 2 or min(a) == max(a) or min(b) == max(b):
        return None
    return float(stats.pearsonr(a, b).statistic)


def _mcnemar(b: int, c: int) -> float:
    table = [[0, b], [c, 0]]
    p = float(mcnemar(table, exact=True).pvalue)
    if b + c:
        assert math.isclose(p, stats.binomtest(b, b + c, 0.5).pvalue, rel_tol=1e-9)
    return p


def paired_case(
    name: str,
    a: list[float],
    b: list[float],
    clusters: list[str],
    passed: tuple[list[bool], list[bool]] | None,
) -> dict[str, Any]:
    fit = cluster_fit([x - y for x, y in zip(a, b, strict=True)], clusters, 0.95)
    case = {
        "name": name,
        "a_scores": a,
        "b_scores": b,
        "clusters": clusters,
        "mean_difference": fit["estimate"],
        "se": fit["se"],
        "low": fit["low"],
        "high": fit["high"],
        "correlation": _pearson(a, b),
        "discordant": [0, 0],
        "mcnemar_p": None,
        "a_passed": None,
        "b_passed": None,
    }
    if passed is not None:
        a_passed, b_passed = passed
        discordant = [
            sum(x and not y for x, y in zip(a_passed, b_passed, strict=True)),
            sum(y and not x for x, y in zip(a_passed, b_passed, strict=True)),
        ]
        case.update(
            a_passed=a_passed,
            b_passed=b_passed,
            discordant=discordant,
            mcnemar_p=_mcnemar(*discordant) if sum(discordant) else None,
        )
    return case


def paired_cases(rng: np.random.Generator) -> list[dict[str, Any]]:
    cases = []
    for data in score_datasets(rng):
        a = data["values"]
        b = np.clip(np.asarray(a) - 0.05 + 0.1 * rng.normal(size=len(a)), 0, 1).round(4).tolist()
        passed = ([x >= 0.5 for x in a], [y >= 0.5 for y in b])
        cases.append(paired_case(data["name"], a, b, data["clusters"], passed))
        cases.append(paired_case(data["name"] + " (scores only)", a, b, data["clusters"], None))
    same = [0.1, 0.9, 0.4, 0.4]
    cases.append(
        paired_case(
            "identical",
            same,
            same,
            ["a", "a", "b", "c"],
            ([True, False, True, True], [True, False, True, True]),
        )
    )
    bits_a = [bool(x) for x in rng.random(90) < 0.7]
    bits_b = [bool(x) for x in rng.random(90) < 0.55]
    cases.append(
        paired_case(
            "pass/fail scores",
            [float(x) for x in bits_a],
            [float(x) for x in bits_b],
            [f"t{i % 15}" for i in range(90)],
            (bits_a, bits_b),
        )
    )
    return cases


def mcnemar_cases() -> list[list[float]]:
    pairs = [
        (0, 0),
        (0, 1),
        (1, 0),
        (1, 1),
        (0, 5),
        (2, 7),
        (7, 2),
        (10, 10),
        (3, 25),
        (0, 40),
        (12, 30),
        (100, 130),
        (460, 540),
        (5, 1000),
        (2500, 2600),
    ]
    return [[b, c, _mcnemar(b, c)] for b, c in pairs]


# --- calibration ---------------------------------------------------------------------


def calibration_case(name: str, confidences: list[float], correct: list[bool]) -> dict[str, Any]:
    """sklearn's reliability curve (bins (k/10, (k+1)/10]) on data that avoids bin edges."""
    y = np.asarray(correct, dtype=float)
    p = np.asarray(confidences, dtype=float)
    edges = np.linspace(0.0, 1.0, 11)
    assert not np.isin(p, edges).any(), "reference data must avoid bin edges"
    accuracy, mean_confidence = calibration_curve(y, p, n_bins=10, strategy="uniform")
    counts = np.bincount(np.searchsorted(edges[1:-1], p), minlength=10)
    nonempty = counts[counts > 0]
    ece = float(np.sum(nonempty / len(p) * np.abs(accuracy - mean_confidence)))
    return {
        "name": name,
        "confidences": confidences,
        "correct": correct,
        "ece": ece,
        "brier": float(brier_score_loss(y, p)),
        "overconfidence": float(p.mean() - y.mean()),
        "counts": counts.tolist(),
        "accuracy": accuracy.tolist(),
        "mean_confidence": mean_confidence.tolist(),
    }


def calibration_cases(rng: np.random.Generator) -> list[dict[str, Any]]:
    cases = []
    for name, n, skew in [
        ("overconfident", 300, 0.25),
        ("calibrated", 400, 0.0),
        ("underconfident", 120, -0.2),
        ("tiny", 7, 0.1),
    ]:
        confidences = rng.uniform(0.001, 0.999, size=n).round(6)
        truth = rng.random(n) < np.clip(confidences - skew, 0, 1)
        cases.append(calibration_case(name, confidences.tolist(), truth.tolist()))
    cases.append(calibration_case("all confident and right", [0.95] * 20, [True] * 20))
    cases.append(calibration_case("all confident and wrong", [0.95] * 20, [False] * 20))
    cases.append(
        calibration_case("two bins", [0.05, 0.15, 0.15, 0.05], [False, True, False, False])
    )
    return cases


# --- sample size ---------------------------------------------------------------------


def sample_size_cases() -> dict[str, Any]:
    margin = []
    for sigma, margin_, confidence, m, icc in [
        (0.2, 0.03, 0.95, 1, 0.0),
        (0.5, 0.03, 0.95, 1, 0.0),
        (0.3, 0.05, 0.9, 1, 0.0),
        (0.2, 0.03, 0.99, 1, 0.0),
        (0.25, 0.02, 0.95, 10, 0.05),
        (0.4, 0.05, 0.95, 4, 0.5),
        (0.2, 0.03, 0.95, 8, 1.0),
        (1.0, 0.5, 0.95, 1, 0.0),
        (0.1, 0.2, 0.8, 3, 0.3),
    ]:
        z = stats.norm.ppf(0.5 + 0.5 * confidence)
        exact = float((z * sigma / margin_) ** 2 * (1 + (m - 1) * icc))
        margin.append(
            {
                "sigma": sigma,
                "margin": margin_,
                "confidence": confidence,
                "cluster_size": m,
                "icc": icc,
                "exact": exact,
                "n": math.ceil(exact),
            }
        )
    proportions = []
    for rate, half, alpha in [(0.5, 0.03, 0.05), (0.2, 0.05, 0.05), (0.9, 0.02, 0.1)]:
        exact = float(samplesize_confint_proportion(rate, half, alpha=alpha))
        proportions.append(
            {
                "sigma": math.sqrt(rate * (1 - rate)),
                "margin": half,
                "confidence": 1 - alpha,
                "exact": exact,
            }
        )
    paired = []
    for delta, sigma_d, alpha, power, m, icc in [
        (0.05, 0.2, 0.05, 0.8, 1, 0.0),
        (0.1, 0.3, 0.05, 0.9, 1, 0.0),
        (0.02, 0.15, 0.01, 0.8, 1, 0.0),
        (0.05, 0.25, 0.05, 0.8, 5, 0.2),
        (-0.05, 0.2, 0.05, 0.8, 1, 0.0),
        (0.3, 0.3, 0.1, 0.5, 1, 0.0),
    ]:
        z = stats.norm.ppf(1 - alpha / 2) + stats.norm.ppf(power)
        exact = float((z * sigma_d / abs(delta)) ** 2 * (1 + (m - 1) * icc))
        solver = NormalIndPower().solve_power(
            effect_size=abs(delta) / sigma_d,
            alpha=alpha,
            power=power,
            ratio=0,
            alternative="two-sided",
        )
        paired.append(
            {
                "delta": delta,
                "sigma_difference": sigma_d,
                "alpha": alpha,
                "power": power,
                "cluster_size": m,
                "icc": icc,
                "exact": exact,
                "n": math.ceil(exact),
                "statsmodels": float(solver) * (1 + (m - 1) * icc),
            }
        )
    return {"margin": margin, "proportion": proportions, "paired": paired}


def main() -> None:
    warnings.simplefilter("ignore")  # scipy warns on constant input to pearsonr; handled
    rng = np.random.default_rng(20240604)
    write("distributions.json", distributions(rng))
    write(
        "stats.json",
        {
            "wilson": wilson_cases(),
            "clustered_mean": clustered_cases(rng),
            "pass_rate": pass_rate_cases(rng),
            "paired": paired_cases(rng),
            "mcnemar": mcnemar_cases(),
        },
    )
    write("calibration.json", calibration_cases(rng))
    write("sample_size.json", sample_size_cases())


if __name__ == "__main__":
    main()
