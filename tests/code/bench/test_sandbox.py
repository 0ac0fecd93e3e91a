"""The sandbox backends, run for real: bubblewrap, Docker (when a daemon answers), none-unsafe.

The conformance tests run over every backend the registry holds (built-ins and
entry-point plug-ins alike), skipping, with the backend's own reason, those that
cannot run here; the isolation tests over the safe ones only. Commands run
``python3`` from this virtualenv (or, in Docker, the image's).
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import threading
import uuid
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import pytest

from slopmark.errors import BadInput
from slopmark.sandbox import (
    Execution,
    Limits,
    Mount,
    Sandbox,
    backend_names,
    choose_sandbox,
)
from slopmark.sandbox.base import backend, unavailable_reason
from slopmark.sandbox.docker import docker_argv
from slopmark.sandbox.supervise import OUTPUT_CAP

pytestmark = pytest.mark.slow  # starts bwrap, docker, python, sh, true

ENV = {"PATH": f"{Path(sys.executable).parent}:/usr/local/bin:/usr/bin:/bin", "LANG": "C.UTF-8"}
FAST = Limits(wall_s=30.0, memory_mb=1024, max_procs=64)


#: Every registered backend, and those that claim isolation.
BACKENDS = backend_names()
SAFE = [name for name in BACKENDS if backend(name).safe]


def _sandbox(name: str) -> Sandbox:
    why = unavailable_reason(name) if name in BACKENDS else "not registered"
    if why is not None:
        pytest.skip(f"sandbox '{name}' cannot run here: {why}")
    return choose_sandbox(name)


@pytest.fixture(params=BACKENDS)
def sandbox(request: pytest.FixtureRequest) -> Sandbox:
    return _sandbox(request.param)


@pytest.fixture(params=SAFE)
def safe(request: pytest.FixtureRequest) -> Sandbox:
    return _sandbox(request.param)


@pytest.fixture
def bwrap() -> Sandbox:
    return _sandbox("bwrap")


@pytest.fixture
def ws(tmp_path: Path) -> Path:
    folder = tmp_path / "ws"
    folder.mkdir()
    return folder


def py(
    sandbox: Sandbox, ws: Path, code: str, limits: Limits = FAST, mounts: list[Mount] | None = None
) -> Execution:
    """Run ``python3 -c code`` in ``ws`` (by default the one writable mount)."""
    mounts = [Mount(ws, writable=True)] if mounts is None else mounts
    return sandbox.run(["python3", "-c", code], workdir=ws, mounts=mounts, limits=limits, env=ENV)


# --- conformance: every backend -------------------------------------------------------


def test_exit_code_output_stdin_and_env(sandbox: Sandbox, ws: Path) -> None:
    code = (
        "import os, sys; data = sys.stdin.read(); print('out', data.upper()); "
        "print('err', os.environ['GREETING'], file=sys.stderr); "
        "print(sorted(k for k in os.environ if k not in ('PWD', 'HOSTNAME', 'HOME')));"
        "sys.exit(3)"
    )
    done = sandbox.run(
        ["python3", "-c", code], workdir=ws, mounts=[Mount(ws, writable=True)], limits=FAST,
        env={**ENV, "GREETING": "héllo"}, stdin="ping",
    )  # fmt: skip
    assert (done.returncode, done.limit, done.ok) == (3, None, False)
    assert done.stdout.splitlines() == ["out PING", "['GREETING', 'LANG', 'PATH']"]
    assert done.stderr == "err héllo\n"


def test_path_is_added_when_env_has_none(sandbox: Sandbox, ws: Path) -> None:
    done = sandbox.run(
        ["sh", "-c", 'echo "$PATH"'], workdir=ws, mounts=[Mount(ws)], limits=FAST, env={}
    )
    assert done.ok
    assert done.stdout == "/usr/local/bin:/usr/bin:/bin\n"


def test_infinite_loop_stopped_by_wall_clock(sandbox: Sandbox, ws: Path) -> None:
    done = py(sandbox, ws, "while True: pass", Limits(wall_s=2.0, memory_mb=512, max_procs=64))
    assert (done.returncode, done.limit) == (None, "timeout")
    assert 2.0 <= done.wall_s < 8.0


def test_memory_hog_stopped_by_memory_limit(sandbox: Sandbox, ws: Path) -> None:
    done = py(sandbox, ws, "b = bytearray(2 * 1024**3)", Limits(memory_mb=256, wall_s=60.0))
    assert done.limit == "memory", done.stderr
    assert done.returncode not in (0, None)


def test_output_keeps_the_last_mebibyte(sandbox: Sandbox, ws: Path) -> None:
    done = py(sandbox, ws, "import sys; sys.stdout.write('x' * 3 * 1024**2 + 'END')")
    assert done.ok
    assert len(done.stdout) == OUTPUT_CAP
    assert done.stdout.endswith("xEND")


def _alive(token: str) -> list[int]:
    """Host processes whose command line holds ``token``."""
    found = []
    for entry in Path("/proc").iterdir():
        try:
            if entry.name.isdigit() and token in (entry / "cmdline").read_bytes().decode():
                found.append(int(entry.name))
        except OSError:
            continue
    return found


@pytest.mark.parametrize("wall_s", [30.0, 2.0], ids=["on-exit", "on-timeout"])
def test_background_children_are_killed(sandbox: Sandbox, ws: Path, wall_s: float) -> None:
    token = f"slopmark-leftover-{uuid.uuid4().hex}"
    body = "" if wall_s == 30.0 else "while True: pass"
    code = (
        "import subprocess, sys; "
        f"p = subprocess.Popen([sys.executable, '-c', 'import time; time.sleep(600)', '{token}'],"
        " stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL); "
        "open('child.pid', 'w').write(str(p.pid))\n" + body
    )
    done = py(sandbox, ws, code, Limits(wall_s=wall_s, memory_mb=1024, max_procs=64))
    assert (ws / "child.pid").is_file(), done.stderr
    assert done.limit == (None if wall_s == 30.0 else "timeout")
    assert _alive(token) == []


# --- isolation: bwrap and docker ------------------------------------------------------


@pytest.fixture
def http_server() -> Iterator[int]:
    class Hello(BaseHTTPRequestHandler):
        def do_GET(self) -> None:  # noqa: N802 - the http.server API
            self.send_response(200)
            self.end_headers()
            self.wfile.write(b"hello from the host")

        def log_message(self, *args: object) -> None:
            return

    server = ThreadingHTTPServer(("127.0.0.1", 0), Hello)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield server.server_address[1]
    server.shutdown()
    server.server_close()


def _fetch(port: int) -> str:
    url = f"http://127.0.0.1:{port}"
    return f"import urllib.request as u; print(u.urlopen({url!r}, timeout=3).read().decode())"


def test_network_is_off(safe: Sandbox, ws: Path, http_server: int) -> None:
    done = py(safe, ws, _fetch(http_server))
    assert done.returncode not in (0, None)
    assert "hello from the host" not in done.stdout
    assert "URLError" in done.stderr or "refused" in done.stderr


def test_network_on_when_asked(bwrap: Sandbox, ws: Path, http_server: int) -> None:
    done = py(bwrap, ws, _fetch(http_server), Limits(wall_s=30.0, network=True))
    assert done.ok, done.stderr
    assert done.stdout == "hello from the host\n"


def test_writes_land_only_in_the_writable_workspace(safe: Sandbox, ws: Path) -> None:
    repo_file = Path(__file__).with_name(f"sandbox-escape-{uuid.uuid4().hex}")
    targets = [repo_file, Path("/usr") / repo_file.name, Path("/etc") / repo_file.name]
    home_file = Path("/root") / repo_file.name  # the home is a throwaway folder inside
    code = (
        "import sys\nopen('inside.txt', 'w').write('made inside')\nfor path in sys.argv[1:]:\n"
        "    try:\n        open(path, 'w').write('escaped')\n        print('WROTE', path)\n"
        "    except OSError as error:\n        print('refused', path, error.errno)\n"
    )
    done = safe.run(
        ["python3", "-c", code, *map(str, [*targets, home_file])], workdir=ws,
        mounts=[Mount(ws, writable=True)], limits=FAST, env=ENV,
    )  # fmt: skip
    assert done.ok, done.stderr
    assert all(f"refused {target}" in done.stdout for target in targets)
    assert (ws / "inside.txt").read_text() == "made inside"
    assert not any(target.exists() for target in [*targets, home_file])


def test_read_only_mount_cannot_be_written(safe: Sandbox, ws: Path, tmp_path: Path) -> None:
    data = tmp_path / "data"
    data.mkdir()
    (data / "given.txt").write_text("original")
    code = "open(r'%s', 'w').write('changed')" % (data / "given.txt")
    done = py(safe, ws, code, mounts=[Mount(ws, writable=True), Mount(data)])
    assert done.returncode not in (0, None)
    assert "Read-only file system" in done.stderr or "Permission denied" in done.stderr
    assert (data / "given.txt").read_text() == "original"


def test_tmp_and_home_hold_no_more_than_the_memory_limit(bwrap: Sandbox, ws: Path) -> None:
    """A fresh tmpfs's pages are memory RLIMIT_AS does not count: /tmp and the throwaway
    home (the caller's $HOME, emptied) stop at the memory limit (ENOSPC), so a submission
    cannot fill the host's RAM."""
    code = (
        "import errno, os\n"
        f"for folder in ('/tmp', {str(Path.home())!r}):\n"
        "    try:\n"
        "        with open(os.path.join(folder, 'fill'), 'wb') as out:\n"
        "            for _ in range(200): out.write(bytes(2**20))\n"
        "        print(folder, 'wrote 200 MiB')\n"
        "    except OSError as error:\n"
        "        print(folder, errno.errorcode[error.errno])\n"
    )
    done = py(bwrap, ws, code, Limits(wall_s=60.0, memory_mb=128, max_procs=64))
    assert done.ok, done.stderr
    assert [line.split()[-1] for line in done.stdout.splitlines()] == ["ENOSPC", "ENOSPC"]


def test_runs_without_root_privileges(bwrap: Sandbox, ws: Path) -> None:
    code = (
        "import os; caps = [l.split()[1] for l in open('/proc/self/status') "
        "if l.startswith('CapEff')]; print(os.getuid(), os.getgid(), caps[0])"
    )
    done = py(bwrap, ws, code)
    assert done.stdout == "65534 65534 0000000000000000\n"


def test_fork_bomb_stopped_by_process_limit(safe: Sandbox, ws: Path) -> None:
    if not getattr(safe, "process_limit_enforced", True):
        pytest.skip("running as root without a writable pids cgroup: max_procs is not enforced")
    code = (
        "import os, time\nroot = os.getpid()\nwhile True:\n    try:\n        os.fork()\n"
        "    except BlockingIOError:\n        if os.getpid() == root:\n            raise\n"
        "        time.sleep(30)\n"
    )
    done = py(safe, ws, code, Limits(wall_s=10.0, memory_mb=256, max_procs=64))
    assert done.limit == "processes", (done.limit, done.stderr[-500:])
    assert done.wall_s < 10.0
    host = subprocess.run(["true"], check=False)  # the host can still start processes
    assert host.returncode == 0


# --- choosing and building -------------------------------------------------------------


def test_registry_names_and_errors() -> None:
    assert {"bwrap", "docker", "none-unsafe"} <= set(backend_names())
    with pytest.raises(BadInput, match="did you mean 'bwrap'"):
        choose_sandbox("bwarp")
    assert backend("none-unsafe").safe is False
    assert backend("bwrap").safe and backend("docker").safe


def test_auto_prefers_bwrap(bwrap: Sandbox) -> None:
    assert choose_sandbox("auto").name == "bwrap"


def test_workdir_outside_the_mounts_is_bad_input(
    sandbox: Sandbox, ws: Path, tmp_path: Path
) -> None:
    with pytest.raises(BadInput, match="not inside any mount"):
        sandbox.run(["true"], workdir=tmp_path, mounts=[Mount(ws)], limits=FAST, env={})


def test_unsafe_gives_no_isolation(ws: Path, tmp_path: Path) -> None:
    """Documents what none-unsafe does not give: mounts and network are not enforced."""
    outside = tmp_path / "outside.txt"
    code = f"open(r'{outside}', 'w').write('written')"
    done = py(choose_sandbox("none-unsafe"), ws, code, mounts=[Mount(ws)])
    assert done.ok
    assert outside.read_text() == "written"


def test_docker_command_line() -> None:
    argv = docker_argv(
        ["python3", "-c", "print(1)"], workdir=Path("/w/ws"),
        mounts=[Mount(Path("/w/ws/env")), Mount(Path("/w/ws"), writable=True)],
        limits=Limits(wall_s=5.0, memory_mb=256, max_procs=64), env={"A": "1"},
        image="python:3.11-slim", name="slopmark-x", user="1000:1000", docker="docker",
    )  # fmt: skip
    assert argv == [
        "docker", "run", "--rm", "--init", "--name", "slopmark-x", "--user", "1000:1000",
        "--read-only", "--tmpfs", "/tmp", "--cap-drop", "ALL",
        "--security-opt", "no-new-privileges", "--workdir", "/w/ws",
        "--network", "none", "--memory", "256m", "--memory-swap", "256m", "--pids-limit", "64",
        "--mount", "type=bind,source=/w/ws,target=/w/ws",
        "--mount", "type=bind,source=/w/ws/env,target=/w/ws/env,readonly",
        "--env", "A=1", "python:3.11-slim", "python3", "-c", "print(1)",
    ]  # fmt: skip


def test_docker_network_on_and_no_limits() -> None:
    argv = docker_argv(
        ["true"], workdir=Path("/w"), mounts=[Mount(Path("/w"))], env={}, image="img",
        limits=Limits(memory_mb=None, max_procs=None, network=True), name="n", user="0:0",
        interactive=True,
    )  # fmt: skip
    assert "--interactive" in argv
    assert not {"--network", "--memory", "--pids-limit"} & set(argv)


def test_unavailable_docker_says_why() -> None:
    why = unavailable_reason("docker")
    if why is None:
        pytest.skip("a Docker daemon answers here")
    assert why == "docker is not installed" or why.startswith("no Docker daemon answers")
    with pytest.raises(BadInput, match="sandbox 'docker' cannot run here"):
        choose_sandbox("docker")


def test_host_has_no_sandbox_cgroups_left() -> None:
    root = Path("/sys/fs/cgroup/pids")
    if not root.is_dir():
        pytest.skip("no cgroup v1 pids hierarchy here")
    mine = [p for p in root.iterdir() if p.name.startswith(f"slopmark-{os.getpid()}-")]
    assert mine == []


def test_homes_and_credentials_are_hidden(
    bwrap: Sandbox, ws: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A key planted in the caller's home, root's home and the password hashes are not
    readable inside (the sandbox's uid is the caller's outside, so permissions alone
    would not stop it); the harness's own interpreter under a home still runs."""
    home = Path(__file__).with_name(f"home-{uuid.uuid4().hex}")  # outside /tmp and /root
    (home / ".ssh").mkdir(parents=True)
    key = home / ".ssh" / "id_rsa"
    key.write_text("PRIVATE KEY")
    key.chmod(0o600)
    monkeypatch.setenv("HOME", str(home))
    planted = Path("/root") / f".slopmark-planted-{uuid.uuid4().hex}"
    planted.write_text("ROOT SECRET")
    planted.chmod(0o600)
    code = (
        "import sys\nfor path in sys.argv[1:]:\n    try:\n"
        "        print(path, repr(open(path).read()))\n"
        "    except OSError as error:\n        print(path, 'unreadable', error.errno)\n"
    )
    try:
        done = bwrap.run(
            ["python3", "-c", code, str(key), str(planted), "/etc/shadow"], workdir=ws,
            mounts=[Mount(ws, writable=True)], limits=FAST, env=ENV,
        )  # fmt: skip
    finally:
        planted.unlink()
        shutil.rmtree(home)
    assert done.ok, done.stderr
    assert "PRIVATE KEY" not in done.stdout and "ROOT SECRET" not in done.stdout
    assert f"{key} unreadable" in done.stdout and f"{planted} unreadable" in done.stdout
    assert "/etc/shadow unreadable" in done.stdout or "/etc/shadow ''" in done.stdout


def test_a_hidden_mount_shows_an_empty_read_only_folder(
    bwrap: Sandbox, ws: Path, tmp_path: Path
) -> None:
    secret = tmp_path / "problems"
    (secret / "inner").mkdir(parents=True)
    (secret / "tests.py").write_text("expected = 42")
    (secret / "inner" / "kept.txt").write_text("visible")
    code = (
        f"import os\nprint(sorted(os.listdir({str(secret)!r})))\n"
        f"print(open({str(secret / 'inner' / 'kept.txt')!r}).read())\n"
        f"try:\n    open({str(secret / 'new.txt')!r}, 'w')\nexcept OSError as error:\n"
        "    print('refused', error.errno)\n"
    )
    done = bwrap.run(
        ["python3", "-c", code], workdir=ws, limits=FAST, env=ENV,
        mounts=[Mount(ws, writable=True), Mount(secret, hidden=True), Mount(secret / "inner")],
    )  # fmt: skip
    assert done.ok, done.stderr
    assert done.stdout.splitlines() == ["['inner']", "visible", "refused 30"]
