"""The FastAPI app of ``slopmark serve``: the JSON API, the web pages and their static files.

The pages load nothing from outside the server (no CDN): they work offline.
``/docs`` is our own page built from ``/openapi.json`` (FastAPI's default one
would load Swagger UI from a CDN).
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Iterable
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse, Response
from fastapi.staticfiles import StaticFiles

from slopmark import __version__
from slopmark.errors import BadInput
from slopmark.server import (
    api,
    batch_pages,
    benchpages,
    code_pages,
    compare_pages,
    docs,
    pages,
    paper_pages,
    runs_pages,
    study_pages,
)
from slopmark.server.hosts import OwnHostOnly
from slopmark.server.limits import MAX_BODY_BYTES, BodyLimit, validation_problem
from slopmark.server.matrix_pages import exports as matrix_exports
from slopmark.server.matrix_pages import pages as matrix_pages
from slopmark.server.outbound import Outbound
from slopmark.server.state import ServerState, loopback_writes
from slopmark.store import open_store

STATIC = Path(__file__).parent / "static"
DESCRIPTION = (
    "slopmark's leaderboards, runs, exports and CI gates. Reads are public, and a run's "
    "verifier details (expected values) are shown only with `Authorization: Bearer TOKEN`. "
    "POST endpoints need the bearer token when the server has one, and come only from "
    "127.0.0.1 when it has none; POST /api/eval/suite, which spends the server's "
    "credentials, always needs the token. A server without a token answers only requests "
    "whose Host names it (127.0.0.1, localhost, [::1] or its --host, with its port): "
    "others get 421. Request bodies are limited to "
    f"{MAX_BODY_BYTES} bytes."
)


def _bad_input(request: Request, error: Exception) -> Response:
    """Bad input is a 400 with the reason: JSON for the API and the CSV exports (read by
    programs), a page for a person."""
    path = request.url.path
    if path.startswith("/api/") or path.endswith(".csv"):
        return JSONResponse({"detail": str(error)}, status_code=400)
    return pages.error_page(request, 400, str(error))


def create_app(
    db_url: str, token: str | None, outbound: Outbound | None = None, names: Iterable[str] = ()
) -> FastAPI:
    """The app on the store at ``db_url``; ``token`` (None or empty: none) guards writes;
    ``outbound`` says which model servers it may call and with which key (default:
    loopback only, and the server's key goes nowhere). Without a token it answers only
    requests addressed to itself: loopback names, or ``names`` (its ``--host``)."""
    state = ServerState(open_store(db_url), token or None, outbound or Outbound())

    @asynccontextmanager
    async def lifespan(_app: FastAPI) -> AsyncIterator[None]:
        yield
        for job in state.jobs:
            job.cancel()
        await asyncio.gather(*state.jobs, return_exceptions=True)
        state.boards.close()
        state.engine.dispose()

    app = FastAPI(
        title="slopmark",
        version=__version__,
        description=DESCRIPTION,
        lifespan=lifespan,
        docs_url=None,  # the offline page of `slopmark.server.docs` serves /docs
        redoc_url=None,
    )
    app.state.slopmark = state
    app.include_router(api.router)
    app.include_router(pages.router)
    app.include_router(benchpages.router)
    app.include_router(benchpages.api_router)
    app.include_router(docs.router)
    app.include_router(study_pages.router)
    app.include_router(study_pages.api)
    app.include_router(code_pages.router)
    app.include_router(code_pages.api)
    app.include_router(paper_pages.pages)
    app.include_router(paper_pages.api)
    app.include_router(runs_pages.pages)
    app.include_router(runs_pages.api)
    app.include_router(compare_pages.pages)
    app.include_router(compare_pages.api)
    app.include_router(batch_pages.router)
    app.include_router(batch_pages.api)
    app.include_router(matrix_pages)
    app.include_router(matrix_exports)
    app.mount("/static", StaticFiles(directory=STATIC), name="static")
    app.add_exception_handler(BadInput, _bad_input)
    app.add_exception_handler(RequestValidationError, validation_problem)
    app.add_middleware(BodyLimit, limit=MAX_BODY_BYTES)
    if state.token is None:
        app.add_middleware(OwnHostOnly, names=tuple(names))
        _document_loopback_writes(app)
    return app


def _document_loopback_writes(app: FastAPI) -> None:
    """On a server without a token, /openapi.json shows the writes it takes from 127.0.0.1
    without the bearer scheme (the scheme stays where the token is always needed)."""
    generate = app.openapi

    def openapi() -> dict[str, Any]:
        if app.openapi_schema is None:
            spec = generate()
            for method, path in loopback_writes([*api.router.routes, *batch_pages.api.routes]):
                operation = spec["paths"][path][method]
                operation.pop("security", None)
                described = operation.get("description", "")
                operation["description"] = f"{described} This server has no token: 127.0.0.1 only."
        return app.openapi_schema or generate()

    app.openapi = openapi  # type: ignore[method-assign]
