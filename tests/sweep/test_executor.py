"""The executor interface on the local process pool: events, isolation, retries, lookup."""

from __future__ import annotations

import json
import os
import re
import signal
import sqlite3
import sys
import time
from contextlib import closing
from pathlib import Path

import pytest

from slopmark.errors import BadInput
from slopmark.executor import (
    MAX_ATTEMPTS,
    Finished,
    Message,
    Resources,
    Started,
    Unit,
    executor_names,
    open_executor,
)
from slopmark.sweep.drive import run_sweep

from . import units
from .conftest import cli, cli_started, make_repos


def test_units_report_start_messages_and_end_each_once() -> None:
    executor = open_executor("local", jobs=2)
    work = [Unit.call(f"u{i}", units.square, i) for i in range(5)]
    work += [Unit.call("refused", units.refuse, 7), Unit.call("bug", units.crash, 3)]
    events = list(executor.run(work))
    finished = {e.key: e for e in events if isinstance(e, Finished)}
    assert len([e for e in events if isinstance(e, Finished)]) == len(work)
    assert {k: f.value for k, f in finished.items() if f.ok} == {f"u{i}": i * i for i in range(5)}
    assert finished["refused"].error == "value 7 is refused"  # a slopmark error: its message
    bug = finished["bug"].error or ""
    assert bug.startswith("IndexError: list index out of range (at units.py:") and "crash" in bug
    assert {e.payload for e in events if isinstance(e, Message)} == {("seen", i) for i in range(5)}
    started = [e for e in events if isinstance(e, Started)]
    assert len(started) == len(work) and all(e.node and e.attempt == 1 for e in started)
    assert all(f.node == started[0].node for f in finished.values())


def test_a_dead_worker_is_replaced_and_its_unit_started_again(tmp_path: Path) -> None:
    executor = open_executor("local", jobs=2)
    work = [Unit.call("phoenix", units.die_once, str(tmp_path / "marker"))]
    work += [Unit.call(f"u{i}", units.square, i) for i in range(3)]
    tally = run_sweep(executor, work)
    phoenix = tally.finished["phoenix"]
    assert phoenix.ok and phoenix.value == "second life" and phoenix.attempts == 2
    assert all(tally.finished[f"u{i}"].ok for i in range(3))
    assert tally.retried >= 1 and not tally.cancelled


def test_a_unit_that_always_kills_its_worker_fails_after_its_last_attempt() -> None:
    tally = run_sweep(open_executor("local", jobs=1), [Unit.call("doomed", units.die_always, 3)])
    doomed = tally.finished["doomed"]
    assert not doomed.ok and doomed.attempts == MAX_ATTEMPTS
    assert doomed.error == f"its worker process died ({MAX_ATTEMPTS} attempts)"


def test_executors_are_found_by_name() -> None:
    assert {"local", "ray"} <= set(executor_names())
    with pytest.raises(BadInput, match="--executor 'rya': unknown executor; did you mean 'ray'"):
        open_executor("rya")
    with pytest.raises(BadInput, match="only the ray executor joins a cluster"):
        open_executor("local", address="auto")


def test_resources_are_checked() -> None:
    with pytest.raises(ValueError, match="CPUs must be >= 0"):
        Resources(cpus=-1)
    assert Resources(cpus=0.25, memory_mb=512, sandbox=True).sandbox


@pytest.mark.slow
def test_ray_without_the_extra_is_one_line_with_the_install_command(tmp_path: Path) -> None:
    listing = tmp_path / "REPOS.txt"
    listing.write_text("somewhere\n")
    script = (
        "import sys; sys.modules['ray'] = None\n"  # as if Ray were not installed
        "from slopmark.cli.main import main\n"
        f"sys.argv = ['slopmark', 'code', 'study', {str(listing)!r}, '--executor', 'ray',"
        f" '--db', 'sqlite:///{tmp_path / 's.db'}', '--out', {str(tmp_path / 'o')!r}]\n"
        "main()\n"
    )
    import subprocess

    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True,
                          timeout=120)  # fmt: skip
    assert done.returncode == 2
    assert done.stderr == (
        "slopmark: error: executor 'ray' needs: pip install 'slopmark[ray]'\n"
    )


def stored_repos(db: Path) -> int:
    try:
        with closing(sqlite3.connect(db)) as connection:
            return int(connection.execute("SELECT COUNT(*) FROM study_repos").fetchone()[0])
    except sqlite3.OperationalError:
        return 0


@pytest.mark.slow
def test_ctrl_c_cancels_cleanly_and_keeps_finished_units(tmp_path: Path) -> None:
    repos = make_repos(tmp_path / "repos", 5, 20)
    db = tmp_path / "s.db"
    argv = ["code", "study", str(repos), "--db", f"sqlite:///{db}", "--out",
            str(tmp_path / "o"), "--jobs", "1", "--json"]  # fmt: skip
    running = cli_started(*argv)
    deadline = time.monotonic() + 300
    while stored_repos(db) < 1 and time.monotonic() < deadline and running.poll() is None:
        time.sleep(0.1)
    os.killpg(running.pid, signal.SIGINT)  # what a terminal's Ctrl-C sends
    out, err = running.communicate(timeout=120)
    kept = stored_repos(db)
    assert running.returncode == 130, err
    assert "Traceback" not in err
    assert re.search(
        r"^slopmark: cancelled: \d of 5 repositories finished and are kept; "
        r"run the same command again to resume$", err, re.M
    ), err
    summary = json.loads(out)
    assert summary["sweep"]["cancelled"] is True and 1 <= kept < 5
    again = cli(*argv)
    assert again.returncode == 0, again.stderr
    assert json.loads(again.stdout)["sweep"]["skipped"] == kept


def test_a_units_resources_become_its_ray_request() -> None:
    from slopmark.executors.ray import _fits, _options

    wanted = Resources(cpus=0.5, memory_mb=512, sandbox=True)
    assert _options(wanted) == {
        "num_cpus": 0.5, "max_retries": 0, "memory": 512 * 2**20, "resources": {"sandbox": 1},
    }  # fmt: skip
    bench_node = {"Alive": True, "Resources": {"CPU": 1.0, "memory": 2.0**30, "sandbox": 1.0}}
    plain_node = {"Alive": True, "Resources": {"CPU": 8.0, "memory": 2.0**34}}
    assert _fits(wanted, bench_node) and not _fits(wanted, plain_node)
    assert not _fits(wanted, {**bench_node, "Alive": False})
    assert _fits(Resources(cpus=4), plain_node) and not _fits(Resources(cpus=4), bench_node)


def test_the_live_view_counts_units_per_node() -> None:
    from rich.console import Console

    from slopmark.cli.sweep_view import render
    from slopmark.sweep.drive import Tally

    tally = Tally("ray", 4)
    tally.start(Started("a", "10.0.0.1 n1"))
    tally.start(Started("b", "10.0.0.2 n2"))
    tally.end(Finished("a", True, node="10.0.0.1 n1"))
    tally.start(Started("c", "10.0.0.1 n1", attempt=2))
    console = Console(record=True, width=120)
    console.print(render(tally, "study"))
    text = console.export_text()
    assert "study on ray: 1 queued · 2 running · 1 done · 0 failed" in text
    rows = {line.split()[1]: line.split()[2:] for line in text.splitlines() if "10.0.0." in line}
    assert rows == {"n1": ["1", "1", "0"], "n2": ["1", "0", "0"]}
    assert tally.retried == 1 and tally.eta_s() is not None
