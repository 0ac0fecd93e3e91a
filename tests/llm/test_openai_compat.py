"""The OpenAI-compatible provider against a real HTTP server on 127.0.0.1."""

from __future__ import annotations

import asyncio
import json
import random
import socket
import subprocess
import sys
import time
from datetime import UTC, datetime
from pathlib import Path

import pytest

from fakes import openai_server as fake
from fakes.openai_server import Behaviour, FakeOpenAIServer
from slopmark.evals.verifiers import Message
from slopmark.llm.base import ChatRequest, ChatResponse, ProviderError
from slopmark.llm.cache import ResponseCache
from slopmark.llm.keys import resolve_api_key
from slopmark.llm.openai_compat import OpenAICompatProvider
from slopmark.llm.prices import load_prices
from slopmark.llm.retry import Backoff, parse_retry_after

openai_server = fake.openai_server  # the fixture, visible to this module's tests

FAST = Backoff(base_s=0.01, cap_s=5.0)
QUESTION = "What is the capital of France?"


def ask(model: str = "fake-model", text: str = QUESTION, **fields: float) -> ChatRequest:
    system = Message("system", "Answer exactly what is asked.")
    return ChatRequest(model, (system, Message("user", text)), **fields)  # type: ignore[arg-type]


def provider(server: FakeOpenAIServer, **options: object) -> OpenAICompatProvider:
    options.setdefault("backoff", FAST)
    options.setdefault("api_key", "test-key")
    return OpenAICompatProvider(server.base_url, **options)  # type: ignore[arg-type]


def complete(client: OpenAICompatProvider, request: ChatRequest) -> ChatResponse:
    async def go() -> ChatResponse:
        async with client:
            return await client.complete(request)

    return asyncio.run(go())


def timed(client: OpenAICompatProvider, request: ChatRequest) -> tuple[ChatResponse, float]:
    started = time.perf_counter()
    response = complete(client, request)
    return response, time.perf_counter() - started


def test_a_normal_answer_has_text_tokens_and_real_latencies(
    openai_server: FakeOpenAIServer,
) -> None:
    openai_server.answer_from({QUESTION: "Paris is the capital."})
    openai_server.enqueue(Behaviour(chunk_delay_s=0.02))
    response = complete(provider(openai_server), ask())
    assert response.text == "Paris is the capital."
    assert response.finish_reason == "stop"
    assert (response.input_tokens, response.output_tokens) == ((5 + 3) + (6 + 3), 4)
    assert 0 < response.first_byte_ms <= response.total_ms
    assert response.total_ms >= 4 * 20  # four paced chunks really took their time
    assert (response.cost_usd, response.upstream, response.cached) == (None, None, False)


def test_the_request_is_streamed_with_the_harness_settings(openai_server: FakeOpenAIServer) -> None:
    complete(provider(openai_server), ask(temperature=0.0, max_tokens=600))
    (body,) = openai_server.requests
    assert body["stream"] is True
    assert body["stream_options"] == {"include_usage": True}
    assert (body["temperature"], body["max_tokens"], body["model"]) == (0.0, 600, "fake-model")
    assert [m["role"] for m in body["messages"]] == ["system", "user"]


def test_429_is_retried_after_the_servers_retry_after(openai_server: FakeOpenAIServer) -> None:
    openai_server.enqueue(Behaviour(status=429, retry_after="1"))
    response, elapsed = timed(provider(openai_server), ask())
    assert response.text == QUESTION
    assert openai_server.request_count == 2
    assert elapsed >= 1.0


def test_retry_after_is_capped(openai_server: FakeOpenAIServer) -> None:
    openai_server.enqueue(Behaviour(status=429, retry_after="3600"))
    client = provider(openai_server, backoff=Backoff(base_s=0.01, cap_s=0.2))
    response, elapsed = timed(client, ask())
    assert response.text == QUESTION
    assert 0.2 <= elapsed < 3


def test_a_500_is_retried(openai_server: FakeOpenAIServer) -> None:
    openai_server.enqueue(Behaviour(status=500), Behaviour(status=503))
    assert complete(provider(openai_server), ask()).text == QUESTION
    assert openai_server.request_count == 3


def test_a_stream_cut_in_the_middle_is_retried(openai_server: FakeOpenAIServer) -> None:
    openai_server.enqueue(Behaviour(drop_after_chunks=2))
    assert complete(provider(openai_server), ask()).text == QUESTION
    assert openai_server.request_count == 2


def test_a_persistent_500_gives_up_after_every_attempt(openai_server: FakeOpenAIServer) -> None:
    openai_server.default = Behaviour(status=500, error_message="upstream exploded")
    with pytest.raises(ProviderError) as raised:
        complete(provider(openai_server, max_retries=2), ask())
    assert openai_server.request_count == 3
    message = str(raised.value)
    assert "HTTP 500" in message and "upstream exploded" in message
    assert "after 3 attempts" in message and "\n" not in message


def test_a_server_that_never_answers_times_out(openai_server: FakeOpenAIServer) -> None:
    openai_server.default = Behaviour(delay_s=5)
    client = provider(openai_server, timeout_s=0.3, max_retries=1)
    with pytest.raises(ProviderError, match="after 2 attempts"):
        timed(client, ask())
    # The client gives up on the retry after 0.3 s; on a loaded machine the server may not
    # have read that request yet, so wait for it (it was sent) rather than race it.
    deadline = time.monotonic() + 10
    while openai_server.request_count < 2 and time.monotonic() < deadline:
        time.sleep(0.05)
    assert openai_server.request_count == 2


def test_a_stream_that_dribbles_past_the_timeout_is_cut(openai_server: FakeOpenAIServer) -> None:
    openai_server.default = Behaviour(chunk_delay_s=0.25)
    client = provider(openai_server, timeout_s=0.6, max_retries=0)
    started = time.perf_counter()
    with pytest.raises(ProviderError, match=r"no complete answer .* in 0\.6s"):
        complete(client, ask(text="one two three four five six seven eight"))
    assert time.perf_counter() - started < 1.5


def test_a_400_is_not_retried(openai_server: FakeOpenAIServer) -> None:
    openai_server.enqueue(Behaviour(status=400, error_message="max_tokens is too large"))
    with pytest.raises(ProviderError, match=r"HTTP 400 .*max_tokens is too large \(not retried\)"):
        complete(provider(openai_server), ask())
    assert openai_server.request_count == 1


def test_a_missing_key_is_named_on_401(
    openai_server: FakeOpenAIServer, monkeypatch: pytest.MonkeyPatch
) -> None:
    for name in ("SLOPMARK_API_KEY", "OPENAI_API_KEY"):
        monkeypatch.delenv(name, raising=False)
    openai_server.enqueue(Behaviour(status=401, error_message="invalid api key"))
    with pytest.raises(ProviderError, match="no API key set .*SLOPMARK_API_KEY"):
        complete(provider(openai_server, api_key=None), ask())


def test_an_unreachable_server_is_a_provider_error() -> None:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    client = OpenAICompatProvider(f"http://127.0.0.1:{port}/v1", max_retries=1, backoff=FAST)
    with pytest.raises(ProviderError, match=f"cannot reach http://127.0.0.1:{port}/v1"):
        complete(client, ask())


def test_the_apis_own_cost_wins_over_the_price_table(openai_server: FakeOpenAIServer) -> None:
    openai_server.enqueue(Behaviour(cost=0.0123))
    assert complete(provider(openai_server), ask(model="gpt-4o")).cost_usd == 0.0123


def test_the_price_table_prices_a_known_model(openai_server: FakeOpenAIServer) -> None:
    response = complete(provider(openai_server), ask(model="openai/gpt-4o-mini"))
    expected = (response.input_tokens or 0) * 0.15e-6 + (response.output_tokens or 0) * 0.6e-6
    assert response.cost_usd == pytest.approx(expected)
    assert response.cost_usd > 0


def test_an_unknown_model_costs_none_not_zero(openai_server: FakeOpenAIServer) -> None:
    response = complete(provider(openai_server), ask(model="mystery-model-7b"))
    assert response.cost_usd is None
    assert response.input_tokens is not None


def test_a_listed_local_model_costs_zero(openai_server: FakeOpenAIServer) -> None:
    client = provider(openai_server, prices=load_prices("2026-11"))
    assert complete(client, ask(model="SmolLM2-135M-Instruct")).cost_usd == 0.0


def test_the_upstream_provider_and_truncation_are_captured(
    openai_server: FakeOpenAIServer,
) -> None:
    openai_server.enqueue(Behaviour(provider="DeepInfra", finish_reason="length"))
    response = complete(provider(openai_server), ask())
    assert (response.upstream, response.finish_reason) == ("DeepInfra", "length")


def test_the_key_comes_from_the_argument_then_the_environment() -> None:
    environ = {"OPENAI_API_KEY": "from-openai", "SLOPMARK_API_KEY": "from-slopmark"}
    assert resolve_api_key("explicit", environ) == "explicit"
    assert resolve_api_key(None, environ) == "from-slopmark"
    assert resolve_api_key(None, {"OPENAI_API_KEY": "from-openai"}) == "from-openai"
    assert resolve_api_key(None, {}) is None


def test_a_cache_hit_sends_no_second_request(
    openai_server: FakeOpenAIServer, tmp_path: Path
) -> None:
    openai_server.enqueue(Behaviour(cost=0.5, provider="Groq"))
    with ResponseCache(tmp_path / "cache.db", harness_version="h1") as cache:
        first = complete(provider(openai_server, cache=cache), ask())
        second = complete(provider(openai_server, cache=cache), ask())
        other = complete(provider(openai_server, cache=cache), ask(temperature=0.7))
    assert openai_server.request_count == 2
    assert (first.cached, second.cached, other.cached) == (False, True, False)
    assert second == ChatResponse(**{**first.__dict__, "cached": True})


def test_an_error_is_not_cached(openai_server: FakeOpenAIServer, tmp_path: Path) -> None:
    openai_server.enqueue(Behaviour(status=400))
    with ResponseCache(tmp_path / "cache.db", harness_version="h1") as cache:
        with pytest.raises(ProviderError):
            complete(provider(openai_server, cache=cache), ask())
        assert complete(provider(openai_server, cache=cache), ask()).cached is False
    assert openai_server.request_count == 2


ANOTHER_PROCESS = """
import asyncio, json, sys
from slopmark.evals.verifiers import Message
from slopmark.llm.base import ChatRequest
from slopmark.llm.cache import ResponseCache
from slopmark.llm.openai_compat import OpenAICompatProvider

base_url, path, model = sys.argv[1:4]
request = ChatRequest(model, (Message("system", "Answer exactly what is asked."),
                              Message("user", "What is the capital of France?")))

async def main():
    async with OpenAICompatProvider(base_url, api_key="k", max_retries=0) as client:
        client.cache = ResponseCache(path, harness_version="h1")
        response = await client.complete(request)
        print(json.dumps({"text": response.text, "cached": response.cached}))

asyncio.run(main())
"""


@pytest.mark.slow
def test_the_cache_survives_into_a_new_process(
    openai_server: FakeOpenAIServer, tmp_path: Path
) -> None:
    path = tmp_path / "cache.db"
    with ResponseCache(path, harness_version="h1") as cache:
        complete(provider(openai_server, cache=cache), ask())
    argv = [sys.executable, "-c", ANOTHER_PROCESS, openai_server.base_url, str(path), "fake-model"]
    done = subprocess.run(argv, capture_output=True, text=True, timeout=60, check=False)
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout) == {"text": QUESTION, "cached": True}
    assert openai_server.request_count == 1


def test_concurrent_requests_all_arrive(openai_server: FakeOpenAIServer) -> None:
    client = provider(openai_server)

    async def go() -> list[ChatResponse]:
        async with client:
            return await asyncio.gather(*(client.complete(ask(text=f"q{i}")) for i in range(40)))

    texts = [r.text for r in asyncio.run(go())]
    assert texts == [f"q{i}" for i in range(40)]
    assert openai_server.request_count == 40


@pytest.mark.parametrize(
    ("header", "seconds"),
    [
        ("7", 7.0),
        (" 2.5 ", 2.5),
        ("-3", 0.0),
        ("Wed, 01 Jan 2031 00:00:30 GMT", 30.0),
        ("Tue, 31 Dec 2030 23:59:00 GMT", 0.0),
        ("soon", None),
        ("", None),
        (None, None),
    ],
)
def test_retry_after_reads_seconds_and_http_dates(
    header: str | None, seconds: float | None
) -> None:
    now = datetime(2031, 1, 1, tzinfo=UTC)
    assert parse_retry_after(header, now) == seconds


def test_backoff_grows_exponentially_with_jitter_and_a_cap() -> None:
    backoff, rng = Backoff(base_s=1.0, cap_s=5.0), random.Random(0)
    delays = [backoff.delay(n, None, rng) for n in range(5)]
    for n, delay in enumerate(delays):
        step = min(5.0, 2.0**n)
        assert step / 2 <= delay <= step
    assert backoff.delay(0, 60.0, rng) == 5.0


def test_a_server_streaming_no_usage_is_asked_again_without_streaming(
    openai_server: FakeOpenAIServer,
) -> None:
    openai_server.answer_from({QUESTION: "Paris is the capital."})
    openai_server.default = Behaviour(stream_usage=False)
    client = provider(openai_server)

    async def twice() -> list[ChatResponse]:
        async with client:
            return [await client.complete(ask()), await client.complete(ask())]

    first, second = asyncio.run(twice())
    for response in (first, second):
        assert response.text == "Paris is the capital."
        assert (response.input_tokens, response.output_tokens) == (17, 4)
        assert response.first_byte_ms == response.total_ms > 0
    streamed = [bool(body.get("stream")) for body in openai_server.requests]
    assert streamed == [True, False, False]  # one probe stream, then whole answers only
