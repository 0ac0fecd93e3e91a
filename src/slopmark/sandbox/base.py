"""What every sandbox backend takes and returns, and the registry of backends.

A backend runs one command with the host's root file system visible read-only,
the given mounts at the same paths, network off unless asked for, and the
limits of `Limits`. It never raises for what the command did: a timeout or a
limit hit is reported in `Execution.limit`.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Protocol, runtime_checkable

from slopmark.errors import BadInput
from slopmark.registry import Registry


@dataclass(frozen=True)
class Limits:
    """Resource limits of one sandboxed command. None means no limit."""

    wall_s: float = 7200.0
    memory_mb: int | None = 4096
    max_procs: int | None = 512
    network: bool = False


@dataclass(frozen=True)
class Mount:
    """A host path visible inside the sandbox at the same path.

    A ``hidden`` mount is the reverse: the path is replaced by an empty folder
    (or an empty file) inside the sandbox, so what the host holds there cannot
    be read; mounts nested in it are visible again (see `layout.nested_last`).
    """

    path: Path
    writable: bool = False
    hidden: bool = False


@dataclass(frozen=True)
class Execution:
    """What a sandboxed command did.

    ``returncode`` is None when the command was killed by the harness (timeout).
    ``limit`` names the limit that stopped it: "timeout", "memory" or
    "processes"; None when it ended on its own.
    """

    returncode: int | None
    stdout: str
    stderr: str
    wall_s: float
    limit: str | None = None

    @property
    def ok(self) -> bool:
        return self.returncode == 0 and self.limit is None


class Sandbox(Protocol):
    name: str

    def run(
        self,
        argv: Sequence[str],
        *,
        workdir: Path,
        mounts: Sequence[Mount],
        limits: Limits,
        env: Mapping[str, str],
        stdin: str | None = None,
    ) -> Execution:
        """Run ``argv`` in ``workdir`` (which must be inside a mount)."""
        ...


@runtime_checkable
class Channels(Protocol):
    """A backend that can hand the command open file descriptors (``pass_fds``): the
    hidden tests' report then travels through a file the sandbox cannot name.
    Backends without it give the report a path instead."""

    passes_fds: bool

    def run(
        self,
        argv: Sequence[str],
        *,
        workdir: Path,
        mounts: Sequence[Mount],
        limits: Limits,
        env: Mapping[str, str],
        stdin: str | None = None,
        pass_fds: Sequence[int] = (),
    ) -> Execution: ...


@runtime_checkable
class Guards(Protocol):
    """A backend that can run one command of a sandboxed session in a sandbox of its
    own, nested in the first (see `BwrapSandbox.guard`)."""

    def guard(
        self, hide: Sequence[Path], keep: Sequence[Path], unset: Sequence[str]
    ) -> list[str] | None:
        """The argv prefix that runs a command with ``hide`` emptied, ``keep`` read-only
        and the variables ``unset`` removed, in its own user and PID namespace; None
        when this machine cannot nest sandboxes."""
        ...


#: How to build a backend, and whether it can run on this machine (None = yes,
#: else the reason it cannot).
@dataclass(frozen=True)
class Backend:
    name: str
    build: Callable[[], Sandbox]
    unavailable: Callable[[], str | None]
    safe: bool = True


#: Every backend by name: the modules of this package, then the entry points of
#: ``slopmark.sandboxes``.
BACKENDS: Registry[Backend] = Registry(
    "sandbox", "slopmark.sandbox", plural="sandboxes", declare=Backend
)
#: ``@register("name", unavailable=..., safe=...)`` on the class or function building
#: the sandbox (the fields of `Backend`).
register = BACKENDS.register

#: The order `auto` tries backends in.
AUTO_ORDER = ("bwrap", "docker")


def backend_names() -> list[str]:
    return BACKENDS.names()


def backend(name: str) -> Backend:
    """The registered backend ``name``; BadInput for unknown names."""
    return BACKENDS.get(name, also=["auto"])


def unavailable_reason(name: str) -> str | None:
    """Why backend ``name`` cannot run here (None when it can)."""
    return backend(name).unavailable()


def choose_sandbox(name: str) -> Sandbox:
    """The backend ``name`` (or the first available for "auto"); BadInput if it cannot run."""
    if name == "auto":
        return _first_available()
    chosen = backend(name)
    why = chosen.unavailable()
    if why is not None:
        raise BadInput(f"sandbox '{name}' cannot run here: {why}")
    return chosen.build()


def _first_available() -> Sandbox:
    reasons = []
    for candidate in map(backend, AUTO_ORDER):
        why = candidate.unavailable()
        if why is None:
            return candidate.build()
        reasons.append(f"{candidate.name}: {why}")
    raise BadInput(
        "no sandbox is available (" + "; ".join(reasons) + "); install bubblewrap "
        "(apt-get install bubblewrap) or start Docker, or pass --sandbox none-unsafe "
        "to run model-written code without isolation"
    )
