"""What every chat provider takes and returns."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Protocol


@dataclass(frozen=True)
class Message:
    """One message of a transcript: ``role`` is system, user or assistant."""

    role: str
    content: str


@dataclass(frozen=True)
class ChatRequest:
    model: str
    messages: tuple[Message, ...]
    temperature: float = 0.0
    max_tokens: int = 600


@dataclass(frozen=True)
class ChatResponse:
    """One completion. Unknown numbers are None, never 0.

    ``first_byte_ms`` is request sent → first byte; ``total_ms`` request sent →
    last byte. ``upstream`` names the provider that served it when the API
    says (e.g. a router's chosen backend).
    """

    text: str
    finish_reason: str | None
    input_tokens: int | None
    output_tokens: int | None
    cost_usd: float | None
    first_byte_ms: float
    total_ms: float
    upstream: str | None = None
    cached: bool = False


class ProviderError(Exception):
    """The provider failed (outage, rate limit after retries, timeout): the run is errored.

    ``status`` is the HTTP status of the last answer, None when there was none.
    """

    def __init__(self, message: str, status: int | None = None) -> None:
        super().__init__(message)
        self.status = status


class Unreachable(ProviderError):
    """No connection to the endpoint could be made (refused, no such host), after retries."""


class ChatProvider(Protocol):
    name: str

    async def complete(self, request: ChatRequest) -> ChatResponse:
        """One chat completion; raises `ProviderError` when it cannot get one."""
