"""Paired comparisons of two models on common tasks, from real SQLite stores."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path
from statistics import fmean
from typing import Any

import pytest
from sqlalchemy import Engine

from board.runs import series_run
from slopmark.board.compare import Comparison, compare
from slopmark.board.query import RunFilter, stream_outcomes
from slopmark.store import Run, insert_run, open_store


@pytest.fixture
def store(tmp_path: Path) -> Engine:
    return open_store(f"sqlite:///{tmp_path / 'store.db'}")


def a_run(model: str, task: int, score: float, **values: Any) -> Run:
    return series_run(model, task, **({"passed": score >= 0.5, "score": score} | values))


def fill(store: Engine, model: str, scores: list[float], **values: Any) -> None:
    for task, score in enumerate(scores):
        assert insert_run(store, a_run(model, task, score, **values)) is not None


def compared(store: Engine, a: str = "a", b: str = "b") -> tuple[Comparison, ...]:
    return compare(stream_outcomes(store, RunFilter()), a, b)


A = [1.0, 1.0, 0.8, 0.6, 1.0, 0.0, 1.0, 0.9, 0.7, 1.0, 0.2, 1.0]
B = [0.0, 1.0, 0.8, 0.2, 0.4, 0.0, 1.0, 0.1, 0.7, 0.3, 0.6, 0.0]


def test_mean_difference_discordant_pairs_and_n_on_common_tasks(store: Engine) -> None:
    fill(store, "a", A)
    fill(store, "b", B[:10])
    (found,) = compared(store)
    assert (found.tasks_a, found.tasks_b, found.common, found.templates) == (12, 10, 10, 10)
    result = found.paired
    assert result.n == 10
    assert result.mean_difference == pytest.approx(
        fmean(a - b for a, b in zip(A, B[:10], strict=False))
    )
    a_pass = [x >= 0.5 for x in A[:10]]
    b_pass = [x >= 0.5 for x in B[:10]]
    only_a = sum(x and not y for x, y in zip(a_pass, b_pass, strict=True))
    only_b = sum(y and not x for x, y in zip(a_pass, b_pass, strict=True))
    assert result.discordant == (only_a, only_b)
    assert found.pass_rate_a == pytest.approx(sum(a_pass) / 10)
    assert found.pass_rate_b == pytest.approx(sum(b_pass) / 10)
    assert result.low is not None and result.high is not None
    assert result.low <= result.mean_difference <= result.high
    assert result.mcnemar_p is not None and 0.0 <= result.mcnemar_p <= 1.0


def test_swapping_the_models_negates_the_difference(store: Engine) -> None:
    fill(store, "a", A)
    fill(store, "b", B)
    (ab,) = compared(store)
    (ba,) = compared(store, "b", "a")
    assert ba.paired.mean_difference == pytest.approx(-(ab.paired.mean_difference or 0.0))
    assert ba.paired.discordant == ab.paired.discordant[::-1]
    assert ba.paired.mcnemar_p == pytest.approx(ab.paired.mcnemar_p)


def test_templates_are_the_clusters(store: Engine) -> None:
    for task, (x, y) in enumerate(zip(A, B, strict=True)):
        template = f"tpl{task // 3}"
        insert_run(store, a_run("a", task, x, template_id=template))
        insert_run(store, a_run("b", task, y, template_id=template))
    (found,) = compared(store)
    assert (found.templates, found.paired.clusters) == (4, 4)


def test_one_comparison_per_group_never_merged(store: Engine) -> None:
    fill(store, "a", A)
    fill(store, "b", B)
    fill(store, "a", B, harness_version="h2")
    fill(store, "b", A, harness_version="h2")
    found = compared(store)
    assert [c.group.harness_version for c in found] == ["h1", "h2"]
    assert found[0].paired.mean_difference == pytest.approx(-(found[1].paired.mean_difference or 0))


def test_a_group_missing_one_model_gives_no_comparison(store: Engine) -> None:
    fill(store, "a", A)
    fill(store, "b", B, harness_version="h2")
    assert compared(store) == ()


def test_the_latest_ok_run_counts_and_errors_do_not(store: Engine) -> None:
    fill(store, "a", [1.0] * 6)
    fill(store, "b", [1.0] * 6)
    insert_run(store, a_run("b", 0, 0.0, provider="later"))
    errored = a_run("b", 1, 0.0, status="error", provider="third")
    insert_run(store, replace(errored, passed=None, score=None))
    (found,) = compared(store)
    assert found.paired.discordant == (1, 0)
    assert found.paired.mean_difference == pytest.approx(1 / 6)


def test_identical_models_have_zero_difference(store: Engine) -> None:
    fill(store, "a", A)
    fill(store, "b", A)
    (found,) = compared(store)
    assert found.paired.mean_difference == 0.0
    assert found.paired.discordant == (0, 0)
