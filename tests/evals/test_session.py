"""The eval session both edges call: a suite against a real fake server, pastes, all on
real SQLite files (the CLI and the API tests cover the same steps end to end)."""

from __future__ import annotations

import asyncio
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import Engine

from fakes.openai_server import FakeOpenAIServer
from slopmark.errors import BadInput
from slopmark.evals.harness import HARNESS
from slopmark.evals.pool import load_pool, task_set_version
from slopmark.evals.session import (
    SuiteRequest,
    ask,
    domain_tasks,
    paste_target,
    plan_suite,
    run_plan,
    suite_tasks,
)
from slopmark.evals.task import Task
from slopmark.store import list_runs, open_store, series_runs


def request_for(server: FakeOpenAIServer, **fields: Any) -> SuiteRequest:
    base = SuiteRequest("openai-compat", "fake-model", server.base_url, "instruction", "k",
                        timeout_s=10.0, retries=0)  # fmt: skip
    return replace(base, **fields)


# --- the suite's tasks and series ------------------------------------------------------


def test_a_domain_without_approved_tasks_is_bad_input(small_file: Path) -> None:
    with pytest.raises(BadInput, match=r"^domain 'math': no approved tasks in the shipped pool$"):
        domain_tasks([], "math", "the shipped pool", what="domain")
    with pytest.raises(BadInput, match=rf"^--domain 'math': no approved tasks in {small_file}$"):
        suite_tasks("math", (small_file,))
    assert [t.id for t in suite_tasks("instruction", (small_file,))][:2] == ["small-1", "small-2"]


def test_a_plan_checks_mode_and_provider_and_names_its_task_set(
    openai_server: FakeOpenAIServer, small_tasks: list[Task]
) -> None:
    suite = plan_suite(request_for(openai_server, mode="zero_context"), small_tasks).suite
    assert suite.tasks == tuple(small_tasks)
    assert (suite.series.provider, suite.series.mode, suite.series.harness_version) == (
        "openai-compat", "zero_context", HARNESS.version
    )  # fmt: skip
    assert suite.series.task_set_version == task_set_version(small_tasks)
    with pytest.raises(BadInput, match="zero_context"):
        plan_suite(request_for(openai_server, mode="chatty"), small_tasks)
    with pytest.raises(BadInput, match="unknown provider 'acme'"):
        plan_suite(request_for(openai_server, provider="acme"), small_tasks)
    with pytest.raises(BadInput, match=r"^domain 'instruction': no approved tasks in the shipped"):
        plan_suite(request_for(openai_server), [], what="domain")


def test_a_plan_loads_its_request_s_tasks_once(
    openai_server: FakeOpenAIServer, small_file: Path
) -> None:
    plan = plan_suite(request_for(openai_server, tasks=(small_file,)))
    assert plan.suite.tasks == tuple(suite_tasks("instruction", (small_file,)))
    assert plan.series.task_set_version == task_set_version(plan.suite.tasks)
    keyed = plan.with_key("other")
    assert (keyed.request.api_key, keyed.suite) == ("other", plan.suite)


# --- a suite ---------------------------------------------------------------------------


def test_a_suite_is_asked_stored_and_resumed(
    engine: Engine, openai_server: FakeOpenAIServer, small_tasks: list[Task]
) -> None:
    plan = plan_suite(request_for(openai_server, concurrency=2), small_tasks)
    suite = plan.suite
    seen: list[tuple[int, int]] = []
    outcome = asyncio.run(ask(plan, engine, lambda *counts: seen.append(counts)))
    assert (outcome.planned, len(outcome.stored), outcome.skipped) == (6, 6, 0)
    assert seen[-1] == (6, 6)
    runs = series_runs(engine, suite.series)
    assert {r.task_id for r in runs if r.passed} == {"small-1", "small-2", "small-4", "small-turns"}
    assert set(openai_server.authorizations) == {"Bearer k"}
    again = run_plan(plan_suite(plan.request, small_tasks), engine)
    assert (again.planned, again.skipped) == (0, 6)
    assert openai_server.request_count == 7  # six tasks, one of them two turns; none twice


def test_a_limited_request_loads_its_tasks_and_asks_at_most_limit(
    engine: Engine, openai_server: FakeOpenAIServer, small_file: Path
) -> None:
    plan = plan_suite(request_for(openai_server, tasks=(small_file,), limit=2))
    outcome = run_plan(plan, engine)
    assert (outcome.planned, len(outcome.stored)) == (2, 2)
    assert len(series_runs(engine, plan.series)) == 2


def test_the_response_cache_answers_a_repeated_suite_without_the_server(
    tmp_path: Path, openai_server: FakeOpenAIServer, small_tasks: list[Task]
) -> None:
    plan = plan_suite(request_for(openai_server, cache=tmp_path / "cache.db"), small_tasks)
    run_plan(plan, open_store(f"sqlite:///{tmp_path / 'a.db'}"))
    asked = openai_server.request_count
    fresh = open_store(f"sqlite:///{tmp_path / 'b.db'}")
    outcome = run_plan(plan, fresh)
    assert len(outcome.stored) == 6 and openai_server.request_count == asked


# --- a paste ---------------------------------------------------------------------------


def test_a_paste_joins_the_series_of_its_domain_s_task_set(
    engine: Engine, small_file: Path
) -> None:
    pool = load_pool(None, [small_file])
    target = paste_target(pool, "small-1", "alice")
    assert target.task.id == "small-1"
    assert (target.series.model, target.series.provider, target.series.mode) == (
        "alice", "paste", "standard"
    )  # fmt: skip
    assert target.series.task_set_version == task_set_version(pool)
    first = target.store(engine, "alpha")
    second = target.store(engine, "no")
    assert (first.passed, first.paste, first.latency_ms, first.cost_usd) == (True, True, 0, 0)
    assert (second.passed, second.attempt) == (False, 2)
    assert [r.id for r in list_runs(engine)] == [first.id, second.id]


def test_a_paste_for_an_unknown_task_or_an_empty_answer_stores_nothing(
    engine: Engine, small_tasks: list[Task]
) -> None:
    with pytest.raises(BadInput, match=r"^--task 'smal-1': .*did you mean 'small-1'"):
        paste_target(small_tasks, "smal-1", "alice")
    with pytest.raises(BadInput, match="is empty"):
        paste_target(small_tasks, "small-1", "alice").store(engine, "  ")
    assert list_runs(engine) == []
