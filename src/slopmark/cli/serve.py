"""``slopmark serve``: the web app and JSON API on the run store.

FastAPI and uvicorn are imported when the command runs, so ``slopmark --help`` stays fast.
"""

from __future__ import annotations

import os

import typer

LOOPBACK = ("127.0.0.1", "::1", "localhost")


def serve(
    host: str = typer.Option("127.0.0.1", "--host", help="Address to listen on."),
    port: int = typer.Option(8000, "--port", min=0, max=65535, help="Port (0: any free one)."),
    db: str | None = typer.Option(
        None, "--db", help="Run store URL (default: $SLOPMARK_DB, else sqlite:///./slopmark.db)."
    ),
    token: str | None = typer.Option(
        None,
        "--token",
        envvar="SLOPMARK_TOKEN",
        help="Writes (POST) need 'Authorization: Bearer TOKEN'; without it only 127.0.0.1 writes.",
    ),
) -> None:
    """Serve the leaderboards, chart, bench console and JSON API (docs: /docs, /openapi.json).

    Reads are public. Writes need the token; with no token they are accepted
    only from 127.0.0.1.
    """
    import uvicorn

    from slopmark.server import create_app
    from slopmark.store import database_url

    if host not in LOOPBACK and not token:
        print(f"slopmark serve: no --token, so clients other than 127.0.0.1 cannot write on {host}")
    app = create_app(database_url(db, os.environ), token)
    uvicorn.run(app, host=host, port=port, log_level="info")
