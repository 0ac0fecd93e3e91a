"""A real Ray cluster for the tests: a head and worker nodes as separate processes.

The cluster uses Ray's token authentication with a token of its own (`env` holds
the variables every node and every driver of it needs), so it neither reads nor
writes ``~/.ray/auth_token``. Each node is ``ray start --block`` in its own process
group (so killing the group kills the node's raylet and its workers, as a machine
dying would), on 127.0.0.1
ports picked free, one CPU, the dashboard off and a small object store. The head
notices a dead node within seconds (a short health check). Nothing here touches
Ray processes it did not start.
"""

from __future__ import annotations

import contextlib
import json
import os
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path

OBJECT_STORE_BYTES = 80 * 2**20
START_TIMEOUT_S = 240.0
_STARTED = "Ray runtime started"
#: dead nodes are noticed after about 3 missed one-second health checks
_HEALTH = {"health_check_period_ms": 1000, "health_check_failure_threshold": 3,
           "health_check_initial_delay_ms": 1000}  # fmt: skip


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def _ports() -> list[str]:
    names = ("node-manager", "object-manager", "dashboard-agent-listen", "dashboard-agent-grpc",
             "metrics-export", "runtime-env-agent")  # fmt: skip
    return [arg for name in names for arg in (f"--{name}-port", str(free_port()))]


@dataclass
class Node:
    name: str
    process: subprocess.Popen[bytes]
    log: Path
    env: dict[str, str] = field(default_factory=dict)

    def alive(self) -> bool:
        return self.process.poll() is None


@dataclass
class RayCluster:
    root: Path = field(default_factory=lambda: Path(tempfile.mkdtemp(prefix="smray-")))
    port: int = field(default_factory=free_port)
    nodes: list[Node] = field(default_factory=list)

    def __post_init__(self) -> None:
        token = self.root / "auth_token"
        token.write_text(os.urandom(16).hex())
        self.env = {"RAY_AUTH_MODE": "token", "RAY_AUTH_TOKEN_PATH": str(token)}

    @property
    def address(self) -> str:
        return f"127.0.0.1:{self.port}"

    def _start(self, name: str, args: list[str], env: dict[str, str] | None) -> Node:
        ray = Path(sys.executable).parent / "ray"
        log = self.root / f"{name}.log"
        command = [str(ray), "start", "--block", "--num-cpus", "1", "--disable-usage-stats",
                   "--object-store-memory", str(OBJECT_STORE_BYTES), *_ports(), *args]  # fmt: skip
        with log.open("wb") as sink:  # the node keeps its own copy of the descriptor
            process = subprocess.Popen(
                command, stdout=sink, stderr=subprocess.STDOUT, start_new_session=True,
                env={**os.environ, **self.env, **(env or {})}, stdin=subprocess.DEVNULL,
            )  # fmt: skip
        node = Node(name, process, log, env or {})
        self.nodes.append(node)
        self._wait_started(node)
        return node

    def _wait_started(self, node: Node) -> None:
        deadline = time.monotonic() + START_TIMEOUT_S
        while time.monotonic() < deadline:
            if _STARTED in node.log.read_text(errors="replace"):
                return
            if not node.alive():
                break
            time.sleep(0.3)
        raise RuntimeError(f"Ray node {node.name} did not start:\n{node.log.read_text()[-3000:]}")

    def start_head(self, resources: dict[str, float] | None = None) -> Node:
        args = ["--head", "--port", str(self.port), "--include-dashboard=false",
                "--temp-dir", str(self.root / "tmp"),
                "--system-config", json.dumps(_HEALTH)]  # fmt: skip
        if resources:
            args += ["--resources", json.dumps(resources)]
        return self._start("head", args, None)

    def add_node(
        self,
        name: str,
        resources: dict[str, float] | None = None,
        env: dict[str, str] | None = None,
    ) -> Node:
        args = ["--address", self.address]
        if resources:
            args += ["--resources", json.dumps(resources)]
        return self._start(name, args, env)

    def kill(self, node: Node) -> None:
        """Kill the node's raylet and workers at once, as a machine failing would: its
        process group, and every process descended from it (a worker in a session of
        its own would otherwise live on and could still hand its result in)."""
        if node.alive():
            tree = descendants(node.process.pid)
            os.killpg(node.process.pid, signal.SIGKILL)
            for pid in tree:
                with contextlib.suppress(ProcessLookupError):
                    os.kill(pid, signal.SIGKILL)
        node.process.wait(timeout=60)

    def stop(self) -> None:
        for node in reversed(self.nodes):
            self.kill(node)
        shutil.rmtree(self.root, ignore_errors=True)


def descendants(root: int) -> list[int]:
    """Every process below ``root`` (read from /proc, children before they are orphaned)."""
    children: dict[int, list[int]] = {}
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            stat = (entry / "stat").read_text()
        except OSError:
            continue
        parent = int(stat.rsplit(")", 1)[1].split()[1])
        children.setdefault(parent, []).append(int(entry.name))
    found, todo = [], [root]
    while todo:
        for child in children.get(todo.pop(), []):
            found.append(child)
            todo.append(child)
    return found


def env_without(program: str, folder: Path) -> dict[str, str]:
    """An environment whose PATH holds every program of this PATH except ``program``."""
    folder.mkdir(parents=True, exist_ok=True)
    for directory in os.environ.get("PATH", "").split(os.pathsep):
        if not os.path.isdir(directory):
            continue
        for entry in os.scandir(directory):
            target = folder / entry.name
            if entry.name != program and not target.exists() and os.access(entry.path, os.X_OK):
                target.symlink_to(entry.path)
    return {"PATH": str(folder)}
