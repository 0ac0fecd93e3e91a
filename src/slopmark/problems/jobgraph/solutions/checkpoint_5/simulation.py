"""Discrete-time simulation of a job graph on N workers, with retries and interruption.

A run starts from a RunState (fresh or loaded from a state file) and returns the
events it produced plus the RunState it reached, so an interrupted run can resume.
"""

from __future__ import annotations

import heapq
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, replace

from graph import JobGraph
from model import OK
from ordering import execution_order, ready_key

PENDING, RUNNING, SUCCEEDED, FAILED, SKIPPED = "pending", "running", "ok", "failed", "skipped"
STATUSES = (PENDING, RUNNING, SUCCEEDED, FAILED, SKIPPED)


@dataclass(frozen=True)
class Event:
    """One timeline entry; `kind` is "start", "end", "fail", "skip" or "interrupt"."""

    time: int
    kind: str
    job: str
    worker: int | None = None
    attempt: int = 1
    retry_at: int | None = None


@dataclass(frozen=True)
class Progress:
    """Where one job stands: status, attempts made, and its first start / last end."""

    status: str = PENDING
    attempts: int = 0
    ready_at: int = 0
    start: int | None = None
    end: int | None = None
    worker: int | None = None


@dataclass(frozen=True)
class RunState:
    """Everything needed to continue a run: the clock and every job's progress."""

    clock: int
    makespan: int
    complete: bool
    progress: Mapping[str, Progress]

    @classmethod
    def fresh(cls, graph: JobGraph) -> RunState:
        """The state before anything has run."""
        progress = {job_id: Progress() for job_id in graph.ids()}
        return cls(clock=0, makespan=0, complete=not progress, progress=progress)

    def with_status(self, status: str) -> list[str]:
        """Ids of the jobs in `status`, ascending."""
        return sorted(job_id for job_id, state in self.progress.items() if state.status == status)

    @property
    def succeeded(self) -> bool:
        """True when every job ended successfully."""
        return all(state.status == SUCCEEDED for state in self.progress.values())


@dataclass(frozen=True)
class RunResult:
    """The events a run produced and the state it reached."""

    events: tuple[Event, ...]
    state: RunState


def simulate(
    graph: JobGraph, workers: int, start: RunState | None = None, stop_after: int | None = None
) -> RunResult:
    """Simulate `graph` on `workers` workers from `start` (default: fresh).

    With `stop_after`, no job starts at or after that time and attempts still
    running then are interrupted. Raises CycleError if the graph has a cycle.
    """
    execution_order(graph)
    return _Simulator(graph, workers, start or RunState.fresh(graph)).run(stop_after)


class _Simulator:
    """Mutable run state; each time step finishes due attempts, then starts ready jobs."""

    def __init__(self, graph: JobGraph, workers: int, start: RunState) -> None:
        self._graph = graph
        self._free_workers = list(range(1, workers + 1))
        self._progress = dict(start.progress)
        self._events: list[Event] = []
        self._clock = start.clock
        self._makespan = start.makespan

    def run(self, stop_after: int | None) -> RunResult:
        clock: int | None = self._clock
        while clock is not None:
            if stop_after is not None and clock > stop_after:
                return self._stop(stop_after)
            self._finish_due(clock)
            if clock == stop_after and self._has_work():
                return self._stop(clock)
            self._start_ready(clock)
            clock = self._next_time(clock)
        return self._result(self._makespan, complete=True)

    def _result(self, clock: int, *, complete: bool) -> RunResult:
        state = RunState(clock, self._makespan, complete, dict(self._progress))
        return RunResult(tuple(self._events), state)

    def _has_work(self) -> bool:
        return any(state.status in (PENDING, RUNNING) for state in self._progress.values())

    def _stop(self, clock: int) -> RunResult:
        """Interrupt the running attempts; they do not count and will run again."""
        for job_id in sorted(self._with_status(RUNNING)):
            state = self._progress[job_id]
            attempts = state.attempts - 1
            self._progress[job_id] = replace(
                state,
                status=PENDING,
                attempts=attempts,
                start=state.start if attempts else None,
                end=None,
                worker=None,
            )
            self._events.append(Event(clock, "interrupt", job_id, state.worker))
        return self._result(clock, complete=False)

    def _with_status(self, status: str) -> list[str]:
        return [job_id for job_id, state in self._progress.items() if state.status == status]

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
        running = self._with_status(RUNNING)
        due = [job_id for job_id in running if self._progress[job_id].end == clock]
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
