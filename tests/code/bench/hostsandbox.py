"""A test-only `Sandbox` that runs commands straight on the host with `subprocess`.

It honours ``workdir``, ``env``, ``stdin`` and ``limits.wall_s`` (the whole
process group is killed on timeout: ``limit="timeout"``, ``returncode=None``)
and nothing else: no isolation, no network switch, no memory or process
limits, mounts ignored. The agent tests use it so they run anywhere; one test
uses the real bubblewrap backend.
"""

from __future__ import annotations

import os
import signal
import subprocess
import time
from collections.abc import Mapping, Sequence
from pathlib import Path

from slopmark.sandbox.base import Execution, Limits, Mount


class HostSandbox:
    name = "host-test"

    def __init__(self) -> None:
        self.calls: list[list[str]] = []

    def run(
        self,
        argv: Sequence[str],
        *,
        workdir: Path,
        mounts: Sequence[Mount],
        limits: Limits,
        env: Mapping[str, str],
        stdin: str | None = None,
    ) -> Execution:
        self.calls.append(list(argv))
        started = time.monotonic()
        process = subprocess.Popen(
            list(argv),
            cwd=workdir,
            env=dict(env),
            text=True,
            start_new_session=True,
            stdin=subprocess.PIPE if stdin is not None else subprocess.DEVNULL,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
        )
        try:
            stdout, stderr = process.communicate(stdin, timeout=limits.wall_s)
        except subprocess.TimeoutExpired:
            os.killpg(process.pid, signal.SIGKILL)
            stdout, stderr = process.communicate()
            return Execution(None, stdout, stderr, time.monotonic() - started, "timeout")
        return Execution(process.returncode, stdout, stderr, time.monotonic() - started)
