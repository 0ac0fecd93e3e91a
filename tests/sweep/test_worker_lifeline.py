"""Pool workers end with the process that started them, even when it is killed with
SIGKILL: the local executor's (``code study``) and `map_chunks`'s (``code measure``)."""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from contextlib import suppress
from pathlib import Path

import pytest

from .conftest import cli_started

pytestmark = pytest.mark.slow  # starts python

#: A pool that works for minutes unless its workers end with their parent.
CHUNKS_DRIVER = """
import os, sys, time
from pathlib import Path
from slopmark.executor import map_chunks

def nap(chunk):
    (Path(chunk[0]) / str(os.getpid())).touch()
    time.sleep(300)
    return chunk

if __name__ == "__main__":
    for _ in map_chunks(nap, [[sys.argv[1]], [sys.argv[1]]], 2):
        pass
"""


@pytest.fixture
def silent_git_server() -> Iterator[int]:
    """A TCP port that accepts git:// connections and never answers."""
    server = socket.socket()
    server.bind(("127.0.0.1", 0))
    server.listen()
    server.settimeout(0.2)
    held: list[socket.socket] = []
    stop = threading.Event()

    def accept() -> None:
        while not stop.is_set():
            try:
                held.append(server.accept()[0])
            except OSError:
                continue

    thread = threading.Thread(target=accept, daemon=True)
    thread.start()
    yield server.getsockname()[1]
    stop.set()
    thread.join()
    for connection in held:
        connection.close()
    server.close()


def children(pid: int) -> list[int]:
    found = []
    for listing in Path(f"/proc/{pid}/task").glob("*/children"):
        try:
            found.extend(map(int, listing.read_text().split()))
        except OSError:
            continue
    return found


def alive(pid: int) -> bool:
    """Running (a zombie nobody reaped yet has ended)."""
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except (OSError, IndexError):
        return False
    return state != "Z"


def workers(pid: int) -> list[int]:
    """The pool workers (spawned Python processes) among ``pid``'s children."""
    found = []
    for child in children(pid):
        try:
            if b"spawn_main" in Path(f"/proc/{child}/cmdline").read_bytes():
                found.append(child)
        except OSError:
            continue
    return found


def busy_workers(process: subprocess.Popen[str], count: int) -> list[int]:
    """``count`` pool workers of ``process`` that each run a child (a git clone), and
    those children."""
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline and process.poll() is None:
        busy = [pid for pid in workers(process.pid) if children(pid)]
        if len(busy) >= count:
            return busy + [grandchild for pid in busy for grandchild in children(pid)]
        time.sleep(0.1)
    raise AssertionError(f"no {count} busy workers appeared (exit {process.poll()})")


def assert_all_end(process: subprocess.Popen[str], pids: list[int]) -> None:
    try:
        os.kill(process.pid, signal.SIGKILL)
        process.wait(timeout=30)  # not its pipes: a worker left alive would hold them open
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline and any(map(alive, pids)):
            time.sleep(0.1)
        assert [pid for pid in pids if alive(pid)] == []
    finally:
        with suppress(ProcessLookupError):
            os.killpg(process.pid, signal.SIGKILL)  # whatever is left of this test's session
        process.communicate(timeout=30)


def test_killing_a_study_ends_its_workers_and_their_clones(
    silent_git_server: int, tmp_path: Path
) -> None:
    listing = tmp_path / "REPOS.txt"
    listing.write_text("".join(f"git://127.0.0.1:{silent_git_server}/r{i}.git\n" for i in (1, 2)))
    where = {"TMPDIR": str(tmp_path)}  # the clone folders a killed study leaves stay here
    study = cli_started("code", "study", str(listing), "--db", f"sqlite:///{tmp_path / 's.db'}",
                        "--out", str(tmp_path / "out"), "--jobs", "2", env=where)  # fmt: skip
    pids = busy_workers(study, 2)  # each waits in its git clone
    assert_all_end(study, pids)


def test_killing_a_chunked_command_ends_its_pool(tmp_path: Path) -> None:
    driver, naps = tmp_path / "driver.py", tmp_path / "naps"
    driver.write_text(CHUNKS_DRIVER)
    naps.mkdir()
    process = subprocess.Popen(
        [sys.executable, str(driver), str(naps)], stdout=subprocess.PIPE,
        stderr=subprocess.PIPE, text=True, start_new_session=True, stdin=subprocess.DEVNULL,
    )  # fmt: skip
    deadline = time.monotonic() + 120
    while len(list(naps.iterdir())) < 2 and time.monotonic() < deadline:
        time.sleep(0.1)
    napping = sorted(int(path.name) for path in naps.iterdir())
    assert len(napping) == 2 and sorted(workers(process.pid)) == napping, process.poll()
    assert_all_end(process, napping)
