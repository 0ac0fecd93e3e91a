"""What every request of the web app shares: the store, the task pool, the write rule.

Writes (every ``POST``) need ``Authorization: Bearer TOKEN`` when the server
has a token: no header is 401, a wrong token 403. A server started without
a token accepts writes only from 127.0.0.1 or ::1 (its own machine); reads
are always public.
"""

from __future__ import annotations

import asyncio
import secrets
from dataclasses import dataclass, field
from typing import Any

from fastapi import HTTPException, Request
from sqlalchemy import Engine

from slopmark.evals.pool import check_domain, load_pool
from slopmark.evals.task import Task

LOCAL_CLIENTS = ("127.0.0.1", "::1")


@dataclass
class SuiteStatus:
    """A suite started by ``POST /api/eval/suite``; counts update as runs are stored."""

    id: str
    model: str
    domain: str
    series: dict[str, str]
    state: str = "running"
    done: int = 0
    planned: int = 0
    stored: int = 0
    error: str | None = None


@dataclass
class ServerState:
    engine: Engine
    token: str | None
    suites: dict[str, SuiteStatus] = field(default_factory=dict)
    jobs: set[asyncio.Task[Any]] = field(default_factory=set)
    _pool: list[Task] | None = None

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


def require_writer(request: Request) -> None:
    """Refuse a write unless it carries the token (or, with none set, comes from 127.0.0.1)."""
    token = get_state(request).token
    if token is None:
        host = request.client.host if request.client else None
        if host not in LOCAL_CLIENTS:
            detail = (
                f"writes from {host} are refused: this server has no token, so only "
                "127.0.0.1 may write; start it with --token or $SLOPMARK_TOKEN"
            )
            raise HTTPException(403, detail)
        return
    given = _bearer(request)
    if given is None:
        detail = "this write needs the header 'Authorization: Bearer TOKEN'"
        raise HTTPException(401, detail, headers={"WWW-Authenticate": "Bearer"})
    if not secrets.compare_digest(given.encode(), token.encode()):
        raise HTTPException(403, "the bearer token is wrong; use the server's --token")
