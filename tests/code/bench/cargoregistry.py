"""A cargo registry on the host's loopback, serving one crate: the tests' own crates.io.

It speaks cargo's sparse protocol (``config.json``, an index file per crate,
``/{crate}/{version}/download``), so ``cargo fetch`` reaches it as it would
reach the real registry, while no test sends traffic beyond 127.0.0.1.
A workspace points at it with ``.cargo/config.toml`` (source replacement).
"""

from __future__ import annotations

import hashlib
import http.server
import io
import json
import tarfile
import threading
from collections.abc import Iterator
from contextlib import contextmanager

CRATE = "slopdep"
VERSION = "0.1.0"
GREETING = "hello from slopdep"


def _tar_entry(tar: tarfile.TarFile, path: str, text: str) -> None:
    data = text.encode()
    info = tarfile.TarInfo(path)
    info.size = len(data)
    tar.addfile(info, io.BytesIO(data))


def crate_file() -> bytes:
    """The ``.crate`` archive: a library whose ``greet()`` returns `GREETING`."""
    buffer = io.BytesIO()
    with tarfile.open(fileobj=buffer, mode="w:gz") as tar:
        manifest = f'[package]\nname = "{CRATE}"\nversion = "{VERSION}"\nedition = "2021"\n'
        _tar_entry(tar, f"{CRATE}-{VERSION}/Cargo.toml", manifest)
        library = f'pub fn greet() -> &\'static str {{ "{GREETING}" }}\n'
        _tar_entry(tar, f"{CRATE}-{VERSION}/src/lib.rs", library)
    return buffer.getvalue()


def _files(port: int) -> dict[str, bytes]:
    crate = crate_file()
    entry = {"name": CRATE, "vers": VERSION, "deps": [], "features": {}, "yanked": False,
             "cksum": hashlib.sha256(crate).hexdigest()}  # fmt: skip
    return {
        "/index/config.json": json.dumps({"dl": f"http://127.0.0.1:{port}/dl"}).encode(),
        f"/index/{CRATE[:2]}/{CRATE[2:4]}/{CRATE}": (json.dumps(entry) + "\n").encode(),
        f"/dl/{CRATE}/{VERSION}/download": crate,
    }


class _Handler(http.server.BaseHTTPRequestHandler):
    def do_GET(self) -> None:  # noqa: N802 (http.server's name)
        server: Registry = self.server  # type: ignore[assignment]
        server.requests.append(self.path)
        body = _files(server.server_address[1]).get(self.path)
        self.send_response(200 if body is not None else 404)
        self.send_header("Content-Length", str(len(body or b"")))
        self.end_headers()
        self.wfile.write(body or b"")

    def log_message(self, *args: object) -> None:
        """Quiet: the tests read `Registry.requests`."""


class Registry(http.server.ThreadingHTTPServer):
    def __init__(self) -> None:
        super().__init__(("127.0.0.1", 0), _Handler)
        self.requests: list[str] = []

    @property
    def url(self) -> str:
        return f"sparse+http://127.0.0.1:{self.server_address[1]}/index/"


@contextmanager
def registry() -> Iterator[Registry]:
    """The registry, serving in a thread until the block ends."""
    server = Registry()
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield server
    finally:
        server.shutdown()
        server.server_close()


def cargo_config(url: str) -> str:
    """``.cargo/config.toml`` that sends crates.io's crates to ``url``."""
    return (
        '[source.crates-io]\nreplace-with = "local"\n\n'
        f'[source.local]\nregistry = "{url}"\n'
    )
