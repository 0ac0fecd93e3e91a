"""The ``ray`` executor: units as Ray tasks on a cluster (``pip install 'slopmark[ray]'``).

``address=None`` starts a Ray instance on this machine (``jobs`` CPUs, and the
``sandbox`` resource when bubblewrap or Docker can run here); ``"auto"`` joins the
cluster running on this machine; ``HOST:PORT`` or ``ray://HOST:PORT`` joins
that one. The address is checked before Ray is asked (Ray itself retries an
unreachable address for ever), so a wrong one is one clear line.

Each unit is a task with its own resource request (``num_cpus``, ``memory``
and ``{"sandbox": 1}`` for units that run model-written code) and no Ray-level
retry: when a worker or node dies the driver prepares the unit afresh and
submits it again, so a bench chain restarts from the checkpoints the driver
received. A unit asking for resources no live node offers waits for a node to
join for `NODE_WAIT_S`, then fails saying so (never a silent hang).

Messages from units go through a small actor (the desk) on the driver's node,
which the driver empties every `POLL_S`.
"""

from __future__ import annotations

import logging
import sys
import threading
import time
from collections.abc import Generator, Iterator, Sequence
from importlib import import_module
from types import ModuleType
from typing import Any, TextIO, cast

from slopmark import __version__
from slopmark.errors import BadInput, EngineError
from slopmark.executor import (
    SANDBOX_RESOURCE,
    Event,
    Message,
    Resources,
    Started,
    Task,
    Unit,
    default_jobs,
    error_line,
    install_outbox,
    register,
)
from slopmark.sweep.address import check_address
from slopmark.sweep.roster import Failed, Roster, Running
from slopmark.sweep.worker import run_task

INSTALL_HINT = "executor 'ray' needs: pip install 'slopmark[ray]'"
POLL_S = 0.1
#: How long a unit waits for a node that can run it (after its node died) before failing.
NODE_WAIT_S = 180.0
#: How often (seconds) the driver re-reads the cluster's nodes while units wait for one.
NODES_EVERY_S = 2.0


def import_ray() -> ModuleType:
    """The ``ray`` module, or BadInput with the install line."""
    try:
        return import_module("ray")
    except ImportError as error:
        raise BadInput(INSTALL_HINT) from error


class Desk:
    """The actor units send messages to; the driver takes them."""

    def __init__(self) -> None:
        self.items: list[Any] = []

    def put(self, item: Any) -> None:
        self.items.append(item)

    def take(self) -> list[Any]:
        items, self.items = self.items, []
        return items


class _DeskOutbox:
    def __init__(self, desk: Any, key: str) -> None:
        self.desk, self.key = desk, key

    def send(self, payload: Any, *, wait: bool = False) -> None:
        reply = self.desk.put.remote(Message(self.key, payload))
        if wait:
            import_ray().get(reply)


def node_label(ray: ModuleType) -> str:
    """This worker's node: its address and the start of its Ray node id."""
    context = ray.get_runtime_context()
    return f"{ray.util.get_node_ip_address()} {context.get_node_id()[:8]}"


def _ray_call(desk: Any, key: str, attempt: int, task: Task, version: str) -> tuple[str, Any]:
    """What a Ray worker runs for one unit: (its node, the task's value or `Failed`)."""
    ray = import_ray()
    node = node_label(ray)
    desk.put.remote(Started(key, node, attempt))
    install_outbox(_DeskOutbox(desk, key))
    return node, run_task(task, version)


def _options(resources: Resources) -> dict[str, Any]:
    options: dict[str, Any] = {"num_cpus": resources.cpus, "max_retries": 0}
    if resources.memory_mb is not None:
        options["memory"] = resources.memory_mb * 2**20
    if resources.sandbox:
        options["resources"] = {SANDBOX_RESOURCE: 1}
    return options


def _fits(resources: Resources, node: dict[str, Any]) -> bool:
    offered = node.get("Resources", {})
    memory = (resources.memory_mb or 0) * 2**20
    return bool(
        node.get("Alive")
        and offered.get("CPU", 0) >= resources.cpus
        and offered.get("memory", 0) >= memory
        and (not resources.sandbox or offered.get(SANDBOX_RESOURCE, 0) >= 1)
    )


def _want(resources: Resources) -> str:
    parts = [f"{resources.cpus:g} CPU"]
    if resources.memory_mb is not None:
        parts.append(f"{resources.memory_mb} MiB of memory")
    if resources.sandbox:
        parts.append(f"the '{SANDBOX_RESOURCE}' resource (a node with bubblewrap, started with "
                     f"ray start --resources '{{\"{SANDBOX_RESOURCE}\": N}}')")  # fmt: skip
    return " and ".join(parts)


class _NoticesToStderr:
    """Stands in for ``sys.stdout`` while Ray is connected.

    Ray's driver prints cluster notices (a node was marked dead) on stdout from
    its own threads (named ``ray_...``); those lines go to stderr, so stdout
    keeps only the command's output (``--json`` stays parseable).
    """

    def __init__(self, out: TextIO, err: TextIO) -> None:
        self._out, self._err = out, err

    def write(self, text: str) -> int:
        ray_thread = threading.current_thread().name.startswith("ray_")
        return (self._err if ray_thread else self._out).write(text)

    def __getattr__(self, name: str) -> Any:
        return getattr(self._out, name)


def _can_sandbox() -> bool:
    """Whether this machine can run model-written code in a sandbox (bubblewrap or Docker)."""
    from slopmark.sandbox.base import AUTO_ORDER, unavailable_reason

    return any(unavailable_reason(name) is None for name in AUTO_ORDER)


class RayExecutor:
    name = "ray"

    def __init__(self, address: str | None, jobs: int = 0) -> None:
        self.ray = import_ray()
        self.address = address
        if address is None:
            self._start_local(jobs or default_jobs())
        else:
            if jobs:
                raise BadInput(
                    "--jobs sizes a Ray started here; the nodes of a cluster set their "
                    "own CPUs with ray start --num-cpus (leave --jobs out with --address)"
                )
            self._join(address)
        self._stdout = sys.stdout
        sys.stdout = cast(TextIO, _NoticesToStderr(self._stdout, sys.stderr))
        self._nodes: list[dict[str, Any]] = []
        self._nodes_read = 0.0
        self._running: dict[Any, Running] = {}
        self._desk: Any = None

    def _start_local(self, cpus: int) -> None:
        self.ray.init(
            num_cpus=cpus,
            resources={SANDBOX_RESOURCE: float(cpus)} if _can_sandbox() else None,
            include_dashboard=False,
            logging_level=logging.ERROR,
            log_to_driver=False,
        )

    def _join(self, address: str) -> None:
        resolved = check_address(address)
        try:
            self.ray.init(address=resolved, logging_level=logging.ERROR, log_to_driver=False)
        except (ConnectionError, RuntimeError, ValueError) as error:
            raise BadInput(f"--address {address!r}: cannot join the Ray cluster: {error}") from None

    def node_count(self) -> int:
        return sum(1 for node in self.ray.nodes() if node.get("Alive"))

    def close(self) -> None:
        for ref in list(self._running):
            self.ray.cancel(ref, force=True)
        self._running.clear()
        if self.ray.is_initialized():
            self.ray.shutdown()
        if isinstance(sys.stdout, _NoticesToStderr):
            sys.stdout = self._stdout

    def check_feasible(self, units: Sequence[Unit]) -> None:
        """BadInput when some unit asks for what no live node of the cluster offers."""
        nodes = self._cluster(fresh=True)
        for unit in units:
            if not any(_fits(unit.resources, node) for node in nodes):
                raise BadInput(
                    f"unit {unit.title!r} needs {_want(unit.resources)}, "
                    f"and no live node of the Ray cluster ({len(nodes)} known) offers it"
                )

    def run(self, units: Sequence[Unit]) -> Generator[Event, None, None]:
        self.check_feasible(units)
        roster = Roster(units)
        self._desk = self._make_desk()
        parked: dict[str, float] = {}
        try:
            while roster.waiting or self._running:
                yield from self._submit(roster, parked)
                done, _ = self.ray.wait(list(self._running), num_returns=1, timeout=POLL_S)
                yield from self._drain()
                for ref in done:
                    yield from self._collect(roster, ref)
                if not self._running and roster.waiting:
                    time.sleep(POLL_S)  # every waiting unit is parked until a node can run it
        finally:
            self.close()

    def _make_desk(self) -> Any:
        from ray.util.scheduling_strategies import NodeAffinitySchedulingStrategy

        here = self.ray.get_runtime_context().get_node_id()
        strategy = NodeAffinitySchedulingStrategy(node_id=here, soft=False)
        actor = self.ray.remote(num_cpus=0)(Desk)
        return actor.options(scheduling_strategy=strategy).remote()

    def _drain(self) -> Iterator[Event]:
        try:
            taken = self.ray.get(self._desk.take.remote())
        except self.ray.exceptions.RayActorError as error:
            raise EngineError(
                f"the Ray node this command is attached to lost its message desk: {error}"
            ) from None
        yield from taken

    def _cluster(self, fresh: bool = False) -> list[dict[str, Any]]:
        now = time.monotonic()
        if fresh or now - self._nodes_read > NODES_EVERY_S:
            self._nodes, self._nodes_read = self.ray.nodes(), now
        return self._nodes

    def _submit(self, roster: Roster, parked: dict[str, float]) -> Iterator[Event]:
        """Submit every waiting unit some live node can run; fail those that waited too long."""
        remote = self.ray.remote(_ray_call)
        for _ in range(len(roster.waiting)):
            unit = roster.waiting[0]
            if not any(_fits(unit.resources, node) for node in self._cluster()):
                roster.waiting.rotate(-1)
                since = parked.setdefault(unit.key, time.monotonic())
                if time.monotonic() - since > NODE_WAIT_S:
                    roster.waiting.remove(unit)
                    why = f"no live node of the Ray cluster offers {_want(unit.resources)}"
                    yield roster.finished(Running(unit, roster.attempts.get(unit.key, 0)),
                                          Failed(why))  # fmt: skip
                continue
            parked.pop(unit.key, None)
            unit, task, record = roster.next()
            options = _options(unit.resources)
            ref = remote.options(**options).remote(
                self._desk, unit.key, record.attempt, task, __version__
            )
            self._running[ref] = record

    def _collect(self, roster: Roster, ref: Any) -> Iterator[Event]:
        exceptions = self.ray.exceptions
        record = self._running.pop(ref)
        try:
            record.node, value = self.ray.get(ref)
        except exceptions.RayTaskError as error:
            value = Failed(error_line(error.cause or error))
        except exceptions.TaskCancelledError:
            return
        except exceptions.LocalRayletDiedError as error:
            raise EngineError(f"the Ray node this command is attached to died: {error}") from None
        except exceptions.RayError as error:
            self._nodes_read = 0.0  # read the nodes again before submitting it anew
            first = str(error).strip().splitlines()[0] if str(error).strip() else ""
            finished = roster.lost(record, f"its Ray worker or node died: {first}")
            if finished is not None:
                yield finished
            return
        yield roster.finished(record, value)


@register("ray")
def ray_executor(*, address: str | None = None, jobs: int = 0) -> RayExecutor:
    return RayExecutor(address, jobs)
