"""A server without a token answers only requests addressed to itself (DNS rebinding).

Such a server trusts its own machine: writes come from 127.0.0.1. A page on
another site can still reach it through a browser on that machine, by making
its own domain resolve to 127.0.0.1 ("DNS rebinding"); the browser then sends
that domain in the ``Host`` header. So every request, read or write, must
name the server itself: ``127.0.0.1``, ``localhost`` or ``[::1]``, the address
the connection came in on, or a name the server was started with (``--host``),
each with the server's port. Any other ``Host`` is answered 421 (Misdirected
Request) with one line saying what to use. A server with a token is not
limited: its writes need the token, and it may sit behind a proxy under any name.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

from fastapi.responses import JSONResponse, PlainTextResponse, Response
from starlette.types import ASGIApp, Receive, Scope, Send

__all__ = ["OwnHostOnly", "split_host"]

LOCAL_NAMES = ("127.0.0.1", "localhost", "::1")
_DEFAULT_PORTS = {"http": 80, "https": 443, "ws": 80, "wss": 443}
_HOST = re.compile(r"(?:\[(?P<v6>[0-9a-f:.]+)\]|(?P<name>[^\[\]:/@\s]+))(?::(?P<port>\d{1,5}))?")


def split_host(value: str) -> tuple[str, int | None] | None:
    """``(name, port)`` of a Host header (``[::1]:8000`` gives ``("::1", 8000)``; no port:
    None), the name lower-cased; None when it is not a host[:port]."""
    match = _HOST.fullmatch(value.strip().lower())
    if match is None:
        return None
    name = match.group("v6") or match.group("name")
    return name, int(match["port"]) if match["port"] else None


def _header(scope: Scope, wanted: bytes) -> str | None:
    for name, value in scope.get("headers", ()):
        if name == wanted:
            return bytes(value).decode("latin-1")
    return None


class OwnHostOnly:
    """ASGI middleware answering 421 to a request whose Host is not this server (module doc)."""

    def __init__(self, app: ASGIApp, names: Iterable[str] = ()) -> None:
        self.app = app
        self.names = frozenset(LOCAL_NAMES) | {name.strip("[]").lower() for name in names}

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] not in ("http", "websocket") or self._own(scope):
            await self.app(scope, receive, send)
            return
        await _misdirected(scope)(scope, receive, send)

    def _own(self, scope: Scope) -> bool:
        host = split_host(_header(scope, b"host") or "")
        if host is None:
            return False
        address, port = scope.get("server") or (None, None)
        name, asked = host
        asked = asked if asked is not None else _DEFAULT_PORTS.get(scope.get("scheme", "http"))
        known = name in self.names or (address is not None and name == address.lower())
        return known and (port is None or asked == port)


def _misdirected(scope: Scope) -> Response:
    port = (scope.get("server") or (None, None))[1]
    at = f":{port}" if port is not None else ""
    given = _header(scope, b"host")
    what = "a request without a Host header" if given is None else f"Host {given[:200]!r}"
    detail = (
        f"{what} is not addressed to this server: without a token it answers only "
        f"127.0.0.1{at}, localhost{at} and [::1]{at}; open one of those, or start it with --token"
    )
    if str(scope.get("path", "")).startswith("/api/"):
        return JSONResponse({"detail": detail}, status_code=421)
    return PlainTextResponse(detail + "\n", status_code=421)
