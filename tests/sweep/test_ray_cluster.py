"""A real two-node Ray cluster on 127.0.0.1: units land on both nodes, a SQLite store is
refused, and nodes die under running units (a study, a bench chain) without losing or
doubling anything. The store is PostgreSQL, as it must be across nodes.

The tests share one cluster and run in order: some kill a node and start another.
"""

from __future__ import annotations

import json
import os
import shutil
import signal
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from slopmark.store import open_store

from .conftest import PG_URL, ROOT, cli, cli_started, make_repos, runs_in, without_timings
from .raycluster import Node, RayCluster, env_without

pytest.importorskip("ray", reason="Ray is not installed: pip install 'slopmark[ray]'")
pytestmark = [
    pytest.mark.skipif(
        not PG_URL, reason="no PostgreSQL: set SLOPMARK_TEST_PG_URL (.ci/run starts one)"
    ),
    pytest.mark.slow,  # starts Ray nodes and the CLI; needs PostgreSQL
    pytest.mark.timeout(1500),  # the nodes' start (up to 240 s) and a study or chain (900 s)
]

SANDBOX = {"sandbox": 1.0}
BENCH_DATA = ROOT / "tests" / "code" / "bench" / "data"


@pytest.fixture(scope="module")
def cluster() -> Iterator[RayCluster]:
    """A head (no sandbox) and a second node (one CPU, the sandbox resource)."""
    found = RayCluster()
    try:
        found.start_head()
        found.add_node("second", SANDBOX, {"TMPDIR": str(_tmp(found, "s1"))})
        yield found
    finally:
        found.stop()


def _tmp(cluster: RayCluster, name: str) -> Path:
    """A node's own TMPDIR (kept short: Ray puts socket paths under it)."""
    folder = cluster.root / name[:2]
    folder.mkdir(exist_ok=True)
    return folder


def on(cluster: RayCluster, *args: str, timeout: float = 900) -> dict[str, object]:
    done = cli(*args, "--executor", "ray", "--address", cluster.address, env=cluster.env,
               timeout=timeout)  # fmt: skip
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-3000:]
    return json.loads(done.stdout) if done.stdout.startswith("{") else {}


def test_units_land_on_both_nodes_and_the_report_equals_local(
    cluster: RayCluster, six_repos: Path, pg_url: str, tmp_path: Path
) -> None:
    summary = on(cluster, "code", "study", str(six_repos), "--db", pg_url,
                 "--out", str(tmp_path / "ray"), "--json")  # fmt: skip
    nodes = summary["sweep"]["nodes"]  # type: ignore[index]
    assert len(nodes) == 2 and all(count["done"] >= 1 for count in nodes.values()), nodes
    local = cli("code", "study", str(six_repos), "--db", f"sqlite:///{tmp_path / 'l.db'}",
                "--out", str(tmp_path / "local"))  # fmt: skip
    assert local.returncode == 0, local.stderr
    stores = (("ray", pg_url), ("local", f"sqlite:///{tmp_path / 'l.db'}"))
    reports = [cli("code", "study", "report", str(tmp_path / d), "--json", "--db", db)
               for d, db in stores]  # fmt: skip
    assert reports[0].returncode == 0, reports[0].stderr
    assert reports[0].stdout == reports[1].stdout


def test_a_sqlite_store_is_refused_across_nodes(
    cluster: RayCluster, six_repos: Path, tmp_path: Path
) -> None:
    db = f"sqlite:///{tmp_path / 's.db'}"
    done = cli("code", "study", str(six_repos), "--executor", "ray", "--address",
               cluster.address, "--db", db, env=cluster.env)  # fmt: skip
    assert done.returncode == 2
    assert done.stderr.count("\n") == 1
    assert "a SQLite file cannot be shared by the 2 nodes of the Ray cluster" in done.stderr


def stored_repos(url: str) -> list[str]:
    return [repo for repo, _, _ in stored_rows(url)]


def stored_rows(url: str) -> list[tuple[str, int, object]]:
    """Each stored repository with its row id and when it was written."""
    from sqlalchemy import text

    engine = open_store(url)
    try:
        with engine.connect() as connection:
            query = text("SELECT repo, id, created_at FROM study_repos ORDER BY id")
            return [tuple(row) for row in connection.execute(query)]  # type: ignore[misc]
    finally:
        engine.dispose()


def test_a_node_dies_under_a_study(cluster: RayCluster, pg_url: str, tmp_path: Path) -> None:
    listing = make_repos(tmp_path / "repos", 6, 30)
    urls = [f"file://{tmp_path / 'repos' / f'repo{i}'}" for i in range(6)]  # cloned in TMPDIR
    listing.write_text("".join(f"{url}\n" for url in urls))
    argv = ["code", "study", str(listing), "--db", pg_url, "--out", str(tmp_path / "o"),
            "--json", "--executor", "ray", "--address", cluster.address]  # fmt: skip
    running = cli_started(*argv, env=cluster.env)
    second = next(node for node in cluster.nodes if node.name == "second")
    scratch = Path(second.env["TMPDIR"])
    deadline = time.monotonic() + 600
    while not any(scratch.glob("slopmark-study-*")) and time.monotonic() < deadline:
        assert running.poll() is None, running.communicate()[1][-3000:]
        time.sleep(0.05)
    replace_node(cluster, second, "second", "s2")  # the unit it is running dies with it
    out, err = running.communicate(timeout=900)
    assert running.returncode == 0, err[-3000:]
    sweep = json.loads(out)["sweep"]
    assert sweep["done"] == 6 and sweep["failed"] == 0, sweep
    assert sweep["retried"] >= 1, sweep
    stored = stored_repos(pg_url)
    assert sorted(stored) == sorted(set(stored)) and sorted(stored) == sorted(urls)  # each once
    assert_report_is_local(listing, tmp_path / "o", pg_url)


def assert_report_is_local(listing: Path, folder: Path, url: str) -> None:
    """The study of ``folder`` (stored at ``url``) reports what a local run reports."""
    local_db = f"sqlite:///{folder.parent / 'local.db'}"
    local = cli("code", "study", str(listing), "--db", local_db, "--out", str(folder) + "-local")
    assert local.returncode == 0, local.stderr
    reports = [cli("code", "study", "report", d, "--json", "--db", db).stdout
               for d, db in ((str(folder), url), (str(folder) + "-local", local_db))]  # fmt: skip
    assert reports[0] == reports[1] and reports[0].startswith("{")


def replace_node(cluster: RayCluster, node: Node, name: str, tmp: str) -> None:
    """Kill ``node`` (its raylet and its workers at once) and start a fresh sandbox node."""
    cluster.kill(node)
    cluster.nodes.remove(node)
    cluster.add_node(name, SANDBOX, {"TMPDIR": str(_tmp(cluster, tmp))})


def test_a_killed_driver_resumes_without_loss_or_duplicates(
    cluster: RayCluster, pg_url: str, tmp_path: Path
) -> None:
    listing = make_repos(tmp_path / "repos", 6, 24)
    argv = ["code", "study", str(listing), "--db", pg_url, "--out", str(tmp_path / "o"),
            "--json", "--executor", "ray", "--address", cluster.address]  # fmt: skip
    first = cli_started(*argv, env=cluster.env)
    deadline = time.monotonic() + 600
    while len(stored_repos(pg_url)) < 2 and time.monotonic() < deadline:
        assert first.poll() is None, first.communicate()[1][-3000:]
        time.sleep(0.2)
    os.killpg(first.pid, signal.SIGKILL)  # the driver only: its Ray tasks die with it
    first.communicate()
    before = stored_rows(pg_url)
    assert 2 <= len(before) < 6, "the study finished before its driver could be killed"
    again = cli(*argv, env=cluster.env, timeout=900)
    assert again.returncode == 0, again.stderr[-3000:]
    sweep = json.loads(again.stdout)["sweep"]
    assert sweep["skipped"] == len(before) and sweep["units"] == 6 - len(before), sweep
    after = stored_rows(pg_url)
    assert len({repo for repo, _, _ in after}) == len(after) == 6  # each repository once
    assert set(before) <= set(after)  # the same rows: finished repositories not measured again
    assert_report_is_local(listing, tmp_path / "o", pg_url)


AGENT = """\
import re, shutil, sys, time
from pathlib import Path
prompt, workspace, folder = sys.argv[1:4]
solutions, gate = SOLUTIONS, Path(folder) / "gate"
number = re.search(r"checkpoint (\\d)", Path(prompt).read_text()).group(1)
history = Path(workspace) / "history.log"
before = history.read_text() if history.exists() else ""
if number == "2" and not gate.exists():
    time.sleep(600)
for item in Path(workspace).iterdir():
    shutil.rmtree(item) if item.is_dir() else item.unlink()
shutil.copytree(Path(solutions) / f"checkpoint_{number}", workspace, dirs_exist_ok=True)
history.write_text(before + f"{number} {'after' if gate.exists() else 'before'}-gate\\n")
"""


def _agent(folder: Path) -> tuple[str, Path]:
    """A command agent copying the reference solutions; at checkpoint 2 it waits for the
    gate. It keeps a history in the workspace: each checkpoint, and whether the gate was
    open when it ran. The command line names ``folder`` (so the sandbox mounts it and
    the gate shows inside) and stays short: it names the agent in the store. The
    solutions are copied into ``folder``: the sandbox hides the checkout when it lies
    under /tmp (a fresh tmpfs there), as a CI clone may."""
    folder.mkdir(parents=True, exist_ok=True)
    script = folder / "agent.py"
    solutions = shutil.copytree(BENCH_DATA / "wordcount" / "solutions", folder / "solutions")
    script.write_text(f"SOLUTIONS = {str(solutions)!r}\n" + AGENT)
    return f"{sys.executable} {script} {{prompt_file}} {{workspace}} {folder}", folder / "gate"


def _waiting_at_checkpoint_2(tmp: Path) -> bool:
    return any(tmp.glob("slopmark-chain-*/run/wordcount/checkpoint_2/agent/prompt.md"))


@pytest.mark.skipif(shutil.which("bwrap") is None, reason="needs bubblewrap")
def test_a_node_dies_under_a_bench_chain_which_resumes_after_its_last_checkpoint(
    cluster: RayCluster, pg_url: str, tmp_path: Path
) -> None:
    agent, gate = _agent(cluster.root / "agent")
    run_dir = tmp_path / "ray"
    argv = ["code", "bench", "run", "--problems", str(BENCH_DATA), "--agent", agent,
            "--sandbox", "bwrap", "--out", str(run_dir), "--db", pg_url,
            "--executor", "ray", "--address", cluster.address]  # fmt: skip
    running = cli_started(*argv, env=cluster.env)
    second = next(node for node in cluster.nodes if node.name == "second")
    tmp = Path(second.env["TMPDIR"])  # where the sandbox node's chains work
    first = run_dir / "wordcount" / "checkpoint_1" / "result.json"
    deadline = time.monotonic() + 600
    while not (_waiting_at_checkpoint_2(tmp) and first.exists()) and time.monotonic() < deadline:
        assert running.poll() is None, running.communicate()[1][-3000:]
        time.sleep(0.2)
    first_result = first.read_text()
    replace_node(cluster, second, "third", "t3")
    gate.write_text("go")
    _, err = running.communicate(timeout=900)
    assert running.returncode == 0, err[-3000:]
    assert (run_dir / "wordcount" / "checkpoint_1" / "result.json").read_text() == first_result
    history = (run_dir / "wordcount" / "checkpoint_3" / "workspace" / "history.log").read_text()
    assert history == "1 before-gate\n2 after-gate\n3 after-gate\n"  # checkpoint 1 ran once
    stored = runs_in(pg_url, domain="code_iterative")
    assert sorted(r.task_id for r in stored) == [f"wordcount.v1/checkpoint_{n}" for n in (1, 2, 3)]
    local_agent, local_gate = _agent(tmp_path / "local-agent")
    local_gate.write_text("go")
    local = cli("code", "bench", "run", "--problems", str(BENCH_DATA), "--agent", local_agent,
                "--sandbox", "bwrap", "--out", str(tmp_path / "local-run"),
                "--db", f"sqlite:///{tmp_path / 'l.db'}")  # fmt: skip
    assert local.returncode == 0, local.stderr
    reports = [json.loads(cli("code", "bench", "report", str(d), "--json").stdout)
               for d in (run_dir, tmp_path / "local-run")]  # fmt: skip
    for report in reports:
        report["run"].pop("agent")  # the agent's command line names its own folder
    assert without_timings(reports[0]) == without_timings(reports[1])


@pytest.mark.skipif(shutil.which("bwrap") is None, reason="needs bubblewrap")
def test_a_node_without_bubblewrap_fails_its_bench_chain_with_the_reason(
    cluster: RayCluster, pg_url: str, tmp_path: Path
) -> None:
    for node in [n for n in cluster.nodes if n.name != "head"]:
        cluster.kill(node)
        cluster.nodes.remove(node)
    cluster.add_node("no-bwrap", SANDBOX, env_without("bwrap", tmp_path / "bin"))
    done = cli("code", "bench", "run", "--problems", str(BENCH_DATA), "--agent", "replay",
               "--sandbox", "bwrap", "--out", str(tmp_path / "run"), "--db", pg_url,
               "--executor", "ray", "--address", cluster.address, env=cluster.env)  # fmt: skip
    assert done.returncode == 1, done.stdout + done.stderr
    assert "Traceback" not in done.stderr
    assert "slopmark: failed: run/wordcount (node " in done.stderr
    assert "sandbox 'bwrap' cannot run here" in done.stderr
    assert not list((tmp_path / "run").glob("wordcount/checkpoint_*/result.json"))
