"""A real HTTP server on 127.0.0.1 that answers every request with a redirect.

``RedirectServer(target, status=307).start()`` answers each GET and POST with
``status`` and ``Location: target + path`` (the path asked, so a client that
follows lands on the same route of ``target``); ``base_url`` is
``http://127.0.0.1:PORT/v1``; ``seen`` lists the paths asked. Stop it with
``stop()``, or use it as a context manager.
"""

from __future__ import annotations

import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from types import TracebackType
from typing import Any


class RedirectServer:
    def __init__(self, target: str, status: int = 307) -> None:
        self.target = target.rstrip("/")
        self.status = status
        self.seen: list[str] = []
        self._httpd = _Server(("127.0.0.1", 0), _Handler)
        self._httpd.fake = self
        self._thread = threading.Thread(target=self._httpd.serve_forever, daemon=True)

    @property
    def base_url(self) -> str:
        return f"http://127.0.0.1:{self._httpd.server_address[1]}/v1"

    def start(self) -> RedirectServer:
        self._thread.start()
        return self

    def stop(self) -> None:
        self._httpd.shutdown()
        self._httpd.server_close()
        self._thread.join(timeout=5)

    def __enter__(self) -> RedirectServer:
        return self.start()

    def __exit__(
        self,
        kind: type[BaseException] | None,
        error: BaseException | None,
        trace: TracebackType | None,
    ) -> None:
        self.stop()


class _Server(ThreadingHTTPServer):
    daemon_threads = True
    fake: RedirectServer


class _Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    server: _Server

    def log_message(self, format: str, *args: Any) -> None:
        """Keep test output quiet."""

    def do_GET(self) -> None:
        self._redirect()

    def do_POST(self) -> None:
        self.rfile.read(int(self.headers.get("Content-Length") or 0))
        self._redirect()

    def _redirect(self) -> None:
        fake = self.server.fake
        fake.seen.append(self.path)
        path = self.path.removeprefix("/v1")
        body = b'{"error": {"message": "moved"}}'
        self.send_response(fake.status)
        self.send_header("Location", fake.target + path)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)
