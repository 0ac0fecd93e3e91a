"""``slopmark serve``: the board's JSON API and web pages (FastAPI + uvicorn, no CDN)."""

from slopmark.server.app import create_app

__all__ = ["create_app"]
