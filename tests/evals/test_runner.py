"""The runner against a real OpenAI-compatible server, paste runs and suite summaries."""

from __future__ import annotations

import asyncio
import dataclasses
from collections.abc import Mapping, Sequence
from typing import Any

import pytest
from sqlalchemy import Engine

from fakes.openai_server import Behaviour, FakeOpenAIServer
from slopmark.evals.harness import HARNESS
from slopmark.evals.pool import find_task, task_set_version
from slopmark.evals.runner import Outcome, Suite, paste_run, run_suite, verdict_of
from slopmark.evals.summary import summarise
from slopmark.evals.task import Task
from slopmark.evals.verifiers import Message, Verdict, get_verifier, register, verifier_names
from slopmark.llm.base import ChatRequest, ChatResponse
from slopmark.llm.openai_compat import OpenAICompatProvider
from slopmark.llm.retry import Backoff
from slopmark.store import Run, Series, series_runs

ECHO = Task("echo-1", "instruction", ("Say hi.",), {"type": "instruction", "rules": []})


def suite_of(tasks: list[Task], mode: str = "standard") -> Suite:
    series = Series("fake-model", "openai-compat", HARNESS.version, mode, task_set_version(tasks))
    return Suite(tuple(tasks), series)


# --- the runner ----------------------------------------------------------------


def provider(server: FakeOpenAIServer, retries: int = 0) -> OpenAICompatProvider:
    return OpenAICompatProvider(
        server.base_url, timeout_s=10, max_retries=retries, backoff=Backoff(0.001, 0.01)
    )


def run(engine: Engine, server: FakeOpenAIServer, suite: Suite, **options: Any) -> Outcome:
    async def go() -> Outcome:
        async with provider(server, options.pop("retries", 0)) as client:
            return await run_suite(engine, client, suite, **options)

    return asyncio.run(go())


def by_task(runs: Sequence[Run]) -> dict[str, Run]:
    return {r.task_id: r for r in runs}


def _words(messages: Sequence[Mapping[str, Any]]) -> int:
    return sum(len(str(m["content"]).split()) + 3 for m in messages)


def test_a_suite_stores_one_scored_row_per_task_with_usage(
    engine: Engine, openai_server: FakeOpenAIServer, small_tasks: list[Task]
) -> None:
    suite = suite_of(small_tasks)
    outcome = run(engine, openai_server, suite, concurrency=4)
    runs = series_runs(engine, suite.series)
    assert (len(outcome.stored), outcome.skipped, len(runs)) == (6, 0, 6)
    assert sorted(r.task_id for r in runs) == sorted(t.id for t in small_tasks)
    passed = {r.task_id for r in runs if r.passed}
    assert passed == {"small-1", "small-2", "small-4", "small-turns"}
    first = by_task(runs)["small-1"]
    request = next(q for q in openai_server.requests if "alpha" in str(q["messages"]))
    assert (request["temperature"], request["max_tokens"]) == (0.0, 600)
    assert first.input_tokens == _words(request["messages"])
    assert first.output_tokens == 5 and first.output == "Reply with the word alpha."
    assert 0 < first.latency_first_byte_ms <= first.latency_ms  # type: ignore[operator]
    assert (first.status, first.finish_reason, first.truncated, first.paste) == (
        "ok", "stop", False, False
    )
    assert first.cost_usd is None  # an unpriced model: unknown, never 0
    assert first.details["checks"][0]["name"] == "required_phrase"
    assert (first.source, first.domain, first.harness_version) == (
        "seed", "instruction", HARNESS.version
    )


def test_multi_turn_tasks_feed_the_answers_back(
    engine: Engine, openai_server: FakeOpenAIServer, small_tasks: list[Task]
) -> None:
    openai_server.answer_from({"Say one.": "one", "Now say two.": "two, done"})
    task = find_task(small_tasks, "small-turns")
    run(engine, openai_server, suite_of([task], mode="zero_context"))
    second = openai_server.requests[1]["messages"]
    assert second == [
        {"role": "user", "content": "Say one."},
        {"role": "assistant", "content": "one"},
        {"role": "user", "content": "Now say two."},
    ]
    stored = series_runs(engine, suite_of([task], mode="zero_context").series)[0]
    assert (stored.output, stored.passed) == ("two, done", True)
    assert stored.input_tokens == _words(openai_server.requests[0]["messages"]) + _words(second)


def test_reported_cost_upstream_and_truncation_are_stored(
    engine: Engine, openai_server: FakeOpenAIServer, small_tasks: list[Task]
) -> None:
    openai_server.default = Behaviour(cost=0.0025, provider="Groq", finish_reason="length")
    suite = suite_of(small_tasks[:1])
    run(engine, openai_server, suite)
    stored = series_runs(engine, suite.series)[0]
    assert (stored.cost_usd, stored.upstream, stored.finish_reason, stored.truncated) == (
        0.0025, "Groq", "length", True
    )


def test_an_empty_answer_is_flagged_truncated(
    engine: Engine, openai_server: FakeOpenAIServer, small_tasks: list[Task]
) -> None:
    openai_server.answer = lambda messages: ""
    suite = suite_of(small_tasks[:1])
    run(engine, openai_server, suite)
    stored = series_runs(engine, suite.series)[0]
    assert (stored.output, stored.truncated, stored.passed) == ("", True, False)


def test_persistent_server_errors_are_errored_runs_and_retry_errors_reruns_only_them(
    engine: Engine, openai_server: FakeOpenAIServer, small_tasks: list[Task]
) -> None:
    suite = suite_of(small_tasks)
    # one task at a time: the first two tasks meet two 500s each (the try and its retry)
    openai_server.enqueue(*[Behaviour(status=500)] * 4)
    run(engine, openai_server, suite, concurrency=1, retries=1)
    runs = by_task(series_runs(engine, suite.series))
    errored = {t for t, r in runs.items() if r.status == "error"}
    assert errored == {"small-1", "small-2"}
    assert runs["small-1"].passed is None and runs["small-1"].score is None
    assert "HTTP 500" in (runs["small-1"].error or "")
    summary = summarise([t.id for t in small_tasks], series_runs(engine, suite.series))
    assert (summary.ok, summary.errors, summary.n, summary.passed) == (4, 2, 4, 2)
    before = openai_server.request_count
    outcome = run(engine, openai_server, suite, retry_errors=True)
    asked = [str(q["messages"][-1]["content"]) for q in openai_server.requests[before:]]
    assert sorted(asked) == ["Reply with the word alpha.", "Reply with the word bravo."]
    assert (len(outcome.stored), outcome.skipped) == (2, 4)
    final = summarise([t.id for t in small_tasks], series_runs(engine, suite.series))
    assert (final.ok, final.errors, final.passed, final.pass_rate) == (6, 0, 4, 4 / 6)
    attempts = [(r.task_id, r.attempt, r.status) for r in series_runs(engine, suite.series)]
    assert ("small-1", 2, "ok") in attempts and ("small-1", 1, "error") in attempts


def test_a_resumed_suite_asks_only_the_unfinished_tasks(
    engine: Engine, openai_server: FakeOpenAIServer, small_tasks: list[Task]
) -> None:
    suite = suite_of(small_tasks)
    assert len(run(engine, openai_server, suite, limit=2).stored) == 2
    requests = openai_server.request_count
    outcome = run(engine, openai_server, suite)
    assert (len(outcome.stored), outcome.skipped) == (4, 2)
    assert openai_server.request_count == requests + 5  # small-turns asks twice
    assert run(engine, openai_server, suite).planned == 0
    assert len(series_runs(engine, suite.series)) == 6


class Counting:
    """A provider passing every call to a real one, counting calls in flight."""

    name = "counting"

    def __init__(self, inner: OpenAICompatProvider) -> None:
        self.inner, self.now, self.most = inner, 0, 0

    async def complete(self, request: ChatRequest) -> ChatResponse:
        self.now += 1
        self.most = max(self.most, self.now)
        try:
            return await self.inner.complete(request)
        finally:
            self.now -= 1


@pytest.mark.parametrize("concurrency", [1, 3])
def test_no_more_tasks_than_the_limit_are_in_flight(
    engine: Engine, openai_server: FakeOpenAIServer, concurrency: int
) -> None:
    openai_server.default = Behaviour(delay_s=0.05)
    tasks = [dataclasses.replace(ECHO, id=f"echo-{i}") for i in range(8)]

    async def go() -> int:
        async with provider(openai_server) as inner:
            counting = Counting(inner)
            await run_suite(engine, counting, suite_of(tasks), concurrency=concurrency)
            return counting.most

    assert asyncio.run(go()) == concurrency


@register("crashes-in-tests")
class _Crashing:
    name = "crashes-in-tests"

    def problems(self, config: Mapping[str, Any]) -> list[str]:
        return []

    def verify(
        self, config: Mapping[str, Any], output: str, transcript: Sequence[Message]
    ) -> Verdict:
        raise ZeroDivisionError("a verifier bug")


def test_a_crashing_verifier_errors_the_run_and_the_suite_goes_on(
    engine: Engine, openai_server: FakeOpenAIServer
) -> None:
    broken = dataclasses.replace(ECHO, id="broken", verifier={"type": "crashes-in-tests"})
    fine = dataclasses.replace(ECHO, verifier={"type": "instruction", "rules": []})
    suite = suite_of([broken, fine])
    run(engine, openai_server, suite)
    runs = by_task(series_runs(engine, suite.series))
    assert runs["broken"].status == "error" and runs["broken"].output == "Say hi."
    assert "ZeroDivisionError: a verifier bug" in (runs["broken"].error or "")
    assert runs["echo-1"].status == "ok"


BUILT_IN = [n for n in verifier_names() if type(get_verifier(n)).__module__.startswith("slopmark.")]


@pytest.mark.parametrize("name", BUILT_IN)
def test_a_config_with_problems_fails_the_verdict_before_the_verifier_sees_it(
    name: str,
) -> None:
    verifier = get_verifier(name)
    config = {"type": name}  # every built-in verifier needs more than its type
    problems = verifier.problems(config)
    verdict = verdict_of(verifier, config, "anything", [Message("user", "hi")])
    assert problems and (verdict.passed, verdict.score) == (False, 0.0)
    assert [(c.name, c.passed, c.detail) for c in verdict.checks] == [
        ("config", False, "; ".join(problems))
    ]


# --- paste runs and summaries ------------------------------------------------


def test_a_paste_run_has_zero_latency_and_cost(small_tasks: list[Task]) -> None:
    series = dataclasses.replace(suite_of(small_tasks).series, provider="paste")
    pasted = paste_run(find_task(small_tasks, "small-1"), "alpha", series)
    assert (pasted.latency_ms, pasted.latency_first_byte_ms, pasted.cost_usd) == (0.0, 0.0, 0.0)
    assert (pasted.paste, pasted.passed, pasted.status, pasted.input_tokens) == (
        True, True, "ok", None
    )


def test_a_multi_turn_paste_is_the_final_answer(small_tasks: list[Task]) -> None:
    task = find_task(small_tasks, "small-turns")
    assert paste_run(task, "two", suite_of(small_tasks).series).passed
    assert not paste_run(task, "one", suite_of(small_tasks).series).passed


def test_a_summary_never_invents_a_cost_or_a_rate() -> None:
    base = Run("t", "math", "m", "p", "h", "standard", "v", "seed", "ok", passed=True, score=1.0)
    runs = [base, dataclasses.replace(base, task_id="u", cost_usd=0.5, latency_ms=10.0)]
    summary = summarise(["t", "u", "w"], runs)
    assert (summary.total_cost_usd, summary.cost_unknown, summary.not_run) == (None, 1, 1)
    assert summary.mean_latency_ms == 10.0
    empty = summarise(["t"], [dataclasses.replace(base, status="error", passed=None)])
    assert (empty.pass_rate, empty.mean_score, empty.errors, empty.n) == (None, None, 1, 0)


def test_a_summary_counts_a_retried_task_once() -> None:
    error = Run("t", "math", "m", "p", "h", "standard", "v", "seed", "error")
    ok = dataclasses.replace(error, status="ok", passed=False, score=0.5, cost_usd=0.0)
    summary = summarise(["t"], [error, ok])
    assert (summary.ok, summary.errors, summary.passed, summary.total_cost_usd) == (1, 0, 0, 0.0)
