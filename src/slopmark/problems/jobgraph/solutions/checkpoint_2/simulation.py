"""Discrete-time simulation of a job graph on a fixed number of workers."""

from __future__ import annotations

import heapq
from collections.abc import Mapping
from dataclasses import dataclass

from graph import JobGraph
from ordering import execution_order, ready_key


@dataclass(frozen=True)
class Event:
    """One timeline line: at `time`, `job` did `kind` ("start" or "end") on `worker`."""

    time: int
    kind: str
    job: str
    worker: int


@dataclass(frozen=True)
class Span:
    """When and where one job ran."""

    start: int
    end: int
    worker: int


@dataclass(frozen=True)
class Schedule:
    """The outcome of a simulation: the timeline, each job's span and the makespan."""

    events: tuple[Event, ...]
    spans: Mapping[str, Span]
    makespan: int


def simulate(graph: JobGraph, workers: int) -> Schedule:
    """Simulate `graph` on `workers` workers; raise CycleError if it has a cycle."""
    execution_order(graph)
    return _Simulator(graph, workers).run()


class _Simulator:
    """Mutable run state; each time step finishes due jobs, then starts ready ones."""

    def __init__(self, graph: JobGraph, workers: int) -> None:
        self._graph = graph
        self._free_workers = list(range(1, workers + 1))
        self._running: dict[str, Span] = {}
        self._finished: dict[str, Span] = {}
        self._events: list[Event] = []

    def run(self) -> Schedule:
        clock = 0
        self._start_ready(clock)
        while self._running:
            clock = min(span.end for span in self._running.values())
            self._finish_due(clock)
            self._start_ready(clock)
        return Schedule(tuple(self._events), dict(self._finished), makespan=clock)

    def _finish_due(self, clock: int) -> None:
        due = sorted(job_id for job_id, span in self._running.items() if span.end == clock)
        for job_id in due:
            span = self._running.pop(job_id)
            self._finished[job_id] = span
            heapq.heappush(self._free_workers, span.worker)
            self._events.append(Event(clock, "end", job_id, span.worker))

    def _ready(self) -> list[str]:
        started = self._running.keys() | self._finished.keys()
        ready = [
            job_id
            for job_id, job in self._graph.jobs.items()
            if job_id not in started and all(dep in self._finished for dep in job.deps)
        ]
        return sorted(ready, key=lambda job_id: ready_key(self._graph, job_id))

    def _start_ready(self, clock: int) -> None:
        for job_id in self._ready()[: len(self._free_workers)]:
            worker = heapq.heappop(self._free_workers)
            span = Span(clock, clock + self._graph.jobs[job_id].duration, worker)
            self._running[job_id] = span
            self._events.append(Event(clock, "start", job_id, worker))
