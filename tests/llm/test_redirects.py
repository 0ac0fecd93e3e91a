"""Model clients never follow a redirect: a real 127.0.0.1 server answers 307 (or 308)
pointing at a second real server, which must never be called (so it never sees the key)."""

from __future__ import annotations

import asyncio
from collections.abc import Iterator

import pytest

from fakes import openai_server as fake
from fakes.openai_server import FakeOpenAIServer
from fakes.redirect_server import RedirectServer
from slopmark.llm.base import ChatRequest, Message, ProviderError
from slopmark.llm.client import ModelClient
from slopmark.llm.openai_compat import OpenAICompatProvider
from slopmark.llm.retry import Backoff

openai_server = fake.openai_server  # the fixture, visible to this module's tests

FAST = Backoff(base_s=0.01, cap_s=0.05)


@pytest.fixture(params=[307, 308])
def redirect(
    request: pytest.FixtureRequest, openai_server: FakeOpenAIServer
) -> Iterator[RedirectServer]:
    """A server redirecting every request to ``openai_server`` (another origin)."""
    with RedirectServer(openai_server.base_url, status=request.param) as server:
        yield server


def _expected(redirect: RedirectServer, target: FakeOpenAIServer) -> str:
    return (
        f"model endpoint {redirect.base_url} answered {redirect.status} → "
        f"{target.base_url}/chat/completions: redirects are not followed; use the final URL "
        f"as the base URL ({target.base_url}) (not retried)"
    )


def test_the_eval_provider_does_not_follow_a_redirect(
    redirect: RedirectServer, openai_server: FakeOpenAIServer
) -> None:
    provider = OpenAICompatProvider(redirect.base_url, api_key="secret-key", backoff=FAST)
    request = ChatRequest("m", (Message("user", "hi"),))

    async def go() -> None:
        async with provider:
            await provider.complete(request)

    with pytest.raises(ProviderError) as raised:
        asyncio.run(go())
    assert str(raised.value) == _expected(redirect, openai_server)
    assert raised.value.status == redirect.status
    assert redirect.seen == ["/v1/chat/completions"]  # asked once: a redirect is not retried
    assert openai_server.request_count == 0 and openai_server.authorizations == []


def test_the_blocking_client_does_not_follow_a_redirect(
    redirect: RedirectServer, openai_server: FakeOpenAIServer
) -> None:
    client = ModelClient(redirect.base_url, api_key="secret-key", backoff=FAST, timeout_s=10)
    with client:
        with pytest.raises(ProviderError) as raised:
            client.chat("m", [{"role": "user", "content": "hi"}])
        assert str(raised.value) == _expected(redirect, openai_server)
        with pytest.raises(ProviderError, match="redirects are not followed"):
            client.prompt_logprobs("m", "the cat")
    assert redirect.seen == ["/v1/chat/completions", "/v1/completions"]
    assert openai_server.request_count == 0 and openai_server.authorizations == []
