"""Bounds on what a request may make the server hold or send back.

- `BodyLimit`: a request body over `MAX_BODY_BYTES` is refused with 413,
  by its ``Content-Length`` before any byte is read, or (chunked) as soon as
  the bytes read pass the bound. The largest valid body, a pasted answer of
  200,000 characters, is at most 2.4 MB even with every character escaped
  as a JSON surrogate pair (12 bytes), so the bound refuses no valid write.
- `validation_problem`: a 422 lists what was wrong (where, what, the rule)
  and echoes an offending input only when it is short: a 10 MB input is not
  sent back.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

from fastapi import Request
from fastapi.encoders import jsonable_encoder
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse, Response
from starlette.exceptions import HTTPException
from starlette.types import ASGIApp, Message, Receive, Scope, Send

__all__ = ["MAX_BODY_BYTES", "MAX_ECHO_CHARS", "BodyLimit", "validation_problem"]

MAX_BODY_BYTES = 4 * 1024 * 1024
MAX_ECHO_CHARS = 200


class BodyTooLarge(HTTPException):
    """Raised from ``receive`` when a chunked body passes the bound; FastAPI re-raises
    an HTTPException met while reading the body, so the reply is this 413."""

    def __init__(self, limit: int) -> None:
        super().__init__(413, f"the request body is larger than {limit} bytes")


class BodyLimit:
    """ASGI middleware refusing request bodies over ``limit`` bytes (413)."""

    def __init__(self, app: ASGIApp, limit: int = MAX_BODY_BYTES) -> None:
        self.app = app
        self.limit = limit

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        declared = _content_length(scope)
        if declared is not None and declared > self.limit:
            await _too_large(self.limit)(scope, receive, send)
            return
        await self.app(scope, self._counting(receive), send)

    def _counting(self, receive: Receive) -> Receive:
        seen = 0

        async def counted() -> Message:
            nonlocal seen
            message = await receive()
            if message["type"] == "http.request":
                seen += len(message.get("body", b""))
                if seen > self.limit:
                    raise BodyTooLarge(self.limit)
            return message

        return counted


def _content_length(scope: Scope) -> int | None:
    """The declared body length; an unreadable header counts as too large (-> 413)."""
    for name, value in scope.get("headers", ()):
        if name == b"content-length":
            text = value.decode("latin-1").strip()
            return int(text) if text.isdigit() else 2**63
    return None


def _too_large(limit: int) -> Response:
    return JSONResponse({"detail": BodyTooLarge(limit).detail}, status_code=413)


def _short(value: Any) -> bool:
    try:
        return len(json.dumps(jsonable_encoder(value))) <= MAX_ECHO_CHARS
    except (TypeError, ValueError):
        return False


def _cut(text: Any) -> Any:
    if isinstance(text, str) and len(text) > MAX_ECHO_CHARS:
        return text[:MAX_ECHO_CHARS] + "…"
    return text


def _problem(error: Mapping[str, Any]) -> dict[str, Any]:
    kept = {
        "type": _cut(error.get("type", "invalid")),
        "loc": [_cut(part) for part in error.get("loc", ())],
        "msg": _cut(error.get("msg", "invalid")),
    }
    for key in ("input", "ctx"):
        if key in error and _short(error[key]):
            kept[key] = error[key]
    return kept


async def validation_problem(_request: Request, error: Exception) -> Response:
    """422 with each validation error, long inputs left out (see the module doc)."""
    assert isinstance(error, RequestValidationError)
    problems = [_problem(item) for item in error.errors()]
    return JSONResponse({"detail": jsonable_encoder(problems)}, status_code=422)
