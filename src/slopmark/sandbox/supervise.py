"""Run one process under a wall clock, capture the tails of its output, kill what it leaves.

Every backend starts its command (bwrap, docker or the command itself)
through `supervise`: the process leads a new process group; when it exits
or the wall clock runs out, the whole group is killed with SIGKILL, so
children it left in the background do not outlive it (a child that starts
its own session escapes the group; bubblewrap's PID namespace catches those).
"""

from __future__ import annotations

import contextlib
import os
import signal
import subprocess
import threading
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import IO

from slopmark.sandbox.base import Execution, Limits
from slopmark.sandbox.limits import stopped_by

#: Each of stdout and stderr keeps at most this many bytes: the last ones.
OUTPUT_CAP = 1024 * 1024

#: How long to wait for the output pipes to close once the process is gone.
_DRAIN_S = 5.0


@dataclass(frozen=True)
class Launch:
    """How to start the supervised process."""

    argv: Sequence[str]
    env: Mapping[str, str]
    cwd: Path | None = None
    preexec: Callable[[], None] | None = None
    #: Called once the process is gone or timed out (e.g. ``docker kill``).
    cleanup: Callable[[], None] | None = None
    #: Open descriptors the process inherits (the rest are closed).
    pass_fds: tuple[int, ...] = ()


class _Tail(threading.Thread):
    """Reads a pipe to its end, keeping the last ``OUTPUT_CAP`` bytes."""

    def __init__(self, pipe: IO[bytes]) -> None:
        super().__init__(daemon=True)
        self.pipe = pipe
        self.data = bytearray()

    def run(self) -> None:
        with contextlib.suppress(OSError, ValueError), self.pipe:
            while chunk := os.read(self.pipe.fileno(), 65536):
                self.data += chunk
                if len(self.data) > OUTPUT_CAP:
                    del self.data[: len(self.data) - OUTPUT_CAP]

    def text(self) -> str:
        self.join(_DRAIN_S)
        return bytes(self.data).decode("utf-8", errors="replace")


def supervise(launch: Launch, limits: Limits, stdin: str | None = None) -> Execution:
    """Run ``launch`` to its end or to ``limits.wall_s``; what it did."""
    started = time.monotonic()
    process = subprocess.Popen(
        list(launch.argv),
        stdin=subprocess.DEVNULL if stdin is None else subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        env=dict(launch.env),
        cwd=launch.cwd,
        start_new_session=True,
        pass_fds=launch.pass_fds,
        preexec_fn=launch.preexec,  # only sets rlimits / joins a cgroup: no locks taken
    )
    out, err = _Tail(process.stdout), _Tail(process.stderr)  # type: ignore[arg-type]
    out.start()
    err.start()
    _feed(process, stdin)
    returncode = _wait(process, limits.wall_s)
    _kill_group(process.pid)
    if launch.cleanup is not None:
        launch.cleanup()
    process.wait()
    elapsed = time.monotonic() - started
    stdout, stderr = out.text(), err.text()
    if returncode is None:
        return Execution(None, stdout, stderr, elapsed, "timeout")
    limit = stopped_by(returncode, stderr, limits)
    return Execution(returncode, stdout, stderr, elapsed, limit)


def _feed(process: subprocess.Popen[bytes], stdin: str | None) -> None:
    if stdin is None or process.stdin is None:
        return
    pipe, data = process.stdin, stdin.encode("utf-8")

    def write() -> None:
        with contextlib.suppress(OSError):
            pipe.write(data)
        with contextlib.suppress(OSError):
            pipe.close()

    threading.Thread(target=write, daemon=True).start()


def _wait(process: subprocess.Popen[bytes], wall_s: float) -> int | None:
    """The return code, or None when the wall clock ran out first."""
    try:
        return process.wait(timeout=wall_s)
    except subprocess.TimeoutExpired:
        return None


def _kill_group(pgid: int) -> None:
    """SIGKILL the process group, then wait (up to ``_DRAIN_S``) until it is gone."""
    deadline = time.monotonic() + _DRAIN_S
    with contextlib.suppress(ProcessLookupError, PermissionError):
        os.killpg(pgid, signal.SIGKILL)
        while time.monotonic() < deadline:
            os.killpg(pgid, 0)
            time.sleep(0.01)
