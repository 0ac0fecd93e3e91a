"""Discrete-time simulation of a job graph on N workers, with scripted failures and retries."""

from __future__ import annotations

import heapq
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, replace

from graph import JobGraph
from model import OK
from ordering import execution_order, ready_key

PENDING, RUNNING, SUCCEEDED, FAILED, SKIPPED = "pending", "running", "ok", "failed", "skipped"


@dataclass(frozen=True)
class Event:
    """One timeline entry; `kind` is "start", "end", "fail" or "skip"."""

    time: int
    kind: str
    job: str
    worker: int | None = None
    attempt: int = 1
    retry_at: int | None = None


@dataclass(frozen=True)
class Progress:
    """Where one job stands: status, attempts started, and its first start / last end."""

    status: str = PENDING
    attempts: int = 0
    ready_at: int = 0
    start: int | None = None
    end: int | None = None
    worker: int | None = None


@dataclass(frozen=True)
class Schedule:
    """The outcome of a simulation: the timeline, each job's progress and the makespan."""

    events: tuple[Event, ...]
    progress: Mapping[str, Progress]
    makespan: int

    def with_status(self, status: str) -> list[str]:
        """Ids of the jobs that ended in `status`, ascending."""
        return sorted(job_id for job_id, state in self.progress.items() if state.status == status)

    @property
    def succeeded(self) -> bool:
        """True when every job ended successfully."""
        return all(state.status == SUCCEEDED for state in self.progress.values())


def simulate(graph: JobGraph, workers: int) -> Schedule:
    """Simulate `graph` on `workers` workers; raise CycleError if it has a cycle."""
    execution_order(graph)
    return _Simulator(graph, workers).run()


class _Simulator:
    """Mutable run state; each time step finishes due attempts, then starts ready jobs."""

    def __init__(self, graph: JobGraph, workers: int) -> None:
        self._graph = graph
        self._free_workers = list(range(1, workers + 1))
        self._progress = {job_id: Progress() for job_id in graph.ids()}
        self._events: list[Event] = []
        self._makespan = 0

    def run(self) -> Schedule:
        clock: int | None = 0
        while clock is not None:
            self._finish_due(clock)
            self._start_ready(clock)
            clock = self._next_time(clock)
        return Schedule(tuple(self._events), dict(self._progress), self._makespan)

    def _next_time(self, clock: int) -> int | None:
        """The next time an attempt ends or a waiting retry becomes ready, if any."""
        times: list[int] = []
        for state in self._progress.values():
            if state.status == RUNNING and state.end is not None:
                times.append(state.end)
            elif state.status == PENDING and state.ready_at > clock:
                times.append(state.ready_at)
        return min(times, default=None)

    def _finish_due(self, clock: int) -> None:
        due = [
            job_id
            for job_id, state in self._progress.items()
            if state.status == RUNNING and state.end == clock
        ]
        given_up = [job_id for job_id in sorted(due) if not self._finish(job_id, clock)]
        self._skip_dependents(given_up, clock)

    def _finish(self, job_id: str, clock: int) -> bool:
        """End the running attempt of `job_id`; return False if the job has finally failed."""
        job, state = self._graph.jobs[job_id], self._progress[job_id]
        heapq.heappush(self._free_workers, state.worker or 0)
        self._makespan = clock
        if job.outcome(state.attempts) == OK:
            self._progress[job_id] = replace(state, status=SUCCEEDED)
            self._events.append(Event(clock, "end", job_id, state.worker))
            return True
        if state.attempts <= job.retries:
            retry_at = clock + job.retry_delay(state.attempts)
            self._progress[job_id] = replace(state, status=PENDING, ready_at=retry_at)
            self._events.append(Event(clock, "fail", job_id, state.worker, retry_at=retry_at))
            return True
        self._progress[job_id] = replace(state, status=FAILED)
        self._events.append(Event(clock, "fail", job_id, state.worker))
        return False

    def _skip_dependents(self, failed: Iterable[str], clock: int) -> None:
        to_visit = list(failed)
        skipped: set[str] = set()
        while to_visit:
            for user in self._graph.dependents[to_visit.pop()]:
                if self._progress[user].status == PENDING and user not in skipped:
                    skipped.add(user)
                    to_visit.append(user)
        for job_id in sorted(skipped):
            self._progress[job_id] = replace(self._progress[job_id], status=SKIPPED)
            self._events.append(Event(clock, "skip", job_id))

    def _ready(self, clock: int) -> list[str]:
        ready = [
            job_id
            for job_id, state in self._progress.items()
            if state.status == PENDING and state.ready_at <= clock and self._deps_done(job_id)
        ]
        return sorted(ready, key=lambda job_id: ready_key(self._graph, job_id))

    def _deps_done(self, job_id: str) -> bool:
        deps = self._graph.jobs[job_id].deps
        return all(self._progress[dep].status == SUCCEEDED for dep in deps)

    def _start_ready(self, clock: int) -> None:
        for job_id in self._ready(clock)[: len(self._free_workers)]:
            worker = heapq.heappop(self._free_workers)
            state = self._progress[job_id]
            self._progress[job_id] = replace(
                state,
                status=RUNNING,
                attempts=state.attempts + 1,
                start=clock if state.start is None else state.start,
                end=clock + self._graph.jobs[job_id].duration,
                worker=worker,
            )
            self._events.append(Event(clock, "start", job_id, worker, attempt=state.attempts + 1))
