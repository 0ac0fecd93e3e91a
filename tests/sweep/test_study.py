"""``slopmark code study`` on the local executor: REPOS files, measuring, storing, resuming,
failures kept per repository, and the report's numbers."""

from __future__ import annotations

import json
import os
import signal
import socket
import sqlite3
import subprocess
import threading
import time
from collections.abc import Iterator
from contextlib import closing
from pathlib import Path

import pytest

from slopmark.code.study.records import CommitPoint, RepoRecord
from slopmark.code.study.repos import read_repos
from slopmark.code.study.stored import store_repo, study_records
from slopmark.code.study.summary import quantile, summarise_study
from slopmark.errors import BadInput
from slopmark.store import open_store

from .conftest import cli, cli_started, make_repo

pytestmark = pytest.mark.slow  # starts python


def test_a_repos_file_names_paths_and_urls(tmp_path: Path) -> None:
    listing = tmp_path / "REPOS.txt"
    listing.write_text(
        "# a comment\n\nrepo-a\n./sub/repo-b   # trailing comment\n"
        "https://example.invalid/x.git\ngit@example.invalid:team/y.git\nfile:///srv/z.git\n"
    )
    entries = read_repos(listing)
    assert [(e.line, e.is_url) for e in entries] == [
        (3, False), (4, False), (5, True), (6, True), (7, True),
    ]  # fmt: skip
    assert entries[0].repo == str(tmp_path / "repo-a")
    assert entries[1].repo == str(tmp_path / "sub" / "repo-b")


@pytest.mark.parametrize(
    ("line", "message"),
    [
        ("two words", "holds spaces"),
        ("--upload-pack=touch", "starts with '-'"),
        ("ftp://example.invalid/r.git", "URL scheme 'ftp' is not one of"),
        ("ext::ssh-helper", "remote helpers"),
        ("repo-a", "repeats line 1"),
    ],
)
def test_a_malformed_line_names_file_and_line(tmp_path: Path, line: str, message: str) -> None:
    listing = tmp_path / "REPOS.txt"
    listing.write_text(f"repo-a\n{line}\n")
    with pytest.raises(BadInput, match=rf"REPOS.txt:2: .*{message}"):
        read_repos(listing)


def test_the_cli_refuses_a_malformed_repos_file_in_one_line(tmp_path: Path) -> None:
    listing = tmp_path / "REPOS.txt"
    listing.write_text("good\nbad line\n")
    done = cli("code", "study", str(listing), "--db", f"sqlite:///{tmp_path / 's.db'}")
    assert done.returncode == 2
    assert done.stderr.count("\n") == 1 and "REPOS.txt:2: 'bad line' holds spaces" in done.stderr
    assert not (tmp_path / "s.db").exists()  # nothing started


def study_json(repos: Path, db: str, out: Path, *extra: str) -> dict[str, object]:
    done = cli("code", "study", str(repos), "--db", db, "--out", str(out), "--json", *extra)
    assert done.returncode in (0, 1), done.stderr
    return json.loads(done.stdout)  # type: ignore[no-any-return]


def report_text(target: Path, *extra: str) -> str:
    done = cli("code", "study", "report", str(target), "--json", *extra)
    assert done.returncode == 0, done.stderr
    return done.stdout


def test_a_study_matches_code_history_per_repository(six_repos: Path, tmp_path: Path) -> None:
    db, out = f"sqlite:///{tmp_path / 's.db'}", tmp_path / "study"
    summary = study_json(six_repos, db, out, "--jobs", "2")
    assert summary["repos"] == {"total": 6, "stored": 6, "failed": 0}
    report = json.loads(report_text(out))
    repo = report["repositories"][2]
    history = cli("code", "history", repo["repo"], "--json")
    assert history.returncode == 0, history.stderr
    expected = json.loads(history.stdout)
    assert [c["sha"] for c in repo["commits"]] == [c["sha"] for c in expected["commits"]]
    for mine, theirs in zip(repo["commits"], expected["commits"], strict=True):
        for key in ("files", "sloc", "callables", "complex_callables", "erosion", "verbosity"):
            assert mine[key] == theirs[key], key
    assert repo["erosion_slope"] == expected["erosion_slope"]
    assert repo["candidates"] == 10 and len(repo["commits"]) == 10  # all 10 (< the 30 sampled)
    assert any(c["complex_callables"] > 0 for c in repo["commits"])
    verbosity = report["metrics"]["verbosity"]
    assert verbosity["rose"]["n"] == 6 and verbosity["slope"]["n"] == 6
    assert [p["position"] for p in verbosity["trajectory"]] == [i / 10 for i in range(11)]
    assert all(p["q1"] <= p["median"] <= p["q3"] for p in verbosity["trajectory"])


def test_the_report_draws_the_trajectory_band(six_repos: Path, tmp_path: Path) -> None:
    db, out = f"sqlite:///{tmp_path / 's.db'}", tmp_path / "study"
    summary = study_json(six_repos, db, out, "--commits", "6")
    study_id = summary["study"]
    svg = tmp_path / "band.svg"
    done = cli("code", "study", "report", str(study_id), "--db", db, "--plot", str(svg))
    assert done.returncode == 0, done.stderr
    text = svg.read_text()
    assert 'id="median-0"' in text and 'id="band-1"' in text and "verbosity" in text
    again = cli("code", "study", "report", str(out), "--plot", str(tmp_path / "band.png"))
    assert again.returncode == 0, again.stderr
    assert (tmp_path / "band.png").read_bytes().startswith(b"\x89PNG")
    assert "rose first→last in" in again.stdout
    as_json = cli("code", "study", "report", str(out), "--json", "--plot", str(tmp_path / "j.svg"))
    assert as_json.returncode == 0, as_json.stderr
    assert json.loads(as_json.stdout)["repositories"]  # the JSON alone on stdout
    assert "wrote " in as_json.stderr


def test_failures_are_kept_per_repository_and_clones_work(tmp_path: Path) -> None:
    make_repo(tmp_path / "real", 6, 1)
    bare = tmp_path / "copy.git"  # a second repository: the same one twice is refused
    subprocess.run(["git", "clone", "-q", "--bare", str(tmp_path / "real"), str(bare)],
                   check=True)  # fmt: skip
    listing = tmp_path / "REPOS.txt"
    listing.write_text(f"real\nmissing\nfile://{bare}\n")
    db = f"sqlite:///{tmp_path / 's.db'}"
    summary = study_json(listing, db, tmp_path / "out")
    assert summary["repos"] == {"total": 3, "stored": 2, "failed": 1}
    engine = open_store(db)
    records = {r.repo: r for r in study_records(engine, str(summary["study"]))}
    engine.dispose()
    missing = records[str(tmp_path / "missing")]
    assert missing.status == "failed" and "no such repository path" in (missing.error or "")
    cloned = records[f"file://{bare}"]
    local = records[str(tmp_path / "real")]
    assert cloned.status == local.status == "ok"
    assert cloned.commits == local.commits and cloned.head == local.head


@pytest.fixture
def silent_git_server() -> Iterator[int]:
    """A TCP port that accepts git:// connections and never answers."""
    server = socket.socket()
    server.bind(("127.0.0.1", 0))
    server.listen()
    held: list[socket.socket] = []
    stop = threading.Event()

    def accept() -> None:
        server.settimeout(0.2)
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


def test_a_repository_that_hangs_times_out(silent_git_server: int, tmp_path: Path) -> None:
    listing = tmp_path / "REPOS.txt"
    listing.write_text(f"git://127.0.0.1:{silent_git_server}/stuck.git\n")
    started = time.monotonic()
    db = f"sqlite:///{tmp_path / 's.db'}"
    summary = study_json(listing, db, tmp_path / "o", "--timeout", "3s")
    assert time.monotonic() - started < 120
    failures = summary["sweep"]["failures"]  # type: ignore[index]
    assert summary["repos"]["failed"] == 1 and failures == []  # type: ignore[index]
    report = json.loads(report_text(tmp_path / "o"))
    assert "timed out after 3 s" in report["repositories"][0]["error"]


def stored(db: Path) -> list[tuple[str, int]]:
    if not db.exists():
        return []
    try:
        with closing(sqlite3.connect(db)) as connection:
            query = "SELECT repo, COUNT(*) FROM study_commits GROUP BY repo ORDER BY repo"
            return connection.execute(query).fetchall()
    except sqlite3.OperationalError:
        return []


def test_a_killed_study_resumes_without_loss_or_duplicates(tmp_path: Path) -> None:
    from .conftest import make_repos

    repos = make_repos(tmp_path / "repos", 6, 24)
    db_file, out = tmp_path / "s.db", tmp_path / "study"
    argv = ["code", "study", str(repos), "--db", f"sqlite:///{db_file}", "--out", str(out),
            "--jobs", "1", "--json"]  # fmt: skip
    first = cli_started(*argv)
    deadline = time.monotonic() + 300
    while len(stored(db_file)) < 2 and time.monotonic() < deadline and first.poll() is None:
        time.sleep(0.1)
    os.killpg(first.pid, signal.SIGKILL)
    first.communicate()
    before = stored(db_file)
    assert 2 <= len(before) < 6, "the study finished before it could be killed"
    second = cli(*argv)
    assert second.returncode == 0, second.stderr
    sweep = json.loads(second.stdout)["sweep"]
    assert sweep["skipped"] == len(before) and sweep["units"] == 6 - len(before)
    after = stored(db_file)
    assert len(after) == 6 and set(before) <= set(after)  # kept, not measured again
    with closing(sqlite3.connect(db_file)) as connection:
        assert connection.execute("SELECT COUNT(*) FROM study_repos").fetchone() == (6,)
    fresh = tmp_path / "fresh"
    done = cli("code", "study", str(repos), "--db", f"sqlite:///{tmp_path / 'f.db'}",
               "--out", str(fresh))  # fmt: skip
    assert done.returncode == 0, done.stderr
    assert report_text(out) == report_text(fresh)


def point(position: int, erosion: float | None, verbosity: float | None) -> CommitPoint:
    return CommitPoint(position, f"{position:040x}", "2021-01-01", "c", 1, 10, 1, 0,
                       erosion, verbosity)  # fmt: skip


def record(repo: str, values: list[tuple[float | None, float | None]]) -> RepoRecord:
    points = tuple(point(i, e, v) for i, (e, v) in enumerate(values))
    return RepoRecord(repo, 1, "ok", commits=points)


def test_the_summary_follows_its_definitions() -> None:
    records = [
        record("a", [(0.0, 0.1), (0.2, 0.1), (0.4, 0.3)]),  # both rise; erosion slope 0.2
        record("b", [(0.5, 0.4), (0.1, 0.2)]),  # both fall; slope -0.4
        record("c", [(None, None), (0.3, 0.3), (0.3, 0.3)]),  # flat; the empty tree is dropped
        RepoRecord("d", 4, "failed", error="clone failed"),
    ]
    summary = summarise_study(records, min_commits=2)
    assert (summary.repos, summary.ok, summary.failed, summary.used) == (4, 3, 1, 3)
    erosion = summary.metrics[0]
    assert (erosion.rose, erosion.rose_n) == (1, 3)
    slopes = dict(erosion.slope.quantiles)
    assert slopes[0.5] == pytest.approx(0.0) and slopes[0.1] == pytest.approx(-0.32)
    start, middle, end = erosion.band[0], erosion.band[5], erosion.band[10]
    assert (start.n, start.median) == (2, pytest.approx(0.25))  # c has no point at 0
    assert (middle.n, middle.median) == (3, pytest.approx(0.3))  # a 0.2, b 0.3, c 0.3
    assert end.q1 == pytest.approx(0.2) and end.q3 == pytest.approx(0.35)
    assert summarise_study(records, min_commits=3).used == 1  # c has 2 defined points
    nothing = summarise_study([], min_commits=2).metrics[1]
    assert nothing.rose_share is None and nothing.slope.quantiles[0][1] is None


def test_quantile_is_type_7() -> None:
    assert quantile([1.0, 2.0, 3.0, 4.0], 0.25) == pytest.approx(1.75)
    assert quantile([5.0], 0.9) == 5.0 and quantile([], 0.5) is None


def test_storing_a_repository_is_idempotent(tmp_path: Path) -> None:
    engine = open_store(f"sqlite:///{tmp_path / 's.db'}")
    ok = record("r", [(0.1, 0.2), (0.2, 0.3)])
    failed = RepoRecord("r", 1, "failed", error="clone failed")
    assert store_repo(engine, "s1", failed) is True
    assert store_repo(engine, "s1", failed) is False  # a failure is not written twice
    assert store_repo(engine, "s1", ok) is True  # a later success replaces it
    assert store_repo(engine, "s1", ok) is False  # a retried unit adds nothing
    assert store_repo(engine, "s1", failed) is False  # nor does a late failure
    assert study_records(engine, "s1") == [ok]
    engine.dispose()


@pytest.mark.parametrize(
    "command",
    [["code", "study"], ["code", "study", "run"], ["code", "study", "report"], ["eval", "suite"]],
)
def test_the_sweep_commands_have_help(command: list[str]) -> None:
    done = cli(*command, "--help")
    assert done.returncode == 0, done.stderr
    assert "Usage" in done.stdout and len(done.stdout.splitlines()) > 3
    if command[-1] != "study":
        assert "--json" in done.stdout
