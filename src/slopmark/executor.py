"""Fan-out of independent work items: one interface, a local process pool by default.

Two levels share this module:

- `map_chunks` spreads the files of one command over the cores (code measure).
- An `Executor` runs a sweep of `Unit`\\ s: one repository's history, one bench
  chain, one paper, one (model, domain) slice. A unit is independent, carries
  its own `Resources` request, and is idempotent when retried (it writes its
  result to the store in a way that never leaves a duplicate row). ``local``
  runs units on a process pool; ``ray`` on a Ray cluster. Executors are found
  by name (`executor_names`, `open_executor`) in `EXECUTORS`, one
  `slopmark.registry.Registry` like every plug-in kind, and registered with
  ``@register("name")``, the same way for built-ins and plugins (entry-point
  group ``slopmark.executors``).

An executor's `Executor.run` yields `Started`, `Message` and `Finished` events
as units progress. Code running inside a unit talks back to the driver with
`outbox().send(...)`: a bench chain ships each finished checkpoint's folder
that way.
"""

from __future__ import annotations

import multiprocessing
import os
import signal
import threading
from collections.abc import Callable, Generator, Iterator, Sequence
from concurrent.futures import ProcessPoolExecutor, as_completed
from dataclasses import dataclass, field
from functools import partial
from multiprocessing.process import BaseProcess
from pathlib import Path
from typing import Any, Protocol, TypeVar

from slopmark.errors import SlopmarkError
from slopmark.registry import Registry

Item = TypeVar("Item")
Result = TypeVar("Result")

#: How many times a unit is started at most when its worker or node dies under it.
MAX_ATTEMPTS = 3


def default_jobs() -> int:
    """One worker per available core."""
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except AttributeError:  # not on Linux
        return max(1, os.cpu_count() or 1)


def map_chunks(
    work: Callable[[list[Item]], list[Result]],
    chunks: Sequence[list[Item]],
    jobs: int,
) -> Iterator[list[Result]]:
    """Run ``work`` on each chunk, yielding results as chunks finish.

    With one job (or one chunk) everything runs in this process: a pool costs
    more to start than small work saves.
    """
    if jobs <= 1 or len(chunks) <= 1:
        for chunk in chunks:
            yield work(chunk)
        return
    context = multiprocessing.get_context("spawn")
    pool = ProcessPoolExecutor(max_workers=jobs, mp_context=context, initializer=exit_with_parent)
    with pool:
        futures = [pool.submit(work, chunk) for chunk in chunks]
        for future in as_completed(futures):
            yield future.result()


def exit_with_parent() -> None:
    """Make this pool worker end when the process that started it ends, even killed with
    SIGKILL (a pool's initializer; the local executor's workers call it too).

    A spawned worker holds the read end of a pipe whose write end only its parent has
    (`multiprocessing.parent_process`); the kernel closes it when the parent dies, so
    a thread waiting on it wakes then, whichever of the parent's threads started the
    worker, and also when the parent died before the thread began waiting. The worker's
    own child processes (a git clone) are killed with it.
    """
    parent = multiprocessing.parent_process()
    if parent is not None:
        watch = threading.Thread(target=_end_with, args=(parent,), name="parent-watch", daemon=True)
        watch.start()


def _end_with(parent: BaseProcess) -> None:
    parent.join()
    for child in _children():
        try:
            os.kill(child, signal.SIGKILL)
        except OSError:
            continue  # already gone
    os._exit(1)


def _children() -> list[int]:
    """The ids of this process's children (Linux's /proc; none known elsewhere)."""
    found: list[int] = []
    for listing in Path("/proc/self/task").glob("*/children"):
        try:
            found.extend(map(int, listing.read_text().split()))
        except OSError:
            continue
    return found


def balanced_chunks(items: Sequence[Item], weights: Sequence[int], count: int) -> list[list[Item]]:
    """Split ``items`` into about ``count`` chunks of similar total weight, heaviest first."""
    order = sorted(range(len(items)), key=lambda i: -weights[i])
    chunks: list[list[Item]] = [[] for _ in range(max(1, count))]
    loads = [0] * len(chunks)
    for index in order:
        target = loads.index(min(loads))
        chunks[target].append(items[index])
        loads[target] += weights[index]
    return [c for c in chunks if c]


# --- sweeps of units -------------------------------------------------------------------

#: The custom resource a cluster node offers when it can sandbox model-written code.
SANDBOX_RESOURCE = "sandbox"


@dataclass(frozen=True)
class Resources:
    """What one unit needs while it runs: CPUs, memory (MiB, None: no request), and
    whether it runs model-written code (then only a node offering `SANDBOX_RESOURCE`)."""

    cpus: float = 1.0
    memory_mb: int | None = None
    sandbox: bool = False

    def __post_init__(self) -> None:
        if self.cpus < 0 or (self.memory_mb is not None and self.memory_mb <= 0):
            raise ValueError(f"resources {self}: CPUs must be >= 0 and memory > 0")


Task = Callable[[], Any]


@dataclass(frozen=True)
class Unit:
    """One independent piece of a sweep.

    ``key`` names it for good (the same unit has the same key in a rerun);
    ``prepare`` builds, on the driver, the picklable zero-argument callable a
    worker runs. It is called again before every retry, so a retried unit can
    start from what the driver holds by then (a bench chain's finished checkpoints).
    """

    key: str
    prepare: Callable[[], Task]
    resources: Resources = field(default_factory=Resources)
    label: str = ""

    @classmethod
    def call(
        cls, key: str, function: Callable[..., Any], *args: Any, resources: Resources | None = None
    ) -> Unit:
        """A unit that runs ``function(*args)`` (a module-level function, picklable args)."""
        task = partial(function, *args)
        return cls(key, lambda: task, resources or Resources(), key)

    @property
    def title(self) -> str:
        return self.label or self.key


@dataclass(frozen=True)
class Started:
    """A unit began running on ``node`` (its ``attempt``-th start, from 1)."""

    key: str
    node: str
    attempt: int = 1


@dataclass(frozen=True)
class Message:
    """Something a running unit sent to the driver with ``outbox().send``."""

    key: str
    payload: Any


@dataclass(frozen=True)
class Finished:
    """A unit ended: ``ok`` with its ``value``, or not with ``error`` (one line)."""

    key: str
    ok: bool
    value: Any = None
    error: str | None = None
    node: str = ""
    attempts: int = 1
    seconds: float = 0.0


Event = Started | Message | Finished


class Executor(Protocol):
    """Runs units somewhere and reports their progress as events."""

    name: str

    def node_count(self) -> int:
        """How many machines (cluster nodes) units may land on."""
        ...

    def run(self, units: Sequence[Unit]) -> Generator[Event, None, None]:
        """Run every unit; yield events until each has `Finished` exactly once.

        A unit whose worker or node dies is started again (up to `MAX_ATTEMPTS`
        times) with a freshly prepared task; an exception raised by the unit's
        own code finishes it as failed. Closing the iterator early (Ctrl-C)
        cancels the units still running.
        """
        ...

    def close(self) -> None:
        """Release the workers (and the cluster connection)."""
        ...


ExecutorFactory = Callable[..., Executor]

#: Every executor by name: the modules of `slopmark.executors`, then the entry points
#: of ``slopmark.executors``.
EXECUTORS: Registry[ExecutorFactory] = Registry("executor", "slopmark.executors")
#: ``@register("name")`` on an executor factory: ``factory(address=..., jobs=...)``.
register = EXECUTORS.register


def executor_names() -> list[str]:
    return EXECUTORS.names()


def executor_factory(name: str) -> ExecutorFactory:
    """The factory of executor ``name``; `BadInput` naming ``--executor`` for an unknown one."""
    return EXECUTORS.get(name, option="--executor")


def open_executor(name: str, *, address: str | None = None, jobs: int = 0) -> Executor:
    """The executor ``name`` connected and ready; BadInput for an unknown name or setup."""
    return executor_factory(name)(address=address, jobs=jobs)


# --- talking back from inside a unit ---------------------------------------------------


class Outbox(Protocol):
    def send(self, payload: Any, *, wait: bool = False) -> None:
        """Deliver ``payload`` to the driver; with ``wait``, return once the driver's
        side holds it (so it survives this worker dying next)."""
        ...


class _Nowhere:
    """Outside a sweep nothing listens: messages are dropped."""

    def send(self, payload: Any, *, wait: bool = False) -> None:
        del payload, wait


_CURRENT: list[Outbox] = [_Nowhere()]


def outbox() -> Outbox:
    """Where the unit running in this process sends messages to its driver."""
    return _CURRENT[-1]


def install_outbox(box: Outbox) -> None:
    """Set this process's outbox (executors call this in their workers)."""
    _CURRENT[-1] = box


def error_line(error: BaseException) -> str:
    """An exception as one line: a slopmark error's message as it is; any other
    exception (a bug) with its type and where it was raised."""
    text = " ".join(str(error).split()) or type(error).__name__
    if isinstance(error, SlopmarkError):
        return text
    where = ""
    trace = error.__traceback__
    while trace is not None and trace.tb_next is not None:
        trace = trace.tb_next
    if trace is not None:
        code = trace.tb_frame.f_code
        where = f" (at {os.path.basename(code.co_filename)}:{trace.tb_lineno} in {code.co_name})"
    return f"{type(error).__name__}: {text}{where}"
