"""The board's fast read (one query per group, counted rows) equals the outcome path."""

from __future__ import annotations

import random
from pathlib import Path

import pytest
from sqlalchemy import Engine

from board.runs import series_run
from slopmark.board.leaderboard import boards, leaderboard
from slopmark.board.query import RunFilter, groups, stream_group_runs, stream_outcomes
from slopmark.store import Run, insert_run, open_store

DOMAINS = ("math", "calibration")


def random_run(rng: random.Random, model: str, domain: str, task: int, attempt: int) -> Run:
    passed = rng.random() < 0.6
    paste = rng.random() < 0.1
    details = {"confidence": round(rng.random(), 2), "correct": passed}
    if rng.random() < 0.2:
        details = {}
    return series_run(
        model, f"{domain}-{task}", domain=domain, attempt=attempt, passed=passed,
        score=None if rng.random() < 0.05 else float(passed), paste=paste,
        harness_version=rng.choice(["h1", "h2"]) if task % 7 == 0 else "h1",
        template_id=None if task % 5 == 0 else ("" if task % 11 == 0 else f"tpl{task // 3}"),
        source=rng.choice(["seed", "original"]), details=details,
        cost_usd=None if rng.random() < 0.2 else round(rng.uniform(0.001, 0.01), 4),
        latency_ms=None if paste else 100.0,
    )  # fmt: skip


def fill(engine: Engine, seed: int) -> None:
    rng = random.Random(seed)
    for model in ("m1", "m2", "m3", "m4", "tiny"):
        tasks = 4 if model == "tiny" else rng.randint(12, 30)
        for domain in DOMAINS:
            for task in range(tasks):
                if rng.random() < 0.15:  # errored first, then retried
                    errored = series_run(model, f"{domain}-{task}", domain=domain, attempt=1,
                                         status="error", error="HTTP 503")  # fmt: skip
                    insert_run(engine, errored)
                    insert_run(engine, random_run(rng, model, domain, task, 2))
                else:
                    insert_run(engine, random_run(rng, model, domain, task, 1))


@pytest.mark.parametrize("seed", [1, 2, 3])
@pytest.mark.parametrize("tasks", ["common", "all"])
def test_fast_boards_equal_outcome_boards(tmp_path: Path, seed: int, tasks: str) -> None:
    engine = open_store(f"sqlite:///{tmp_path / 'store.db'}")
    fill(engine, seed)
    for where in (RunFilter(), RunFilter(domain="calibration"), RunFilter(source="seed")):
        expected = leaderboard(stream_outcomes(engine, where), tasks)
        assert tuple(boards(stream_group_runs(engine, where), tasks)) == expected
        chosen = ("m2", "m3")
        expected = leaderboard(stream_outcomes(engine, where), tasks, chosen)
        assert tuple(boards(stream_group_runs(engine, where), tasks, chosen)) == expected
    calibrated = leaderboard(stream_outcomes(engine, RunFilter(domain="calibration")), tasks)
    assert any(row.calibration and row.calibration.n for b in calibrated for row in b.rows)


def test_groups_are_listed_in_order(tmp_path: Path) -> None:
    engine = open_store(f"sqlite:///{tmp_path / 'store.db'}")
    fill(engine, 4)
    found = [(g.domain, g.harness_version) for g in groups(engine, RunFilter())]
    assert found == [("calibration", "h1"), ("calibration", "h2"), ("math", "h1"), ("math", "h2")]
