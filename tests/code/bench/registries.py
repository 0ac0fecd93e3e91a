"""Package registries on the host's loopback, one package each: the tests' crates.io and npm.

Each speaks its registry's protocol, so ``cargo fetch`` and ``npm install``
reach it as they would reach the real one, while no test sends traffic
beyond 127.0.0.1:

- cargo's sparse protocol: ``config.json``, an index file per crate,
  ``/{crate}/{version}/download``; the problem names it to cargo as the
  registry ``loopback`` (`cargo_env`, the problem's ``env:``);
- npm's: a packument per package naming its tarball, with its digests; the
  problem points npm at it (`npm_env`).

The evaluator names its registries, not the workspace: a workspace's own
configuration is the submission's, and a source it names that never answers is
the submission's failure (`slopmark.code.bench.probe`).
"""

from __future__ import annotations

import base64
import gzip
import hashlib
import http.server
import io
import json
import tarfile
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager

CRATE = "slopdep"
PACKAGE = "slopleft"
VERSION = "0.1.0"
GREETING = {CRATE: "hello from slopdep", PACKAGE: "hello from slopleft"}

Files = Callable[[int], dict[str, bytes]]


def _archive(entries: dict[str, str]) -> bytes:
    """A gzipped tar of ``entries`` (path → text), the same bytes every time: the index
    names the archive's digest, and a gzip header stamped with the time would change it
    from one request to the next."""
    buffer = io.BytesIO()
    with tarfile.open(fileobj=buffer, mode="w") as tar:
        for path, text in entries.items():
            data = text.encode()
            info = tarfile.TarInfo(path)
            info.size, info.mode = len(data), 0o644
            tar.addfile(info, io.BytesIO(data))
    return gzip.compress(buffer.getvalue(), mtime=0)


def crate_files(port: int) -> dict[str, bytes]:
    """A crate whose ``greet()`` returns its greeting, as a sparse registry serves it."""
    crate = _archive({
        f"{CRATE}-{VERSION}/Cargo.toml":
            f'[package]\nname = "{CRATE}"\nversion = "{VERSION}"\nedition = "2021"\n',
        f"{CRATE}-{VERSION}/src/lib.rs":
            f'pub fn greet() -> &\'static str {{ "{GREETING[CRATE]}" }}\n',
    })  # fmt: skip
    entry = {"name": CRATE, "vers": VERSION, "deps": [], "features": {}, "yanked": False,
             "cksum": hashlib.sha256(crate).hexdigest()}  # fmt: skip
    return {
        "/index/config.json": json.dumps({"dl": f"http://127.0.0.1:{port}/dl"}).encode(),
        f"/index/{CRATE[:2]}/{CRATE[2:4]}/{CRATE}": (json.dumps(entry) + "\n").encode(),
        f"/dl/{CRATE}/{VERSION}/download": crate,
    }


def npm_files(port: int) -> dict[str, bytes]:
    """A package whose ``greet()`` returns its greeting, as an npm registry serves it."""
    tarball = _archive({
        "package/package.json": json.dumps({"name": PACKAGE, "version": VERSION}),
        "package/index.js": f"exports.greet = () => '{GREETING[PACKAGE]}';\n",
    })  # fmt: skip
    path = f"/{PACKAGE}/-/{PACKAGE}-{VERSION}.tgz"
    integrity = "sha512-" + base64.b64encode(hashlib.sha512(tarball).digest()).decode()
    dist = {"tarball": f"http://127.0.0.1:{port}{path}", "integrity": integrity,
            "shasum": hashlib.sha1(tarball).hexdigest()}  # fmt: skip
    version = {"name": PACKAGE, "version": VERSION, "dist": dist}
    packument = {"name": PACKAGE, "dist-tags": {"latest": VERSION}, "versions": {VERSION: version}}
    return {f"/{PACKAGE}": json.dumps(packument).encode(), path: tarball}


class _Handler(http.server.BaseHTTPRequestHandler):
    def do_GET(self) -> None:  # noqa: N802 (http.server's name)
        server: Registry = self.server  # type: ignore[assignment]
        server.requests.append(self.path)
        body = server.files(server.port).get(self.path)
        self.send_response(200 if body is not None else 404)
        self.send_header("Content-Length", str(len(body or b"")))
        self.end_headers()
        self.wfile.write(body or b"")

    def log_message(self, *args: object) -> None:
        """Quiet: the tests read `Registry.requests`."""


class Registry(http.server.ThreadingHTTPServer):
    def __init__(self, files: Files) -> None:
        super().__init__(("127.0.0.1", 0), _Handler)
        self.files = files
        self.requests: list[str] = []

    @property
    def port(self) -> int:
        return int(self.server_address[1])


@contextmanager
def registry(files: Files) -> Iterator[Registry]:
    """A registry serving ``files``, in a thread until the block ends."""
    server = Registry(files)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield server
    finally:
        server.shutdown()
        server.server_close()


#: The name the problems give the loopback crate registry.
CARGO_REGISTRY = "loopback"


def cargo_env(port: int) -> dict[str, str]:
    """The problem's ``env:`` naming the crate registry on ``port`` to cargo."""
    return {f"CARGO_REGISTRIES_{CARGO_REGISTRY.upper()}_INDEX": sparse_index(port)}


def sparse_index(port: int) -> str:
    return f"sparse+http://127.0.0.1:{port}/index/"


def npm_env(port: int) -> dict[str, str]:
    """The problem's ``env:`` sending every npm package to the registry on ``port``."""
    return {"npm_config_registry": f"http://127.0.0.1:{port}/"}
