"""The HTTP clients under the OpenAI SDK: a model client never follows a redirect.

An OpenAI-compatible API does not redirect. Following one would send the
request, and the key with it, to a URL nobody configured (and past the
server's outbound policy, `slopmark.server.outbound`), so both model clients
hand the SDK one of these instead of its default, which follows redirects; a
3xx then reaches `slopmark.llm.failures` as an error naming both URLs.

Like the SDK's default clients, one dropped without being closed releases
its connections when it is collected (a blocking one closes at once; an
async one schedules its close on the running loop, if there is one).
"""

from __future__ import annotations

import asyncio
from contextlib import suppress

import openai

__all__ = ["AsyncNoRedirects", "NoRedirects"]


class NoRedirects(openai.DefaultHttpxClient):
    """The SDK's default blocking client, with ``follow_redirects=False``."""

    def __init__(self) -> None:
        super().__init__(follow_redirects=False)

    def __del__(self) -> None:
        if not self.is_closed:
            with suppress(Exception):
                self.close()


class AsyncNoRedirects(openai.DefaultAsyncHttpxClient):
    """The SDK's default async client, with ``follow_redirects=False``."""

    def __init__(self) -> None:
        super().__init__(follow_redirects=False)

    def __del__(self) -> None:
        if not self.is_closed:
            with suppress(Exception):
                asyncio.get_running_loop().create_task(self.aclose())
