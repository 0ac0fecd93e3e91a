"""One unit of a study: a repository's history, measured and stored (runs on a worker).

A git URL is cloned (bare, no prompts, remote helpers off, through
`slopmark.code.measure.git.run_git` like every git call) into a temporary
folder that is removed afterwards; a local path is read where it is. The whole
unit has a time limit (SIGALRM in the worker's main thread; the clone also has
its own subprocess timeout). Any failure is stored as the repository's
``failed`` row with its reason and the sweep goes on.
"""

from __future__ import annotations

import signal
import subprocess
import tempfile
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import replace
from pathlib import Path
from types import FrameType

from slopmark.code.measure.git import run_git
from slopmark.code.measure.measure_history import HistoryReport, measure_history
from slopmark.code.study.records import FAILED, OK, CommitPoint, RepoRecord, StudySettings
from slopmark.code.study.repos import RepoEntry, redact_credentials
from slopmark.errors import BadInput, SlopmarkError
from slopmark.executor import error_line
from slopmark.sweep.worker import host_name


class TimeLimit(SlopmarkError):
    """The repository took longer than the study's time limit."""


@contextmanager
def time_limit(seconds: float) -> Iterator[None]:
    """Raise `TimeLimit` in this (main) thread after ``seconds``; no limit elsewhere."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return

    def expired(_signum: int, _frame: FrameType | None) -> None:
        raise TimeLimit(f"timed out after {seconds:g} s (the study's --timeout)")

    previous = signal.signal(signal.SIGALRM, expired)
    signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)


def _clone(entry: RepoEntry, target: Path, timeout_s: float) -> None:
    """A bare clone of ``entry``'s URL (its credentials never reach a message)."""
    command = ["clone", "--bare", "--quiet", "--", entry.url, str(target)]
    try:
        done = run_git(command, timeout=timeout_s, fetch=True)
    except subprocess.TimeoutExpired:
        raise TimeLimit(f"git clone timed out after {timeout_s:g} s") from None
    if done.returncode != 0:
        text = done.stderr.decode(errors="replace").strip()
        lines = text.splitlines() or [f"exit {done.returncode}"]
        raise BadInput(f"git clone failed: {redact_credentials(lines[-1])}")


@contextmanager
def checkout(entry: RepoEntry, timeout_s: float) -> Iterator[Path]:
    """The repository's git folder: cloned for a URL, as it is for a local path."""
    if not entry.is_url:
        if not Path(entry.repo).is_dir():
            raise BadInput(f"no such repository path on node {host_name()}")
        yield Path(entry.repo)
        return
    with tempfile.TemporaryDirectory(prefix="slopmark-study-") as folder:
        target = Path(folder) / "repo.git"
        _clone(entry, target, timeout_s)
        yield target


def _head(location: Path) -> str | None:
    done = run_git(["rev-parse", "--verify", "--end-of-options", "HEAD^{commit}"], location)
    return done.stdout.decode().strip() or None


def _points(report: HistoryReport) -> tuple[CommitPoint, ...]:
    return tuple(
        CommitPoint(index, p.commit.sha, p.commit.date, p.commit.subject, p.files, p.sloc,
                    p.callables, p.complex_callables, p.erosion, p.verbosity, p.lineage,
                    p.by_scope, p.coverage.to_json()["excluded"])
        for index, p in enumerate(report.commits)
    )  # fmt: skip


def _measured(entry: RepoEntry, settings: StudySettings) -> RepoRecord:
    with time_limit(settings.timeout_s), checkout(entry, settings.timeout_s) as location:
        report = measure_history(location, "HEAD", settings.selection(), settings.options())
        head = _head(location)
    return RepoRecord(
        repo=entry.repo, line=entry.line, status=OK, head=head, candidates=report.candidates,
        blobs_measured=report.blobs_measured, erosion_slope=report.erosion_slope,
        verbosity_slope=report.verbosity_slope, erosion_rose=report.erosion_rose,
        verbosity_rose=report.verbosity_rose, commits=_points(report), roots=report.roots,
    )  # fmt: skip


def measure_repo(entry: RepoEntry, settings: StudySettings) -> RepoRecord:
    """``entry``'s record: measured, or failed with a one-line reason (never raises)."""
    started = time.monotonic()
    try:
        record = _measured(entry, settings)
    except Exception as error:  # noqa: BLE001 - a repository's failure is recorded, not raised
        reason = redact_credentials(error_line(error))
        record = RepoRecord(entry.repo, entry.line, FAILED, error=reason)
    return replace(record, node=host_name(), seconds=time.monotonic() - started)


def study_unit(entry: RepoEntry, settings: StudySettings, study: str, db_url: str) -> RepoRecord:
    """Measure one repository and store it at once (idempotent: a retry adds no row); the
    record goes back to the driver too (its progress line: points, erosion first→last)."""
    from slopmark.code.study.stored import store_repo
    from slopmark.store.db import cached_store

    record = measure_repo(entry, settings)
    store_repo(cached_store(db_url), study, record)
    return record
