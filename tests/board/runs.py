"""Runs for the board tests: one series (math, h1, ts1, standard) unless a test says otherwise."""

from __future__ import annotations

from typing import Any

from slopmark.store import Run

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
