"""The blocking model client against a real OpenAI-compatible server on 127.0.0.1."""

from __future__ import annotations

import json
import time

import pytest

from fakes import openai_server as fake
from fakes.openai_server import Behaviour, FakeOpenAIServer, ToolCall
from slopmark.llm.base import ProviderError
from slopmark.llm.client import ModelClient, ToolRequest
from slopmark.llm.keys import PLACEHOLDER_KEY
from slopmark.llm.retry import Backoff

openai_server = fake.openai_server
FAST = Backoff(base_s=0.01, cap_s=0.05)
USER = [{"role": "user", "content": "say hello"}]


def client_of(server: FakeOpenAIServer, max_retries: int = 2) -> ModelClient:
    return ModelClient(server.base_url, max_retries=max_retries, backoff=FAST)


def test_chat_returns_text_tokens_and_the_reported_cost(openai_server: FakeOpenAIServer) -> None:
    openai_server.enqueue(Behaviour(cost=0.0012))
    with client_of(openai_server) as client:
        reply = client.chat("fake-model", USER, temperature=0.0, max_tokens=8)
    assert (reply.text, reply.finish_reason, reply.tool_calls) == ("say hello", "stop", ())
    # prompt_tokens: 2 words + 3 per message; completion_tokens: 2 words
    assert (reply.input_tokens, reply.output_tokens, reply.cost_usd) == (5, 2, 0.0012)
    sent = openai_server.requests[0]
    assert (sent["temperature"], sent["max_tokens"], "tools" in sent) == (0.0, 8, False)
    assert openai_server.authorizations == [f"Bearer {PLACEHOLDER_KEY}"]


def test_an_unpriced_model_without_a_reported_cost_costs_none(
    openai_server: FakeOpenAIServer,
) -> None:
    with client_of(openai_server) as client:
        assert client.chat("no-such-model", USER).cost_usd is None


def test_chat_offers_tools_and_reads_the_calls(openai_server: FakeOpenAIServer) -> None:
    openai_server.enqueue(Behaviour(tool_calls=(ToolCall("write_file", {"path": "a.py"}),)))
    tool = {"type": "function", "function": {"name": "write_file", "parameters": {}}}
    with client_of(openai_server) as client:
        reply = client.chat("fake-model", USER, tools=[tool])
    assert reply.tool_calls == (ToolRequest("call_0", "write_file", '{"path": "a.py"}'),)
    assert reply.finish_reason == "tool_calls" and reply.text is None
    assert openai_server.requests[0]["tools"] == [tool]
    wire = reply.tool_calls[0].wire()
    assert wire["type"] == "function" and json.loads(wire["function"]["arguments"]) == {
        "path": "a.py"
    }


def test_chat_sends_image_parts_as_given(openai_server: FakeOpenAIServer) -> None:
    openai_server.answer = lambda messages: "a box"
    url = "data:image/png;base64,iVBORw0KGgo="
    parts = [{"type": "text", "text": "What?"}, {"type": "image_url", "image_url": {"url": url}}]
    with client_of(openai_server) as client:
        assert client.chat("vision", [{"role": "user", "content": parts}]).text == "a box"
    assert openai_server.image_requests == 1
    assert openai_server.requests[0]["messages"][0]["content"] == parts


def test_a_rate_limit_is_retried_after_the_servers_retry_after(
    openai_server: FakeOpenAIServer,
) -> None:
    openai_server.enqueue(Behaviour(status=429, retry_after="0.2"))
    slow = Backoff(base_s=60.0, cap_s=60.0)  # without Retry-After the wait would be ≥ 30 s
    started = time.monotonic()
    with ModelClient(openai_server.base_url, backoff=slow) as client:
        assert client.chat("fake-model", USER).text == "say hello"
    assert openai_server.request_count == 2
    assert time.monotonic() - started < 20


def test_server_errors_are_retried_then_reported(openai_server: FakeOpenAIServer) -> None:
    openai_server.default = Behaviour(status=503, error_message="overloaded")
    with client_of(openai_server, max_retries=2) as client, pytest.raises(ProviderError) as raised:
        client.chat("fake-model", USER)
    assert openai_server.request_count == 3
    assert raised.value.status == 503
    assert str(raised.value) == (
        f"HTTP 503 from {openai_server.base_url}: overloaded (gave up after 3 attempts)"
    )


def test_a_bad_request_is_not_retried(openai_server: FakeOpenAIServer) -> None:
    openai_server.default = Behaviour(status=400, error_message="tools not supported")
    with client_of(openai_server) as client, pytest.raises(ProviderError) as raised:
        client.chat("fake-model", USER)
    assert openai_server.request_count == 1 and raised.value.status == 400
    assert str(raised.value).endswith("tools not supported (not retried)")


def test_an_unreachable_endpoint_is_a_provider_error() -> None:
    client = ModelClient("http://127.0.0.1:9/v1", backoff=FAST, max_retries=1, timeout_s=5)
    with client, pytest.raises(ProviderError, match=r"cannot reach http://127\.0\.0\.1:9/v1"):
        client.chat("m", USER)


def test_prompt_logprobs_cover_the_prompt_then_the_generated_token(
    openai_server: FakeOpenAIServer,
) -> None:
    prompt = "the cat saw the cat"
    with client_of(openai_server) as client:
        rows = client.prompt_logprobs("scorer", prompt)
    inside = [row for row in rows if row[1] < len(prompt)]
    assert "".join(text for text, _, _ in inside) == prompt
    assert [value for _, _, value in inside] == [None, -4.0, -4.0, -0.5, -0.5]
    assert rows[-1] == (" the", len(prompt), -0.5)
    sent = openai_server.requests[0]
    assert (sent["echo"], sent["logprobs"], sent["max_tokens"]) == (True, 1, 1)


def test_a_server_without_prompt_logprobs_is_named(openai_server: FakeOpenAIServer) -> None:
    openai_server.logprobs = lambda prompt: []  # no tokens echoed, none generated
    with client_of(openai_server) as client, pytest.raises(ProviderError) as raised:
        client.prompt_logprobs("scorer", "text", max_tokens=0)
    assert f"{openai_server.base_url} sent no prompt log-probabilities" in str(raised.value)
