"""``--executor ray`` gives what ``--executor local`` gives: the same stored results and the
same ``--json`` reports (timings aside), for the four instruments; bad addresses and a
cluster without a sandbox are one clear line.

Each ``--executor ray`` here starts a one-node Ray (the two-node cluster is in
test_ray_cluster.py).
"""

from __future__ import annotations

import json
import shutil
import socket
import sqlite3
import tempfile
import threading
from collections.abc import Iterator
from contextlib import closing
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

import pytest

from corpus import CORPUS
from fakes.openai_server import FakeOpenAIServer

from .conftest import ROOT, cli, without_timings
from .raycluster import env_without
from .test_suite import suite_file, two_models

# slow: starts local Ray clusters and the CLI; two runs of a bench chain take minutes
pytestmark = [pytest.mark.slow, pytest.mark.timeout(1200)]

pytest.importorskip("ray", reason="Ray is not installed: pip install 'slopmark[ray]'")

#: Ray started by a command keeps its session files here (removed after the module), and
#: with token authentication off explicitly it writes no ~/.ray/auth_token.
_RAY_TMP = tempfile.mkdtemp(prefix="smr-")  # short: Ray puts socket paths under it
LOCAL_RAY = {"RAY_AUTH_MODE": "disabled", "RAY_TMPDIR": _RAY_TMP}
PAPERS = CORPUS
BENCH_DATA = ROOT / "tests" / "code" / "bench" / "data"


@pytest.fixture(scope="module", autouse=True)
def _ray_sessions() -> Iterator[None]:
    yield
    shutil.rmtree(_RAY_TMP, ignore_errors=True)


def both(*args: str, out: Path, env: dict[str, str] | None = None) -> dict[str, Any]:
    """Run ``args`` with each executor (``{executor}`` in an argument is replaced)."""
    found = {}
    for executor in ("local", "ray"):
        argv = [a.replace("{executor}", executor).replace("{out}", str(out)) for a in args]
        done = cli(*argv, "--executor", executor, env={**LOCAL_RAY, **(env or {})})
        assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-3000:]
        found[executor] = done
    return found


def table(db: Path, query: str) -> list[tuple[Any, ...]]:
    with closing(sqlite3.connect(db)) as connection:
        return connection.execute(query).fetchall()


def test_a_study_is_the_same_on_ray(six_repos: Path, tmp_path: Path) -> None:
    both("code", "study", str(six_repos), "--db", "sqlite:///{out}/{executor}.db",
         "--out", "{out}/{executor}", "--json", out=tmp_path)  # fmt: skip
    reports = {}
    for executor in ("local", "ray"):
        done = cli("code", "study", "report", str(tmp_path / executor), "--json")
        assert done.returncode == 0, done.stderr
        reports[executor] = done.stdout
    assert reports["ray"] == reports["local"]  # byte-identical
    query = "SELECT repo, position, sha, sloc, erosion, verbosity FROM study_commits ORDER BY 1, 2"
    stored = {e: table(tmp_path / f"{e}.db", query) for e in ("local", "ray")}
    assert stored["ray"] == stored["local"] and len(stored["local"]) == sum(range(8, 14))


@pytest.mark.skipif(not PAPERS.is_dir(), reason="needs ../shared/corpora/papers")
def test_papers_are_the_same_on_ray(tmp_path: Path) -> None:
    papers = sorted(str(p) for p in PAPERS.iterdir() if p.is_dir())
    runs = both("paper", "measure", *papers, "--json", out=tmp_path)
    assert runs["ray"].stdout == runs["local"].stdout  # byte-identical
    assert len(json.loads(runs["local"].stdout)["papers"]) == len(papers) >= 5


def test_eval_slices_are_the_same_on_ray(openai_server: FakeOpenAIServer, tmp_path: Path) -> None:
    path = suite_file(tmp_path, two_models(openai_server))
    runs = both("eval", "suite", str(path), "--db", "sqlite:///{out}/{executor}.db", "--json",
                out=tmp_path)  # fmt: skip
    reports = {e: without_timings(json.loads(d.stdout)) for e, d in runs.items()}
    assert reports["ray"] == reports["local"]
    query = ("SELECT model, task_id, domain, status, passed, score, output, details FROM runs "
             "ORDER BY model, task_id")  # fmt: skip
    stored = {e: table(tmp_path / f"{e}.db", query) for e in ("local", "ray")}
    assert stored["ray"] == stored["local"] and len(stored["local"]) == 12


@pytest.mark.skipif(shutil.which("bwrap") is None, reason="needs bubblewrap")
def test_bench_chains_are_the_same_on_ray(tmp_path: Path) -> None:
    # Two shipped problems, replayed two at a time: every problem's chain is tested
    # locally (tests/code/bench/test_problems.py); here, that Ray gives the same two.
    problems = tmp_path / "problems"
    for name in ("kvstore", "jobgraph"):
        shutil.copytree(ROOT / "src" / "slopmark" / "problems" / name, problems / name)
    both("code", "bench", "run", "--problems", str(problems), "--agent", "replay",
         "--sandbox", "bwrap", "--out", "{out}/{executor}", "--db", "sqlite:///{out}/{executor}.db",
         "--jobs", "2", out=tmp_path)  # fmt: skip
    reports, layouts = {}, {}
    for executor in ("local", "ray"):
        folder = tmp_path / executor
        done = cli("code", "bench", "report", str(folder), "--json")
        assert done.returncode == 0, done.stderr
        reports[executor] = without_timings(json.loads(done.stdout))
        layouts[executor] = sorted(
            str(p.relative_to(folder)) for p in folder.rglob("*") if "envs" not in p.parts
        )
    assert reports["ray"] == reports["local"]
    checkpoints = len(list(problems.glob("*/checkpoint_*.md")))
    assert len(reports["local"]["checkpoints"]) == checkpoints == 9
    assert layouts["ray"] == layouts["local"]  # the same run folder, file for file
    query = "SELECT task_id, model, status, passed, score FROM runs ORDER BY task_id"
    stored = {e: table(tmp_path / f"{e}.db", query) for e in ("local", "ray")}
    assert stored["ray"] == stored["local"] and len(stored["local"]) == checkpoints


@pytest.fixture
def http_port() -> Iterator[int]:
    """A port answering plain HTTP/1.1 (not a Ray cluster)."""

    class Answer(BaseHTTPRequestHandler):
        def do_GET(self) -> None:  # noqa: N802 - the http.server name
            self.send_response(200)
            self.end_headers()

        def log_message(self, format: str, *args: Any) -> None:  # noqa: A002
            del format, args

    server = ThreadingHTTPServer(("127.0.0.1", 0), Answer)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield server.server_address[1]
    server.shutdown()
    server.server_close()


def closed_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])  # closed again when the probe is


def test_a_bad_address_is_one_line(six_repos: Path, http_port: int, tmp_path: Path) -> None:
    cases = {
        f"127.0.0.1:{closed_port()}": "no Ray cluster answers at 127.0.0.1:",
        f"127.0.0.1:{http_port}": "answers, but not as a Ray cluster",
        "nonsense": "expected auto, HOST:PORT or ray://HOST:PORT",
    }
    for address, message in cases.items():
        done = cli("code", "study", str(six_repos), "--executor", "ray", "--address", address,
                   "--db", f"sqlite:///{tmp_path / 's.db'}", "--out", str(tmp_path / "o"),
                   timeout=120)  # fmt: skip
        assert done.returncode == 2, done.stderr
        assert done.stderr.count("\n") == 1 and message in done.stderr, done.stderr


def test_a_cluster_without_a_sandbox_refuses_bench_chains(tmp_path: Path) -> None:
    env = {**env_without("bwrap", tmp_path / "bin"), **LOCAL_RAY}
    done = cli("code", "bench", "run", "--problems", str(BENCH_DATA), "--agent", "replay",
               "--out", str(tmp_path / "run"), "--db", f"sqlite:///{tmp_path / 's.db'}",
               "--executor", "ray", env=env)  # fmt: skip
    assert done.returncode == 2, done.stdout + done.stderr
    assert "slopmark: error: unit 'wordcount (just-solve)' needs 1 CPU and the 'sandbox'" in (
        done.stderr
    )
    assert "Traceback" not in done.stderr and done.stderr.count("slopmark: error") == 1
    local = cli("code", "bench", "run", "--problems", str(BENCH_DATA), "--agent", "replay",
                "--out", str(tmp_path / "run2"), "--db", f"sqlite:///{tmp_path / 's.db'}",
                env=env)  # fmt: skip
    assert local.returncode == 2 and "no sandbox is available" in local.stderr
    assert local.stderr.count("\n") == 1
