"""``code study`` keeps a URL's credentials to the clone: they never reach its output, its
messages, its study folder or the store; and a repository gets a time limit a user
would expect for one clone and measurement."""

from __future__ import annotations

import base64
import json
import socket
import threading
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import pytest

from slopmark.code.study.repos import read_repos, redact_credentials

from .conftest import cli

pytestmark = pytest.mark.slow  # starts python

SECRET = "s3cret-t0ken"


def closed_port() -> int:
    """A port on 127.0.0.1 nothing listens on (a clone fails at once)."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


class _Challenge(BaseHTTPRequestHandler):
    """Asks for credentials, notes the ones it gets, then has no such repository."""

    seen: list[str] = []

    def do_GET(self) -> None:  # noqa: N802 - the handler's protocol
        answer = self.headers.get("Authorization")
        if answer is None:
            self.send_response(401)
            self.send_header("WWW-Authenticate", 'Basic realm="r"')
        else:
            self.seen.append(base64.b64decode(answer.split()[-1]).decode())
            self.send_response(404)
        self.send_header("Content-Length", "0")
        self.end_headers()

    def log_message(self, format: str, *args: object) -> None:  # noqa: A002
        del format, args


@pytest.fixture
def challenging_server() -> Iterator[tuple[int, list[str]]]:
    """(port, the credentials it received) of an HTTP server on 127.0.0.1."""
    seen: list[str] = []
    handler = type("Handler", (_Challenge,), {"seen": seen})
    server = ThreadingHTTPServer(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield server.server_address[1], seen
    server.shutdown()
    server.server_close()
    thread.join()


def assert_hidden(texts: list[str], folders: list[Path], files: list[Path]) -> None:
    """`SECRET` is in none of ``texts``, nor in any file of ``folders`` or ``files``."""
    found = [path for folder in folders for path in folder.rglob("*") if path.is_file()]
    for path in [*found, *files]:
        assert SECRET.encode() not in path.read_bytes(), path
    for text in texts:
        assert SECRET not in text


def test_credentials_in_a_url_are_used_and_never_shown(
    challenging_server: tuple[int, list[str]], tmp_path: Path
) -> None:
    port, seen = challenging_server
    closed = closed_port()
    listing = tmp_path / "REPOS.txt"
    listing.write_text(f"http://user:{SECRET}@127.0.0.1:{port}/r.git\n"
                       f"https://{SECRET}@127.0.0.1:{closed}/t.git\n")  # fmt: skip
    db, out = tmp_path / "s.db", tmp_path / "out"
    done = cli("code", "study", str(listing), "--db", f"sqlite:///{db}", "--out", str(out),
               "--json", "--timeout", "60s")  # fmt: skip
    assert done.returncode == 1, done.stderr[-2000:]
    assert json.loads(done.stdout)["repos"] == {"total": 2, "stored": 0, "failed": 2}
    shown = cli("code", "study", "report", str(out), "--json")
    table = cli("code", "study", "report", str(out))
    rows = json.loads(shown.stdout)["repositories"]
    assert [row["repo"] for row in rows] == [f"http://***@127.0.0.1:{port}/r.git",
                                             f"https://***@127.0.0.1:{closed}/t.git"]  # fmt: skip
    assert seen == [f"user:{SECRET}"]  # the clone used them
    assert {row["error"].split(":")[0] for row in rows} == {"git clone failed"}, rows
    texts = [done.stdout, done.stderr, shown.stdout, shown.stderr, table.stdout, table.stderr]
    assert_hidden(texts, [out], [db])


def test_a_refused_line_is_named_without_its_credentials(tmp_path: Path) -> None:
    listing = tmp_path / "REPOS.txt"
    url = f"https://user:{SECRET}@127.0.0.1:9/r.git"
    listing.write_text(f"{url}\n{url}\n")
    done = cli("code", "study", str(listing), "--db", f"sqlite:///{tmp_path / 's.db'}")
    assert done.returncode == 2
    assert done.stderr.strip().endswith(
        "'https://***@127.0.0.1:9/r.git' repeats line 1 (the same repository: 127.0.0.1:9/r); "
        "list each repository once"
    )
    assert SECRET not in done.stderr


def test_only_the_user_part_of_a_url_is_hidden() -> None:
    text = f"https://user:{SECRET}@example.invalid/a@b/r.git"
    assert redact_credentials(text) == "https://***@example.invalid/a@b/r.git"
    assert redact_credentials("git@example.invalid:team/r.git") == "git@example.invalid:team/r.git"


def test_read_repos_keeps_the_url_for_the_clone_only(tmp_path: Path) -> None:
    listing = tmp_path / "REPOS.txt"
    listing.write_text(f"https://user:{SECRET}@example.invalid/r.git\n")
    (entry,) = read_repos(listing)
    assert entry.repo == "https://***@example.invalid/r.git" and SECRET not in repr(entry)
    assert entry.url == f"https://user:{SECRET}@example.invalid/r.git"


def test_a_repository_has_ten_minutes_by_default() -> None:
    done = cli("code", "study", "run", "--help", env={"COLUMNS": "200", "NO_COLOR": "1"})
    assert done.returncode == 0
    line = next(line for line in done.stdout.splitlines() if "--timeout" in line)
    assert "[default: 10m]" in line
