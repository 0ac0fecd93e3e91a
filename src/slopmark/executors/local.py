"""The ``local`` executor: units on a pool of worker processes on this machine.

Workers are started with ``spawn``, ignore Ctrl-C (the driver cancels them) and end
when the driver does, even when it is killed (`slopmark.executor.exit_with_parent`).
A unit's messages reach the driver through one pipe (`SimpleQueue`, whose ``put``
is written before it returns). A worker that dies breaks the whole pool in
`ProcessPoolExecutor`: the units then in flight are started again on a new pool.
"""

from __future__ import annotations

import multiprocessing
import signal
from collections.abc import Generator, Iterator, Sequence
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from concurrent.futures.process import BrokenProcessPool
from multiprocessing.queues import SimpleQueue
from typing import Any

from slopmark import __version__
from slopmark.executor import (
    Event,
    Finished,
    Message,
    Started,
    Task,
    Unit,
    default_jobs,
    exit_with_parent,
    install_outbox,
    register,
)
from slopmark.sweep.roster import Roster, Running
from slopmark.sweep.worker import host_name, run_task

#: How often (seconds) the driver looks for messages while units run.
POLL_S = 0.1

_QUEUE: list[SimpleQueue[Any]] = []


class _QueueOutbox:
    def __init__(self, queue: SimpleQueue[Any], key: str) -> None:
        self.queue, self.key = queue, key

    def send(self, payload: Any, *, wait: bool = False) -> None:
        del wait  # a SimpleQueue put is in the pipe when it returns
        self.queue.put(Message(self.key, payload))


def _init_worker(queue: SimpleQueue[Any]) -> None:
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    exit_with_parent()
    _QUEUE.append(queue)


def _call(key: str, attempt: int, task: Task, version: str) -> tuple[str, Any]:
    """What a pool worker runs for one unit: (its node, the task's value or `Failed`)."""
    queue, node = _QUEUE[-1], host_name()
    queue.put(Started(key, node, attempt))
    install_outbox(_QueueOutbox(queue, key))
    return node, run_task(task, version)


class LocalExecutor:
    """A pool of ``jobs`` worker processes (one per core by default)."""

    name = "local"

    def __init__(self, jobs: int = 0) -> None:
        self.jobs = jobs or default_jobs()
        self._context = multiprocessing.get_context("spawn")
        self._queue: SimpleQueue[Any] = self._context.SimpleQueue()
        self._pool: ProcessPoolExecutor | None = None

    def node_count(self) -> int:
        return 1

    def run(self, units: Sequence[Unit]) -> Generator[Event, None, None]:
        roster = Roster(units)
        try:
            while roster.waiting:
                yield from self._drive(roster)
        finally:
            self.close()

    def close(self) -> None:
        pool, self._pool = self._pool, None
        if pool is None:
            return
        processes = list(getattr(pool, "_processes", {}).values())
        pool.shutdown(wait=False, cancel_futures=True)
        for process in processes:
            if process.is_alive():
                process.terminate()
        for process in processes:
            process.join(timeout=5)

    def _new_pool(self) -> ProcessPoolExecutor:
        self.close()
        self._pool = ProcessPoolExecutor(
            max_workers=self.jobs,
            mp_context=self._context,
            initializer=_init_worker,
            initargs=(self._queue,),
        )
        return self._pool

    def _need(self, unit: Unit) -> float:
        return min(float(self.jobs), max(unit.resources.cpus, 1e-3))

    def _drive(self, roster: Roster) -> Iterator[Event]:
        """Run units on one pool until all finished or the pool broke."""
        pool = self._new_pool()
        running: dict[Future[Any], Running] = {}
        while roster.waiting or running:
            self._submit(pool, roster, running)
            done, _ = wait(running, timeout=POLL_S, return_when=FIRST_COMPLETED)
            yield from self._drain()
            broken = []
            for future in done:
                item = running.pop(future)
                try:
                    item.node, value = future.result()
                except BrokenProcessPool:
                    broken.append(item)
                    continue
                yield roster.finished(item, value)
            if broken:
                yield from self._broken(roster, [*broken, *running.values()])
                return

    def _submit(
        self, pool: ProcessPoolExecutor, roster: Roster, running: dict[Future[Any], Running]
    ) -> None:
        used = sum(self._need(r.unit) for r in running.values())
        while roster.waiting and used + self._need(roster.waiting[0]) <= self.jobs + 1e-9:
            unit, task, record = roster.next()
            future = pool.submit(_call, unit.key, record.attempt, task, __version__)
            running[future] = record
            used += self._need(unit)

    def _drain(self) -> Iterator[Event]:
        while not self._queue.empty():
            yield self._queue.get()

    def _broken(self, roster: Roster, lost: list[Running]) -> Iterator[Finished]:
        """A worker died: every unit then in flight starts again (or fails after its last try)."""
        for record in lost:
            finished = roster.lost(record, "its worker process died")
            if finished is not None:
                yield finished


@register("local")
def local_executor(*, address: str | None = None, jobs: int = 0) -> LocalExecutor:
    from slopmark.errors import BadInput

    if address is not None:
        raise BadInput(
            f"--address {address!r}: only the ray executor joins a cluster; add --executor ray"
        )
    return LocalExecutor(jobs)
