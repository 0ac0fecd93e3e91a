"""Hostile code inside the harness, in the real bubblewrap sandbox.

Programs under test and agents try the network, write outside their
workspace, fork-bomb, loop forever and hog memory. Each is stopped by the
sandbox's limits and reported as a failure of its own checkpoint; the run goes
on and every checkpoint gets a result.
"""

from __future__ import annotations

import shutil
import sys
import threading
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import pytest

from slopmark.code.bench.problem import load_problem
from slopmark.code.bench.results import CheckpointResult
from slopmark.code.bench.runner import BenchConfig
from slopmark.code.bench.session import execute

pytestmark = [
    pytest.mark.skipif(shutil.which("bwrap") is None, reason="needs bubblewrap"),
    pytest.mark.slow,  # starts the bench in the sandbox
]

CONFTEST = '''\
import shlex

import pytest


def pytest_addoption(parser):
    parser.addoption("--entrypoint", required=True)
    parser.addoption("--checkpoint", required=True)


@pytest.fixture(scope="session")
def entrypoint_argv(request):
    return shlex.split(request.config.getoption("--entrypoint"))
'''

#: Each checkpoint's program, and the hidden test that runs it (no timeout of its own).
PROGRAMS = {
    "escape": """\
import socket, sys
try:
    socket.create_connection(("127.0.0.1", int(sys.argv[1])), timeout=3)
    print("network: open")
except OSError:
    print("network: blocked")
for target in sys.argv[2:]:
    try:
        open(target, "w").write("escaped")
        print("write: open")
    except OSError:
        print("write: blocked")
""",
    "loop": "while True:\n    pass\n",
    "fork_bomb": (
        "import os\nwhile True:\n    try:\n        os.fork()\n    except OSError:\n        pass\n"
    ),
    "memory_hog": "blocks = []\nwhile True:\n    blocks.append(bytearray(64 << 20))\n",
    "fine": "print('fine')\n",
}
TESTS = {
    "escape": """\
import subprocess

def test_escape(entrypoint_argv):
    argv = entrypoint_argv + ["PORT", "TARGET_A", "TARGET_B"]
    out = subprocess.run(argv, capture_output=True, text=True).stdout
    assert out == "network: blocked\\nwrite: blocked\\nwrite: blocked\\n"
""",
    "loop": "import subprocess\n\ndef test_loop(entrypoint_argv):\n"
    "    assert subprocess.run(entrypoint_argv).returncode == 0\n",
    "fork_bomb": "import subprocess\n\ndef test_fork_bomb(entrypoint_argv):\n"
    "    assert subprocess.run(entrypoint_argv).returncode == 0\n",
    "memory_hog": "import subprocess\n\ndef test_memory_hog(entrypoint_argv):\n"
    "    assert subprocess.run(entrypoint_argv).returncode == 0\n",
    "fine": "import subprocess\n\ndef test_fine(entrypoint_argv):\n"
    "    done = subprocess.run(entrypoint_argv, capture_output=True, text=True)\n"
    "    assert done.stdout == 'fine\\n'\n",
}


@pytest.fixture
def host_server() -> Iterator[int]:
    class Hello(BaseHTTPRequestHandler):
        def do_GET(self) -> None:
            self.send_response(200)
            self.end_headers()

        def log_message(self, *args: object) -> None:
            pass

    server = ThreadingHTTPServer(("127.0.0.1", 0), Hello)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    yield server.server_address[1]
    server.shutdown()
    server.server_close()


def make_problem(root: Path, port: int, targets: list[Path]) -> Path:
    folder = root / "hostile"
    (folder / "tests").mkdir(parents=True)
    names = list(PROGRAMS)
    checkpoints = "".join(
        f"  checkpoint_{n}: {{order: {n}, include_prior_tests: false}}\n"
        for n in range(1, len(names) + 1)
    )
    (folder / "config.yaml").write_text(
        f"name: hostile\nentry_file: main\ntimeout: 5\ncheckpoints:\n{checkpoints}"
    )
    (folder / "tests" / "conftest.py").write_text(CONFTEST)
    for n, name in enumerate(names, start=1):
        (folder / f"checkpoint_{n}.md").write_text(f"checkpoint {n}: {name}\n")
        test = TESTS[name].replace("PORT", str(port))
        test = test.replace("TARGET_A", str(targets[0])).replace("TARGET_B", str(targets[1]))
        (folder / "tests" / f"test_checkpoint_{n}.py").write_text(test)
        solution = folder / "solutions" / f"checkpoint_{n}"
        solution.mkdir(parents=True)
        (solution / "main.py").write_text(PROGRAMS[name])
    return folder


def run(
    problem_dir: Path, run_dir: Path, agent: str = "replay", **extra: object
) -> list[CheckpointResult]:
    config = BenchConfig(run_dir, agent, None, "just-solve", "bwrap", **extra)  # type: ignore[arg-type]
    results, failures = execute(config, [load_problem(problem_dir)], None)
    assert failures == []
    return results


def test_hostile_programs_fail_their_own_checkpoint_only(tmp_path: Path, host_server: int) -> None:
    # Host paths outside /tmp (the sandbox's /tmp is a private tmpfs).
    outside = [Path(__file__).parent / "escaped.txt", Path(sys.executable).parent / "escaped.txt"]
    results = run(make_problem(tmp_path, host_server, outside), tmp_path / "run")
    by_name = dict(zip(PROGRAMS, results, strict=True))
    assert by_name["escape"].strict, by_name["escape"].tests
    assert not any(path.exists() for path in outside)
    for name in ("loop", "fork_bomb", "memory_hog"):
        result = by_name[name]
        assert result.status in ("scored", "test_error"), result
        assert not result.strict, name
        assert result.tests or result.error
    assert "Timeout" in (by_name["loop"].tests[0].message or "")
    assert by_name["fine"].strict
    assert [r.status for r in results].count("scored") >= 4


AGENTS = {
    "loop": "while True:\n    pass\n",
    "fork_bomb": PROGRAMS["fork_bomb"],
    "memory_hog": PROGRAMS["memory_hog"],
}


@pytest.mark.parametrize("name", list(AGENTS))
def test_hostile_agents_end_as_failed_checkpoints(tmp_path: Path, name: str) -> None:
    script = tmp_path / "agent.py"
    script.write_text(AGENTS[name])
    problem = make_problem(tmp_path, 9, [tmp_path / "a", tmp_path / "b"])
    results = run(
        problem, tmp_path / "run", agent=f"{sys.executable} {script} {{prompt_file}}",
        timeout_s=5.0, agent_memory_mb=512, agent_max_procs=64,
    )  # fmt: skip
    assert results[0].status == "agent_failed"
    assert results[0].agent is not None and results[0].agent.status in ("timeout", "error")
    assert results[0].agent.wall_s < 60
    assert [r.status for r in results[1:]] == ["not_run"] * (len(PROGRAMS) - 1)
