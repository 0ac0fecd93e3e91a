"""What every request of the web app shares: the store, the task pool, the access rules.

Writes (every ``POST``) need ``Authorization: Bearer TOKEN`` when the server
has a token: no header is 401, a wrong token 403. A server started without
a token accepts writes only from 127.0.0.1 or ::1 (its own machine). A write
that spends the server's credentials (``POST /api/eval/suite`` calls a model
server, maybe with the server's key) always needs the token: a server
without one refuses it. Reads are public; a reader with the token
(`authenticated`) also sees what public reads leave out (the verifiers'
details: expected values).
"""

from __future__ import annotations

import asyncio
import secrets
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from typing import Annotated, Any

from fastapi import HTTPException, Request, Security
from fastapi.routing import APIRoute
from fastapi.security import HTTPAuthorizationCredentials, HTTPBearer
from sqlalchemy import Engine
from starlette.routing import BaseRoute

from slopmark.evals.pool import check_domain, load_pool
from slopmark.evals.task import Task
from slopmark.server.boardcache import BoardCache
from slopmark.server.outbound import Outbound

LOCAL_CLIENTS = ("127.0.0.1", "::1")
#: Declares the bearer scheme on the write endpoints of /openapi.json (the check is ours).
BEARER = HTTPBearer(
    auto_error=False,
    scheme_name="bearer",
    description="The server's token (slopmark serve --token or $SLOPMARK_TOKEN).",
)
Credentials = Annotated[HTTPAuthorizationCredentials | None, Security(BEARER)]


@dataclass
class SuiteStatus:
    """A suite started by ``POST /api/eval/suite``; counts update as runs are stored, and
    ``last_retry`` says the latest failed request that is being tried again."""

    id: str
    model: str
    domain: str
    series: dict[str, str]
    state: str = "running"
    done: int = 0
    planned: int = 0
    stored: int = 0
    error: str | None = None
    last_retry: str | None = None


@dataclass
class ServerState:
    engine: Engine
    token: str | None
    outbound: Outbound = field(default_factory=Outbound)
    suites: dict[str, SuiteStatus] = field(default_factory=dict)
    jobs: set[asyncio.Task[Any]] = field(default_factory=set)
    _pool: list[Task] | None = None
    #: the computed boards of recent filters, kept while the store is unchanged
    boards: BoardCache = field(init=False)

    def __post_init__(self) -> None:
        self.boards = BoardCache(self.engine)

    def pool(self, domain: str | None = None) -> list[Task]:
        """The approved shipped tasks (of ``domain``), loaded once."""
        if self._pool is None:
            self._pool = load_pool()
        if domain is None:
            return list(self._pool)
        check_domain(domain)
        return [task for task in self._pool if task.domain == domain]


def get_state(request: Request) -> ServerState:
    state: ServerState = request.app.state.slopmark
    return state


def _bearer(request: Request) -> str | None:
    scheme, _, value = request.headers.get("authorization", "").partition(" ")
    return value.strip() if scheme.lower() == "bearer" and value.strip() else None


def authenticated(request: Request) -> bool:
    """Whether the request carries the server's token (a server without one has no such reader)."""
    token, given = get_state(request).token, _bearer(request)
    return token is not None and given is not None and _same(given, token)


def _same(given: str, token: str) -> bool:
    return secrets.compare_digest(given.encode(), token.encode())


def _check_token(request: Request, token: str) -> None:
    given = _bearer(request)
    if given is None:
        detail = "this write needs the header 'Authorization: Bearer TOKEN'"
        raise HTTPException(401, detail, headers={"WWW-Authenticate": "Bearer"})
    if not _same(given, token):
        raise HTTPException(403, "the bearer token is wrong; use the server's --token")


def require_writer(request: Request, _credentials: Credentials) -> None:
    """Refuse a write unless it carries the token (or, with none set, comes from 127.0.0.1)."""
    token = get_state(request).token
    if token is not None:
        _check_token(request, token)
        return
    host = request.client.host if request.client else None
    if host not in LOCAL_CLIENTS:
        detail = (
            f"writes from {host} are refused: this server has no token, so only "
            "127.0.0.1 may write; start it with --token or $SLOPMARK_TOKEN"
        )
        raise HTTPException(403, detail)


def require_token(request: Request, _credentials: Credentials) -> None:
    """Refuse a write that spends the server's credentials unless it carries the token
    (a server without one refuses it always: 401 without the header, else 403)."""
    token = get_state(request).token
    if token is not None:
        _check_token(request, token)
        return
    detail = (
        "this endpoint spends the server's credentials and needs a token even from "
        "127.0.0.1; start the server with --token or $SLOPMARK_TOKEN"
    )
    if _bearer(request) is None:
        raise HTTPException(401, detail, headers={"WWW-Authenticate": "Bearer"})
    raise HTTPException(403, detail)


def loopback_writes(routes: Iterable[BaseRoute]) -> Iterator[tuple[str, str]]:
    """(method, path) of each write a server without a token accepts from 127.0.0.1."""
    for route in routes:
        if isinstance(route, APIRoute) and any(
            dependency.dependency is require_writer for dependency in route.dependencies
        ):
            yield from ((method.lower(), route.path) for method in route.methods or ())
