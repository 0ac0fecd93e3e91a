"""The precision report's arithmetic (`benchmarks/rule_precision.py`) on tiny labels, and
the shipped `precision.json` held to what `--write` computes from the labels in the repo."""

from __future__ import annotations

import math
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "benchmarks"))

import rule_precision as rp  # noqa: E402

from slopmark.code.measure.rules import load_catalog  # noqa: E402


def _rows(rule: str, tp: int, fp: int, unlabelled: int = 0) -> list[dict[str, object]]:
    labels = ["tp"] * tp + ["fp"] * fp + [None] * unlabelled
    return [
        {"rule": rule, "package": "npm:x@1", "path": "a.js", "line": i + 1, "text": "x",
         "label": label, "reason": "r"}
        for i, label in enumerate(labels)
    ]  # fmt: skip


def test_stratified_precision_weighs_rules_by_their_hits() -> None:
    rows = _rows("a", 9, 1) + _rows("b", 5, 5) + _rows("c", 0, 0, unlabelled=3)
    stats = rp.rule_stats(
        rows, {"a": 90, "b": 10, "c": 100}, {"a": "default", "b": "default", "c": "default"}
    )
    found = rp.pooled(stats)
    assert found.precision == pytest.approx((90 * 0.9 + 10 * 0.5) / 100)  # 0.86, not 14/20
    assert found.coverage == pytest.approx(0.5)  # c's 100 hits have no labels
    assert (found.rules, found.labelled_rules, found.n) == (3, 2, 20)
    assert 0 < found.low < found.precision < found.high < 1


def _beta_quantile(q: float, a: float, b: float) -> float:
    """Beta(a, b)'s q-quantile by integrating its density on a fine grid (no scipy here)."""
    steps = 20000
    log_norm = math.lgamma(a + b) - math.lgamma(a) - math.lgamma(b)
    total = 0.0
    for i in range(steps):
        x = (i + 0.5) / steps
        total += math.exp(log_norm + (a - 1) * math.log(x) + (b - 1) * math.log1p(-x)) / steps
        if total >= q:
            return x
    return 1.0


def test_one_rule_gives_its_jeffreys_interval() -> None:
    stats = rp.rule_stats(_rows("a", 7, 3), {"a": 40}, {"a": "default"})
    found = rp.pooled(stats)
    exact = (_beta_quantile(0.025, 7.5, 3.5), _beta_quantile(0.975, 7.5, 3.5))
    assert found.precision == pytest.approx(0.7)
    assert (found.low, found.high) == pytest.approx(exact, abs=0.01)


def test_a_perfect_small_sample_is_not_certain() -> None:
    found = rp.pooled(rp.rule_stats(_rows("a", 3, 0), {"a": 5}, {"a": "default"}))
    assert found.precision == 1.0 and found.high == 1.0 and found.low < 0.7


def test_the_estimate_lies_inside_a_mixed_interval_below_its_top() -> None:
    rows = _rows("a", 20, 0) + _rows("b", 8, 2) + _rows("c", 1, 0)
    counts = {"a": 100, "b": 30, "c": 5}
    found = rp.pooled(rp.rule_stats(rows, counts, dict.fromkeys(counts, "default")))
    assert found.low < found.precision < found.high < 1


def test_no_labels_is_not_measured() -> None:
    found = rp.pooled(rp.rule_stats(_rows("a", 0, 0, 4), {"a": 5}, {"a": "default"}))
    assert (found.precision, found.low, found.high, found.coverage) == (None, None, None, 0.0)
    assert rp.pooled([]).coverage is None


def test_resample_keeps_moved_rows_drops_gone_ones_and_tops_up() -> None:
    labelled = [
        {"rule": "a", "package": "p", "path": "f", "line": 10, "text": "x = 1", "label": "tp",
         "reason": "moved down two lines"},
        {"rule": "a", "package": "p", "path": "f", "line": 20, "text": "gone", "label": "fp",
         "reason": "fixed by a narrower pattern"},
    ]  # fmt: skip
    hits = [rp.Hit("a", "p", "f", 12, "x = 1")] + [
        rp.Hit("a", "p", "g", line, f"y{line}") for line in range(1, 30)
    ]
    first = rp.resample(labelled, hits, per_rule=5, seed=36)
    assert first[0] == {**labelled[0], "line": 12}
    assert [r["label"] for r in first] == ["tp", None, None, None, None]
    assert first == sorted(first, key=lambda r: (r["rule"], r["package"], r["path"], r["line"]))
    assert rp.resample(labelled, hits, per_rule=5, seed=36) == first
    assert rp.resample(labelled, hits, per_rule=5, seed=37) != first
    assert rp.resample(first, hits, per_rule=5, seed=99) == first  # a full sample stays


def test_shipped_precision_is_what_write_computes() -> None:
    computed = rp.shipped_text(rp.shipped_precision(rp.report(load_catalog(rule_set="pedantic"))))
    assert rp.SHIPPED.read_text(encoding="utf-8") == computed, (
        "run `.venv/bin/python benchmarks/rule_precision.py --write`"
    )


def test_a_bad_label_is_refused_with_its_line(tmp_path: Path) -> None:
    labels = tmp_path / "go.jsonl"
    rows = [{**row, "label": "maybe"} for row in _rows("a", 1, 0)]
    rp.write_rows(labels, rows)
    with pytest.raises(rp.BadInput, match=r"go\.jsonl:1: label 'maybe' is not tp, fp or null"):
        rp.read_rows(labels)
