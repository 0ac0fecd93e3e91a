"""A blocking client of one OpenAI-compatible endpoint: chat, tools, images, prompt logprobs.

The paper measures, the revision loop and the bench's `loop` agent call
models through it; the eval runs use the streaming
`slopmark.llm.openai_compat.OpenAICompatProvider`. Both share the one retry
policy (`slopmark.llm.retry`: 429, 5xx, timeouts and connection errors are
retried, honouring Retry-After; the SDK's own retries are off), the one
failure description (`slopmark.llm.failures`), the one key rule
(`slopmark.llm.keys`) and the one cost calculation
(`slopmark.llm.prices.usage_numbers`).

Messages are sent as given, so a message may carry image parts
(``{"type": "image_url", ...}``), tool calls or tool results. Prompt
log-probabilities come from the legacy completions endpoint with
``echo=True, logprobs=1`` (llama.cpp's server and vLLM answer it):
``choices[0].logprobs`` carries ``tokens``, ``token_logprobs`` and ``text_offset``.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, TypeVar, cast

import openai
from openai import OpenAI, omit
from openai.types.chat import (
    ChatCompletionMessageFunctionToolCall,
    ChatCompletionMessageParam,
    ChatCompletionToolUnionParam,
)

from slopmark.closing import Closes
from slopmark.llm.base import ProviderError
from slopmark.llm.failures import failure_of
from slopmark.llm.keys import wire_key
from slopmark.llm.prices import PriceTable, load_prices, usage_numbers
from slopmark.llm.retry import AttemptFailed, Backoff, OnRetry, call_blocking_with_retries
from slopmark.llm.transport import NoRedirects

T = TypeVar("T")
#: ``(token text, character offset in the prompt, log-probability or None)``.
TokenRow = tuple[str, int, float | None]


@dataclass(frozen=True)
class ToolRequest:
    """One function call the model asked for; ``arguments`` is the JSON text as sent."""

    id: str
    name: str
    arguments: str

    def wire(self) -> dict[str, Any]:
        """The call as an assistant message's ``tool_calls`` entry."""
        function = {"name": self.name, "arguments": self.arguments}
        return {"id": self.id, "type": "function", "function": function}


@dataclass(frozen=True)
class Reply:
    """One chat completion. Unknown numbers are None, never 0."""

    text: str | None
    tool_calls: tuple[ToolRequest, ...]
    finish_reason: str | None
    input_tokens: int | None
    output_tokens: int | None
    cost_usd: float | None


class ModelClient(Closes):
    """Blocking calls to the endpoint at ``base_url``; failures raise `ProviderError`.

    ``api_key`` None sends the placeholder key; ``timeout_s`` bounds each attempt
    unless a call gives its own; ``on_retry`` hears of each retry before its wait.
    Redirects are never followed: a 3xx is a `ProviderError` naming both URLs.
    """

    def __init__(
        self,
        base_url: str,
        api_key: str | None = None,
        timeout_s: float = 300.0,
        max_retries: int = 2,
        backoff: Backoff | None = None,
        prices: PriceTable | None = None,
        on_retry: OnRetry | None = None,
    ) -> None:
        self.base_url = base_url.rstrip("/")
        self.timeout_s = timeout_s
        self.on_retry = on_retry
        self.max_retries = max_retries
        self.backoff = backoff or Backoff()
        self.prices = prices if prices is not None else load_prices()
        self._sdk = OpenAI(
            base_url=self.base_url,
            api_key=wire_key(api_key),
            timeout=timeout_s,
            max_retries=0,
            http_client=NoRedirects(),
        )

    def chat(
        self,
        model: str,
        messages: Sequence[Mapping[str, Any]],
        *,
        tools: Sequence[Mapping[str, Any]] | None = None,
        temperature: float | None = None,
        max_tokens: int | None = None,
        timeout_s: float | None = None,
    ) -> Reply:
        """One completion of ``messages`` (with ``tools`` offered as functions when given)."""
        timeout = timeout_s or self.timeout_s
        completion = self._retried(timeout, lambda: self._sdk.chat.completions.create(
            model=model,
            messages=cast("list[ChatCompletionMessageParam]", list(messages)),
            tools=cast("list[ChatCompletionToolUnionParam]", list(tools)) if tools else omit,
            temperature=omit if temperature is None else temperature,
            max_tokens=omit if max_tokens is None else max_tokens,
            timeout=timeout,
        ))  # fmt: skip
        if not completion.choices:
            raise ProviderError(f"{self.base_url} answered with no choices")
        return _reply(completion, model, self.prices)

    def prompt_logprobs(self, model: str, prompt: str, max_tokens: int = 1) -> list[TokenRow]:
        """Each token of ``prompt`` with its log-probability given the tokens before it
        (then the ``max_tokens`` tokens generated after it; offsets ≥ ``len(prompt)``)."""
        answer = self._retried(self.timeout_s, lambda: self._sdk.completions.create(
            model=model, prompt=prompt, echo=True, logprobs=1, max_tokens=max_tokens,
            temperature=0.0, timeout=self.timeout_s,
        ))  # fmt: skip
        return _token_rows(self.base_url, answer)

    def close(self) -> None:
        self._sdk.close()

    def _retried(self, timeout_s: float, call: Callable[[], T]) -> T:
        def attempt() -> T:
            try:
                return call()
            except openai.APIError as error:
                # keyless=False: callers name their key their own way (api_key_env), so
                # the eval providers' hint about $SLOPMARK_API_KEY would mislead
                failure = failure_of(error, self.base_url, timeout_s, keyless=False)
                raise AttemptFailed(failure) from error

        return call_blocking_with_retries(
            attempt, self.max_retries, self.backoff, on_retry=self.on_retry
        )


def _reply(completion: Any, model: str, prices: PriceTable) -> Reply:
    input_tokens, output_tokens, cost = usage_numbers(completion.usage, model, prices)
    choice = completion.choices[0]
    calls = choice.message.tool_calls or ()
    return Reply(
        text=choice.message.content,
        tool_calls=tuple(
            ToolRequest(call.id, call.function.name, call.function.arguments or "")
            for call in calls
            if isinstance(call, ChatCompletionMessageFunctionToolCall)
        ),
        finish_reason=choice.finish_reason,
        input_tokens=input_tokens,
        output_tokens=output_tokens,
        cost_usd=cost,
    )


def _token_rows(base_url: str, answer: Any) -> list[TokenRow]:
    """``(token, text_offset, logprob)`` per token of ``choices[0].logprobs``."""
    choices = answer.choices or []
    logprobs = choices[0].logprobs if choices else None
    tokens = getattr(logprobs, "tokens", None)
    offsets = getattr(logprobs, "text_offset", None)
    values = getattr(logprobs, "token_logprobs", None)
    if not tokens or offsets is None or values is None:
        raise ProviderError(
            f"{base_url} sent no prompt log-probabilities (tokens, text_offset, "
            "token_logprobs); the scorer must serve /completions with echo=True and "
            "logprobs (llama.cpp's server, vLLM)"
        )
    return [
        (str(t), int(o), None if v is None else float(v))
        for t, o, v in zip(tokens, offsets, values, strict=False)
    ]
