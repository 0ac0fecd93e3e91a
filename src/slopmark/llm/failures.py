"""One failed SDK call as a `Failure`: what went wrong in one line, and whether to retry.

429 and 5xx answers, timeouts and connection errors are worth retrying (with
the server's Retry-After when it sends one); any other status is not. A 401
or 403 without a configured key says which variables would supply one.
"""

from __future__ import annotations

import openai

from slopmark.llm.keys import KEY_VARIABLES
from slopmark.llm.retry import Failure, parse_retry_after

_EXCERPT = 200


def failure_of(error: openai.APIError, base_url: str, timeout_s: float, keyless: bool) -> Failure:
    """The `Failure` an SDK error means for a call to ``base_url``."""
    if isinstance(error, openai.APITimeoutError):
        return Failure(f"timed out after {timeout_s:g}s waiting for {base_url}", True)
    if isinstance(error, openai.APIConnectionError):
        why = one_line(str(error.__cause__ or error))  # the SDK's own text says only "error"
        return Failure(f"cannot reach {base_url}: {why}", True, unreachable=True)
    if not isinstance(error, openai.APIStatusError):
        return Failure(f"{base_url} sent an error: {one_line(str(error))}", True)
    status = error.status_code
    message = f"HTTP {status} from {base_url}: {_body_excerpt(error)}"
    if status in (401, 403) and keyless:
        message += f"; no API key set (pass one or set {' / '.join(KEY_VARIABLES)})"
    retry_after = parse_retry_after(error.response.headers.get("retry-after"))
    return Failure(message, status == 429 or status >= 500, retry_after, status=status)


def one_line(text: str) -> str:
    """``text`` with its whitespace runs made single spaces, cut to an excerpt."""
    flat = " ".join(text.split())
    return flat if len(flat) <= _EXCERPT else flat[: _EXCERPT - 1] + "…"


def _body_excerpt(error: openai.APIStatusError) -> str:
    body = error.body
    if isinstance(body, dict):
        inner = body.get("error", body)
        text = str(inner.get("message", inner)) if isinstance(inner, dict) else str(inner)
    else:
        text = str(body) if body is not None else error.message
    return one_line(text)
