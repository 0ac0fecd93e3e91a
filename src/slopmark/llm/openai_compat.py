"""The OpenAI-compatible chat provider: OpenAI, OpenRouter, vLLM, llama.cpp's server, Ollama.

Every completion is streamed (``stream=True`` with ``include_usage``) so the
latencies are real: ``first_byte_ms`` runs from sending the request to the
first chunk, ``total_ms`` to the end of the stream, both for the attempt that
succeeded (waits between retries are not the model's latency). Token counts
come from the final usage chunk; ``cost_usd`` from the API's own
``usage.cost`` when it reports one (OpenRouter), else from the price table by
the requested model name, else None. ``upstream`` is the ``provider`` field
routers put on their chunks.

Some servers (llama-cpp-python's among them) ignore ``include_usage`` and
stream no token counts. When a stream ends without usage, the provider asks
the same request once more without streaming, which does report usage, and
keeps to non-streaming requests from then on; for those ``first_byte_ms``
equals ``total_ms`` (the body arrives whole).

The SDK's own retries are off; `slopmark.llm.retry` retries 429, 5xx,
connection errors and timeouts, and turns the last failure into
`ProviderError`; ``on_retry`` (a `slopmark.llm.retry.OnRetry`) hears of each
retry before its wait. Each attempt is bounded by ``timeout_s`` as a whole, not
only between bytes. Redirects are never followed (`slopmark.llm.transport`).
"""

from __future__ import annotations

import asyncio
import os
import time
from dataclasses import dataclass, field
from types import TracebackType
from typing import Any, cast

import openai
from openai import AsyncOpenAI
from openai.types.chat import ChatCompletionMessageParam

from slopmark.llm.base import ChatRequest, ChatResponse
from slopmark.llm.cache import ResponseCache
from slopmark.llm.failures import failure_of
from slopmark.llm.keys import resolve_api_key, wire_key
from slopmark.llm.prices import PriceTable, load_prices, usage_numbers
from slopmark.llm.retry import AttemptFailed, Backoff, Failure, OnRetry, call_with_retries
from slopmark.llm.transport import AsyncNoRedirects

__all__ = ["OpenAICompatProvider"]


class OpenAICompatProvider:
    """A `ChatProvider` for any server speaking OpenAI's ``/chat/completions``."""

    name = "openai-compat"

    def __init__(
        self,
        base_url: str,
        api_key: str | None = None,
        timeout_s: float = 60.0,
        max_retries: int = 4,
        cache: ResponseCache | None = None,
        prices: PriceTable | None = None,
        backoff: Backoff | None = None,
        on_retry: OnRetry | None = None,
    ) -> None:
        self.base_url = base_url.rstrip("/")
        self.on_retry = on_retry
        self._key = resolve_api_key(api_key, os.environ)
        self.timeout_s = timeout_s
        self.max_retries = max_retries
        self.cache = cache
        self.prices = prices if prices is not None else load_prices()
        self.backoff = backoff or Backoff()
        self._client: AsyncOpenAI | None = None
        self._client_loop: asyncio.AbstractEventLoop | None = None
        self._streams_usage = True

    async def complete(self, request: ChatRequest) -> ChatResponse:
        """One completion (from the cache when it holds one); `ProviderError` on failure."""
        if self.cache is not None:
            hit = await self.cache.lookup(self.base_url, request)
            if hit is not None:
                return hit
        response = await call_with_retries(
            lambda: self._attempt(request), self.max_retries, self.backoff, on_retry=self.on_retry
        )
        if self.cache is not None:
            await self.cache.store(self.base_url, request, response)
        return response

    async def aclose(self) -> None:
        if self._client is not None:
            await self._client.close()
        self._client = None
        self._client_loop = None

    async def __aenter__(self) -> OpenAICompatProvider:
        return self

    async def __aexit__(
        self,
        kind: type[BaseException] | None,
        error: BaseException | None,
        trace: TracebackType | None,
    ) -> None:
        await self.aclose()

    def _openai(self) -> AsyncOpenAI:
        """The SDK client of the running event loop (its connections belong to one loop)."""
        loop = asyncio.get_running_loop()
        if self._client is None or self._client_loop is not loop:
            self._client = AsyncOpenAI(
                base_url=self.base_url,
                api_key=wire_key(self._key),
                timeout=self.timeout_s,
                max_retries=0,
                http_client=AsyncNoRedirects(),
            )
            self._client_loop = loop
        return self._client

    async def _attempt(self, request: ChatRequest) -> ChatResponse:
        try:
            async with asyncio.timeout(self.timeout_s):
                if self._streams_usage:
                    return await self._stream(request)
                return await self._whole(request)
        except TimeoutError as error:
            late = f"no complete answer from {self.base_url} in {self.timeout_s:g}s"
            raise AttemptFailed(Failure(late, True)) from error
        except openai.APIError as error:
            failure = failure_of(error, self.base_url, self.timeout_s, self._key is None)
            raise AttemptFailed(failure) from error

    async def _stream(self, request: ChatRequest) -> ChatResponse:
        started = time.perf_counter()
        stream = await self._openai().chat.completions.create(
            model=request.model,
            messages=_wire_messages(request),
            temperature=request.temperature,
            max_tokens=request.max_tokens,
            stream=True,
            stream_options={"include_usage": True},
        )
        collected = _Collected(started)
        async with stream:
            async for chunk in stream:
                collected.add(chunk)
        if collected.usage is None:
            self._streams_usage = False
            return await self._whole(request)
        return collected.response(request.model, self.prices)

    async def _whole(self, request: ChatRequest) -> ChatResponse:
        """One non-streaming completion, for servers that stream no usage."""
        collected = _Collected(time.perf_counter())
        completion = await self._openai().chat.completions.create(
            model=request.model,
            messages=_wire_messages(request),
            temperature=request.temperature,
            max_tokens=request.max_tokens,
        )
        collected.add_completion(completion)
        return collected.response(request.model, self.prices)


@dataclass
class _Collected:
    """What the stream said so far."""

    started: float
    parts: list[str] = field(default_factory=list)
    first_byte_ms: float | None = None
    finish_reason: str | None = None
    usage: Any = None
    upstream: str | None = None

    def add(self, chunk: Any) -> None:
        if self.first_byte_ms is None:
            self.first_byte_ms = _ms_since(self.started)
        self.upstream = _upstream(chunk) or self.upstream
        for choice in chunk.choices:
            self._add_choice(choice)
        if chunk.usage is not None:
            self.usage = chunk.usage

    def add_completion(self, completion: Any) -> None:
        """Take a whole (non-streamed) completion: its body arrived all at once."""
        self.upstream = _upstream(completion)
        for choice in completion.choices:
            if choice.message is not None and choice.message.content:
                self.parts.append(choice.message.content)
            self.finish_reason = choice.finish_reason or self.finish_reason
        self.usage = completion.usage

    def _add_choice(self, choice: Any) -> None:
        content = choice.delta.content if choice.delta is not None else None
        if content:
            self.parts.append(content)
        self.finish_reason = choice.finish_reason or self.finish_reason

    def response(self, model: str, prices: PriceTable) -> ChatResponse:
        total_ms = _ms_since(self.started)
        input_tokens, output_tokens, cost = usage_numbers(self.usage, model, prices)
        return ChatResponse(
            text="".join(self.parts),
            finish_reason=self.finish_reason,
            input_tokens=input_tokens,
            output_tokens=output_tokens,
            cost_usd=cost,
            first_byte_ms=total_ms if self.first_byte_ms is None else self.first_byte_ms,
            total_ms=total_ms,
            upstream=self.upstream,
        )


def _upstream(chunk: Any) -> str | None:
    """The ``provider`` field routers (OpenRouter) put on each chunk, when present."""
    provider = (chunk.model_extra or {}).get("provider")
    return provider if isinstance(provider, str) and provider else None


def _wire_messages(request: ChatRequest) -> list[ChatCompletionMessageParam]:
    return [
        cast("ChatCompletionMessageParam", {"role": m.role, "content": m.content})
        for m in request.messages
    ]


def _ms_since(started: float) -> float:
    return (time.perf_counter() - started) * 1000.0
