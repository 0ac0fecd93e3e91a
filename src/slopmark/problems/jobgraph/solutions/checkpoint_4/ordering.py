"""Execution order, dependency levels and cycle reporting over a JobGraph."""

from __future__ import annotations

import heapq
from collections.abc import Iterator

from errors import CycleError
from graph import JobGraph


def ready_key(graph: JobGraph, job_id: str) -> tuple[int, str]:
    """Sort key among ready jobs: higher priority first, then the smaller id."""
    return (-graph.jobs[job_id].priority, job_id)


def execution_order(graph: JobGraph) -> list[str]:
    """Kahn's algorithm, always taking the ready job with the smallest `ready_key`."""
    waiting_on = {job_id: len(job.deps) for job_id, job in graph.jobs.items()}
    ready = [(ready_key(graph, job_id), job_id) for job_id, n in waiting_on.items() if n == 0]
    heapq.heapify(ready)
    order: list[str] = []
    while ready:
        _, job_id = heapq.heappop(ready)
        order.append(job_id)
        for user in graph.dependents[job_id]:
            waiting_on[user] -= 1
            if waiting_on[user] == 0:
                heapq.heappush(ready, (ready_key(graph, user), user))
    if len(order) < len(graph.jobs):
        raise CycleError(find_cycle(graph))
    return order


def levels(graph: JobGraph) -> list[list[str]]:
    """Group jobs by level: 0 without deps, else 1 + the highest level of a dependency."""
    level: dict[str, int] = {}
    for job_id in execution_order(graph):
        deps = graph.jobs[job_id].deps
        level[job_id] = 1 + max((level[dep] for dep in deps), default=-1)
    grouped: list[list[str]] = [[] for _ in range(max(level.values(), default=-1) + 1)]
    for job_id in sorted(level):
        grouped[level[job_id]].append(job_id)
    return grouped


def find_cycle(graph: JobGraph) -> tuple[str, ...]:
    """The first cycle met by a depth-first search over ids and deps in ascending order."""
    finished: set[str] = set()
    for root in graph.ids():
        if root not in finished:
            cycle = _cycle_from(graph, root, finished)
            if cycle:
                return cycle
    raise AssertionError("find_cycle called on an acyclic graph")


def _sorted_deps(graph: JobGraph, job_id: str) -> Iterator[str]:
    return iter(sorted(graph.jobs[job_id].deps))


def _cycle_from(graph: JobGraph, root: str, finished: set[str]) -> tuple[str, ...] | None:
    path = [root]
    pending = [_sorted_deps(graph, root)]
    while pending:
        dep = next(pending[-1], None)
        if dep is None:
            finished.add(path.pop())
            pending.pop()
        elif dep in path:
            return (*path[path.index(dep) :], dep)
        elif dep not in finished:
            path.append(dep)
            pending.append(_sorted_deps(graph, dep))
    return None
