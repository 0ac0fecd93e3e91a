"""Runs for the board tests: one series (math, h1, ts1, standard) unless a test says otherwise."""

from __future__ import annotations

import random
from typing import Any

from sqlalchemy import Engine

from slopmark.store import Run, insert_run

SERIES_FIELDS: dict[str, Any] = {
    "domain": "math",
    "provider": "openai-compat",
    "harness_version": "h1",
    "mode": "standard",
    "task_set_version": "ts1",
    "source": "original",
    "status": "ok",
}


def series_run(model: str, task: int | str, **values: Any) -> Run:
    """An ok run of task ``t{task}`` by ``model``; ``values`` override any field."""
    return Run(**({"task_id": f"t{task}", "model": model} | SERIES_FIELDS | values))


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
    """A mixed store: two domains, two harness versions, retried errors, pastes,
    unknown costs, missing and empty templates, a model with too few runs."""
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
