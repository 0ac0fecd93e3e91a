"""The real CLI, each command in a process of its own, without paying for Python's start.

`python -m slopmark ARGS` spends most of a short command (a bad value refused) starting
the interpreter and importing what the command needs. `CliFork` starts one Python process
that imports every module of slopmark once; each `run` forks it, and the child
takes the given arguments, working folder, environment and stdin, points stdout and
stderr at files of its own and calls `main()`, as `python -m slopmark` does: its exit
status, output and any traceback are the command's. Only the start-up is shared, and a
command can change nothing in the parent or in the next command's process.

The parent (this file run as a script) reads one JSON request per line on the pipe it
was given and answers one JSON line on the other: ``{"returncode", "stdout",
"stderr"}``, or ``{"timeout": true}`` when the child outlived its time and was killed.
"""

from __future__ import annotations

import contextlib
import gc
import importlib
import json
import os
import pkgutil
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any, TextIO

#: How often the parent looks whether a child has ended.
POLL_S = 0.005


class CliFork:
    """A started parent process; ``run`` is `subprocess.run` of ``python -m slopmark``."""

    def __init__(self, env: dict[str, str]) -> None:
        self.process = subprocess.Popen(
            [sys.executable, "-P", __file__],  # -P: tests/ is not on sys.path
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            text=True,
            env=env,
        )

    def run(
        self,
        *args: str,
        cwd: Path,
        env: dict[str, str],
        stdin: str = "",
        timeout: float = 120,
    ) -> subprocess.CompletedProcess[str]:
        request = {"args": list(args), "cwd": str(cwd), "env": env, "stdin": stdin}
        assert self.process.stdin is not None and self.process.stdout is not None
        self.process.stdin.write(json.dumps(request | {"timeout": timeout}) + "\n")
        self.process.stdin.flush()
        answer = json.loads(self.process.stdout.readline())
        command = ["python", "-m", "slopmark", *args]
        if answer.get("timeout"):
            raise subprocess.TimeoutExpired(command, timeout)
        return subprocess.CompletedProcess(
            command, answer["returncode"], answer["stdout"], answer["stderr"]
        )

    def close(self) -> None:
        self.process.communicate(timeout=30)

    def __enter__(self) -> CliFork:
        return self

    def __exit__(self, *_: object) -> None:
        self.close()


# --- the parent process -----------------------------------------------------------------


def _become(request: dict[str, Any], folder: Path) -> None:
    """In the child: the request's folder, environment, arguments and standard streams."""
    os.chdir(request["cwd"])
    sys.path.insert(0, os.getcwd())  # as `python -m` puts the working folder first
    os.environ.clear()
    os.environ.update(request["env"])
    sys.argv = [str(Path(importlib.import_module("slopmark").__file__).parent / "__main__.py")]
    sys.argv += request["args"]
    (folder / "stdin").write_text(request["stdin"], encoding="utf-8")
    for fd, name, flags in ((0, "stdin", os.O_RDONLY),
                            (1, "stdout", os.O_WRONLY | os.O_CREAT | os.O_TRUNC),
                            (2, "stderr", os.O_WRONLY | os.O_CREAT | os.O_TRUNC)):  # fmt: skip
        opened = os.open(folder / name, flags, 0o600)
        os.dup2(opened, fd)
        os.close(opened)


def _wait(pid: int, timeout: float) -> int | None:
    """The child's exit status (negative: killed by that signal), None after ``timeout``."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        done, status = os.waitpid(pid, os.WNOHANG)
        if done:
            return os.waitstatus_to_exitcode(status)
        time.sleep(POLL_S)
    os.kill(pid, signal.SIGKILL)
    os.waitpid(pid, 0)
    return None


def _answer(request: dict[str, Any], requests: TextIO, replies: TextIO) -> None:
    """Fork a child for ``request``; reply with what it did. The child never returns
    here: `main()` ends in `sys.exit`, which unwinds through `serve` and ends the child
    as it ends `python -m slopmark` (nothing on the way cleans up after the parent)."""
    from slopmark.cli.main import main

    folder = Path(tempfile.mkdtemp(prefix="slopmark-fork-"))
    pid = os.fork()
    if pid == 0:
        requests.close()
        replies.close()
        _become(request, folder)
        main()
    code = _wait(pid, request["timeout"])
    if code is None:
        reply: dict[str, Any] = {"timeout": True}
    else:
        read = {n: (folder / n).read_text("utf-8", "replace") for n in ("stdout", "stderr")}
        reply = {"returncode": code, **read}
    shutil.rmtree(folder)
    replies.write(json.dumps(reply) + "\n")
    replies.flush()


def import_everything() -> None:
    """Every module of slopmark (what the commands import when they run), but those
    that need an extra that is not installed."""
    import slopmark

    for found in pkgutil.walk_packages(slopmark.__path__, "slopmark."):
        if not found.name.endswith(".__main__"):
            with contextlib.suppress(ImportError):
                importlib.import_module(found.name)


def serve() -> None:
    """Import slopmark, then answer requests until stdin closes. The requests and
    replies move to descriptors of their own: the children inherit standard streams
    that this process never read or wrote."""
    import_everything()
    gc.freeze()  # the children's collections leave the shared objects alone (and unshared)
    requests = os.fdopen(os.dup(0), "r", encoding="utf-8")
    replies = os.fdopen(os.dup(1), "w", encoding="utf-8")
    null = os.open(os.devnull, os.O_RDWR)
    os.dup2(null, 0)
    os.dup2(null, 1)
    os.close(null)
    for line in requests:
        _answer(json.loads(line), requests, replies)


if __name__ == "__main__":
    serve()
