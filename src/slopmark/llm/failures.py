"""One failed SDK call as a `Failure`: what went wrong in one line, and whether to retry.

429 and 5xx answers, timeouts and connection errors are worth retrying (with
the server's Retry-After when it sends one); any other status is not. A 401
or 403 without a configured key says which variables would supply one.

The clients never follow a redirect (an OpenAI-compatible API does not
redirect, and following one would send the request, key included, to a URL
nobody allowed): a 3xx is a failure naming both URLs, not retried.
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
    if 300 <= status < 400:
        return Failure(_redirected(error, base_url), False, status=status)
    message = f"HTTP {status} from {base_url}: {_body_excerpt(error)}"
    if status in (401, 403) and keyless:
        message += f"; no API key set (pass one or set {' / '.join(KEY_VARIABLES)})"
    retry_after = parse_retry_after(error.response.headers.get("retry-after"))
    return Failure(message, status == 429 or status >= 500, retry_after, status=status)


def one_line(text: str) -> str:
    """``text`` with its whitespace runs made single spaces, cut to an excerpt."""
    flat = " ".join(text.split())
    return flat if len(flat) <= _EXCERPT else flat[: _EXCERPT - 1] + "…"


def _redirected(error: openai.APIStatusError, base_url: str) -> str:
    """What a redirect answer means: where it pointed, and the base URL to use instead."""
    response = error.response
    location = response.headers.get("location")
    if not location:
        return (
            f"model endpoint {base_url} answered {response.status_code} with no Location: "
            "redirects are not followed; use the endpoint's own URL as the base URL"
        )
    target = str(response.url.join(location))
    asked = str(response.request.url)
    suffix = asked[len(base_url) :] if asked.startswith(base_url) else ""
    base = target.removesuffix(suffix) if suffix and target.endswith(suffix) else target
    return (
        f"model endpoint {base_url} answered {response.status_code} → {one_line(target)}: "
        f"redirects are not followed; use the final URL as the base URL ({one_line(base)})"
    )


def _body_excerpt(error: openai.APIStatusError) -> str:
    body = error.body
    if isinstance(body, dict):
        inner = body.get("error", body)
        text = str(inner.get("message", inner)) if isinstance(inner, dict) else str(inner)
    else:
        text = str(body) if body is not None else error.message
    return one_line(text)
