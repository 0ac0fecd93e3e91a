"""``slopmark serve``: the web app and JSON API on the run store.

FastAPI and uvicorn are imported when the command runs, so ``slopmark --help`` stays fast.
"""

from __future__ import annotations

import os

import typer

from slopmark.cli.options import DB_HELP

LOOPBACK = ("127.0.0.1", "::1", "localhost")


def serve(
    host: str = typer.Option("127.0.0.1", "--host", help="Address to listen on."),
    port: int = typer.Option(8000, "--port", min=0, max=65535, help="Port (0: any free one)."),
    db: str | None = typer.Option(
        None, "--db", help=DB_HELP
    ),
    token: str | None = typer.Option(
        None,
        "--token",
        envvar="SLOPMARK_TOKEN",
        help="Writes (POST) need 'Authorization: Bearer TOKEN'; without it only 127.0.0.1 writes.",
    ),
    allow_base_url: list[str] = typer.Option(
        [],
        "--allow-base-url",
        help="A model server (base URL) suites may call besides loopback (repeatable).",
    ),
    key_base_url: str | None = typer.Option(
        None,
        "--key-base-url",
        envvar="SLOPMARK_KEY_BASE_URL",
        help="The one endpoint the server's $SLOPMARK_API_KEY is sent to (default: none).",
    ),
) -> None:
    """Serve the leaderboards, chart, bench console and JSON API (docs: /docs, /openapi.json).

    Reads are public (verifier details only with the token). Writes need the
    token; with no token they are accepted only from 127.0.0.1. Starting a
    suite (POST /api/eval/suite) always needs the token, and calls only
    loopback and --allow-base-url servers.
    """
    import uvicorn

    from slopmark.cli.options import non_empty
    from slopmark.cli.store import open_cli_store, store_notes
    from slopmark.llm.keys import resolve_api_key
    from slopmark.server import create_app
    from slopmark.server.outbound import Outbound
    from slopmark.store import database_url

    non_empty(host, "--host")
    non_empty(token, "--token")
    key = resolve_api_key(None, os.environ)
    outbound = Outbound.configured(allow_base_url, key, key_base_url)
    # a bad store is refused here, naming --db or $SLOPMARK_DB; a missing one is created
    # (`make run` starts on an empty store that the console then fills)
    open_cli_store(db).dispose()
    for notice in [*store_notes(), *_notices(host, token, key, key_base_url)]:
        print(f"slopmark serve: {notice}")
    app = create_app(database_url(db, os.environ), token, outbound, names=(host,))
    uvicorn.run(app, host=host, port=port, log_level="info")


def _notices(host: str, token: str | None, key: str | None, key_url: str | None) -> list[str]:
    """What the operator should know about how this server is open."""
    notices = []
    if host not in LOOPBACK and not token:
        notices.append(f"no --token, so clients other than 127.0.0.1 cannot write on {host}")
    if not token:
        notices.append("no --token, so suites (POST /api/eval/suite) are refused")
    if key and not key_url:
        notices.append("an API key is set but no --key-base-url: the server's key is sent nowhere")
    return notices
