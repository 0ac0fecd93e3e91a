"""Retrying a provider call: exponential backoff with jitter, honouring Retry-After.

The provider turns each failed attempt into a `Failure` (one line, retryable
or not, the server's Retry-After if any) and raises it as `AttemptFailed`;
`call_with_retries` waits and tries again, and after the last attempt raises
`ProviderError` with the last failure's line. Before each wait it tells the
caller's ``on_retry`` observer (a `Retrying`: what failed, attempt *n* of
*N*, the wait), so an edge can say at once that an endpoint is failing
instead of staying silent through every backoff.

Wait before retry *n* (0-based) without Retry-After:
``min(cap_s, base_s · 2ⁿ) · u`` with ``u`` uniform in [0.5, 1] ("equal
jitter": never less than half the exponential step, so retries from many
concurrent runs spread out without collapsing to zero). With Retry-After the
wait is the server's value, capped at ``cap_s`` as well.
"""

from __future__ import annotations

import asyncio
import random
import time
from collections.abc import Awaitable, Callable
from contextlib import suppress
from dataclasses import dataclass
from datetime import UTC, datetime
from email.utils import parsedate_to_datetime
from typing import TypeVar

from slopmark.llm.base import ProviderError, Unreachable

T = TypeVar("T")


@dataclass(frozen=True)
class Failure:
    """One failed attempt: ``message`` is one line (status and body excerpt);
    ``unreachable`` when no connection could be made at all; ``status`` the HTTP
    status when the server answered."""

    message: str
    retryable: bool
    retry_after_s: float | None = None
    unreachable: bool = False
    status: int | None = None


@dataclass(frozen=True)
class Retrying:
    """Attempt ``number`` of ``attempts`` failed with ``failure``; the next starts in ``wait_s``."""

    failure: Failure
    number: int
    attempts: int
    wait_s: float

    def line(self) -> str:
        """One line for a person: what failed, which attempt, when the next one starts."""
        return (
            f"{self.failure.message}; attempt {self.number} of {self.attempts} failed, "
            f"retrying in {self.wait_s:.1f} s"
        )


#: Told of each failed attempt that will be tried again, before the wait.
OnRetry = Callable[[Retrying], None]


class AttemptFailed(Exception):
    """Raised by an attempt to hand its `Failure` to the retry loop."""

    def __init__(self, failure: Failure) -> None:
        super().__init__(failure.message)
        self.failure = failure


@dataclass(frozen=True)
class Backoff:
    """Wait times between attempts: ``base_s`` doubles per retry, nothing exceeds ``cap_s``."""

    base_s: float = 0.5
    cap_s: float = 30.0

    def delay(self, retry: int, retry_after_s: float | None, rng: random.Random) -> float:
        if retry_after_s is not None:
            return min(self.cap_s, max(0.0, retry_after_s))
        step = min(self.cap_s, self.base_s * 2.0**retry)
        return step * rng.uniform(0.5, 1.0)


def parse_retry_after(value: str | None, now: datetime | None = None) -> float | None:
    """Seconds to wait from a Retry-After header: delta-seconds or an HTTP date.

    None when the header is missing or unreadable; a date in the past is 0.
    """
    if value is None or not value.strip():
        return None
    text = value.strip()
    with suppress(ValueError):
        return max(0.0, float(text))
    try:
        when = parsedate_to_datetime(text)
    except (TypeError, ValueError):
        return None
    if when.tzinfo is None:
        when = when.replace(tzinfo=UTC)
    return max(0.0, (when - (now or datetime.now(UTC))).total_seconds())


async def call_with_retries(
    attempt: Callable[[], Awaitable[T]],
    retries: int,
    backoff: Backoff,
    rng: random.Random | None = None,
    on_retry: OnRetry | None = None,
) -> T:
    """Await ``attempt()`` up to ``retries + 1`` times; raise `ProviderError` at the end
    (`Unreachable` when the last attempt could not connect at all).

    Only `AttemptFailed` with a retryable failure is retried (``on_retry`` is told
    before each wait); any other exception propagates unchanged (a bug is not an outage).
    """
    rng = rng or random.Random()
    attempts = max(0, retries) + 1
    for number in range(1, attempts + 1):
        try:
            return await attempt()
        except AttemptFailed as error:
            wait = _wait_or_give_up(error, number, attempts, backoff, rng)
            if on_retry is not None:
                on_retry(Retrying(error.failure, number, attempts, wait))
            await asyncio.sleep(wait)
    raise AssertionError("unreachable: the loop returns or raises")


def call_blocking_with_retries(
    attempt: Callable[[], T],
    retries: int,
    backoff: Backoff,
    rng: random.Random | None = None,
    on_retry: OnRetry | None = None,
) -> T:
    """`call_with_retries` for a blocking ``attempt``: the same policy, waiting with sleep."""
    rng = rng or random.Random()
    attempts = max(0, retries) + 1
    for number in range(1, attempts + 1):
        try:
            return attempt()
        except AttemptFailed as error:
            wait = _wait_or_give_up(error, number, attempts, backoff, rng)
            if on_retry is not None:
                on_retry(Retrying(error.failure, number, attempts, wait))
            time.sleep(wait)
    raise AssertionError("unreachable: the loop returns or raises")


def _wait_or_give_up(
    error: AttemptFailed, number: int, attempts: int, backoff: Backoff, rng: random.Random
) -> float:
    """Seconds to wait before the next attempt; `ProviderError` after attempt ``number``
    when it was the last or its failure is not worth retrying."""
    failure = error.failure
    if not failure.retryable or number == attempts:
        kind = Unreachable if failure.unreachable else ProviderError
        raise kind(_final_message(failure, number), failure.status) from error
    return backoff.delay(number - 1, failure.retry_after_s, rng)


def _final_message(failure: Failure, attempts: int) -> str:
    if not failure.retryable:
        return f"{failure.message} (not retried)"
    return f"{failure.message} (gave up after {attempts} attempt{'s' if attempts > 1 else ''})"
