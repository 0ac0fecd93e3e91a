"""Run the jobs' commands as real subprocesses, at most N at a time.

A poll loop starts ready jobs (highest priority, then smallest id) while a
worker is free, reaps finished or timed-out processes, retries failures after
their backoff and skips the dependents of jobs that finally failed.
"""

from __future__ import annotations

import contextlib
import os
import signal
import subprocess
import time
from collections.abc import Callable, Collection, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import IO

from graph import JobGraph
from model import Job
from ordering import ready_key

SUCCEEDED, FAILED, SKIPPED, CACHED = "ok", "failed", "skipped", "cached"
POLL_SECONDS = 0.01


@dataclass(frozen=True)
class JobRun:
    """How one job ended; times are seconds since the start of the run."""

    status: str
    attempts: int = 0
    exit_code: int | None = None
    timed_out: bool = False
    started: float | None = None
    finished: float | None = None


@dataclass(frozen=True)
class ExecResult:
    """The outcome of every job of an `exec` run."""

    workers: int
    runs: Mapping[str, JobRun]

    def count(self, status: str) -> int:
        """How many jobs ended in `status`."""
        return sum(1 for run in self.runs.values() if run.status == status)

    @property
    def succeeded(self) -> bool:
        """True when no job failed or was skipped."""
        return self.count(FAILED) == 0 and self.count(SKIPPED) == 0


@dataclass
class _Active:
    """A running attempt: its process, open output files and deadline."""

    process: subprocess.Popen[bytes]
    outputs: tuple[IO[bytes], IO[bytes]]
    started: float
    deadline: float | None


class Executor:
    """Runs a JobGraph's commands; `on_success` is called as each job succeeds."""

    def __init__(
        self,
        graph: JobGraph,
        workers: int,
        out_dir: Path,
        cached: Collection[str],
        on_success: Callable[[str], None],
    ) -> None:
        self._graph = graph
        self._workers = workers
        self._out_dir = out_dir
        self._on_success = on_success
        self._runs: dict[str, JobRun] = {job_id: JobRun(CACHED) for job_id in cached}
        self._active: dict[str, _Active] = {}
        self._attempts: dict[str, int] = dict.fromkeys(graph.jobs, 0)
        self._first_start: dict[str, float] = {}
        self._ready_at: dict[str, float] = {}
        self._origin = time.monotonic()

    def run(self) -> ExecResult:
        """Run until every job has succeeded, failed or been skipped."""
        while len(self._runs) < len(self._graph.jobs):
            started = self._start_ready()
            reaped = self._reap()
            if not started and not reaped:
                time.sleep(POLL_SECONDS)
        return ExecResult(self._workers, dict(sorted(self._runs.items())))

    def _now(self) -> float:
        return time.monotonic() - self._origin

    def _ready(self) -> list[str]:
        now = self._now()
        ready = [
            job_id
            for job_id, job in self._graph.jobs.items()
            if job_id not in self._runs
            and job_id not in self._active
            and self._ready_at.get(job_id, 0.0) <= now
            and self._deps_done(job)
        ]
        return sorted(ready, key=lambda job_id: ready_key(self._graph, job_id))

    def _deps_done(self, job: Job) -> bool:
        done = (SUCCEEDED, CACHED)
        return all(dep in self._runs and self._runs[dep].status in done for dep in job.deps)

    def _start_ready(self) -> bool:
        """Complete command-less ready jobs and launch others while workers are free."""
        started = False
        for job_id in self._ready():
            job = self._graph.jobs[job_id]
            if job.cmd is None:
                self._succeed(job_id, JobRun(SUCCEEDED))
                started = True
            elif len(self._active) < self._workers:
                self._active[job_id] = self._launch(job, job.cmd)
                started = True
        return started

    def _launch(self, job: Job, cmd: str) -> _Active:
        self._attempts[job.id] += 1
        environment = dict(
            os.environ, JOBGRAPH_JOB=job.id, JOBGRAPH_ATTEMPT=str(self._attempts[job.id])
        )
        # The output files stay open while the process runs; `_reap` closes them.
        stdout = open(self._out_dir / f"{job.id}.out", "wb")  # noqa: SIM115
        stderr = open(self._out_dir / f"{job.id}.err", "wb")  # noqa: SIM115
        process = subprocess.Popen(
            cmd,
            shell=True,
            stdin=subprocess.DEVNULL,
            stdout=stdout,
            stderr=stderr,
            env=environment,
            start_new_session=True,
        )
        started = self._now()
        self._first_start.setdefault(job.id, started)
        deadline = None if job.timeout is None else started + job.timeout
        return _Active(process, (stdout, stderr), started, deadline)

    def _reap(self) -> bool:
        reaped = False
        for job_id in sorted(self._active):
            active = self._active[job_id]
            timed_out = active.process.poll() is None and self._past(active.deadline)
            if timed_out:
                with contextlib.suppress(ProcessLookupError):
                    os.killpg(active.process.pid, signal.SIGKILL)
                active.process.wait()
            if active.process.returncode is not None:
                del self._active[job_id]
                for stream in active.outputs:
                    stream.close()
                self._attempt_ended(job_id, active.process.returncode, timed_out)
                reaped = True
        return reaped

    def _past(self, deadline: float | None) -> bool:
        return deadline is not None and self._now() >= deadline

    def _attempt_ended(self, job_id: str, exit_code: int, timed_out: bool) -> None:
        job, attempts = self._graph.jobs[job_id], self._attempts[job_id]
        run = JobRun(
            SUCCEEDED if exit_code == 0 and not timed_out else FAILED,
            attempts=attempts,
            exit_code=None if timed_out else exit_code,
            timed_out=timed_out,
            started=round(self._first_start[job_id], 3),
            finished=round(self._now(), 3),
        )
        if run.status == SUCCEEDED:
            self._succeed(job_id, run)
        elif attempts <= job.retries:
            self._ready_at[job_id] = self._now() + job.retry_delay(attempts)
        else:
            self._runs[job_id] = run
            self._skip_dependents(job_id)

    def _succeed(self, job_id: str, run: JobRun) -> None:
        self._runs[job_id] = run
        self._on_success(job_id)

    def _skip_dependents(self, failed: str) -> None:
        to_visit = [failed]
        while to_visit:
            for user in self._graph.dependents[to_visit.pop()]:
                if user not in self._runs:
                    self._runs[user] = JobRun(SKIPPED)
                    to_visit.append(user)
