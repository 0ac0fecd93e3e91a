"""A pids cgroup per sandboxed command: the process limit when we run as root.

The kernel exempts host root from ``RLIMIT_NPROC``, even when its processes
are mapped to another uid in a user namespace, so a fork bomb started by root
is not stopped by the rlimit. A cgroup's ``pids.max`` is enforced for
everyone. It is used when the pids controller can be written: cgroup v1 at
``/sys/fs/cgroup/pids``, or cgroup v2 when ``/sys/fs/cgroup`` hands ``pids``
to its children.
"""

from __future__ import annotations

import contextlib
import itertools
import os
import signal
import time
from collections.abc import Callable
from pathlib import Path

from slopmark.errors import EngineError

_V1 = Path("/sys/fs/cgroup/pids")
_V2 = Path("/sys/fs/cgroup")
_COUNTER = itertools.count()


def pids_root() -> Path | None:
    """The folder new pids cgroups are made in, or None when there is none we can write."""
    if os.geteuid() != 0:
        return None
    if (_V1 / "cgroup.procs").is_file() and os.access(_V1, os.W_OK):
        return _V1
    control = _V2 / "cgroup.subtree_control"
    with contextlib.suppress(OSError):
        if "pids" in control.read_text().split() and os.access(_V2, os.W_OK):
            return _V2
    return None


class PidsCgroup:
    """One cgroup limited to ``max_pids`` processes; removed (with its processes) by `close`."""

    def __init__(self, root: Path, max_pids: int) -> None:
        self.path = root / f"slopmark-{os.getpid()}-{next(_COUNTER)}"
        self.path.mkdir()
        try:
            (self.path / "pids.max").write_text(f"{max_pids}\n")
        except OSError:
            self.path.rmdir()
            raise

    def joiner(self) -> Callable[[], None]:
        """A ``preexec_fn`` step that moves the starting child into this cgroup."""
        procs = str(self.path / "cgroup.procs")

        def join() -> None:
            fd = os.open(procs, os.O_WRONLY)
            try:
                os.write(fd, str(os.getpid()).encode())
            finally:
                os.close(fd)

        return join

    def close(self) -> None:
        """Kill every process still in the cgroup, then remove it (retrying for up to 5 s)."""
        deadline = time.monotonic() + 5.0
        while True:
            for pid in self._pids():
                with contextlib.suppress(ProcessLookupError):
                    os.kill(pid, signal.SIGKILL)
            try:
                self.path.rmdir()
                return
            except FileNotFoundError:
                return
            except OSError as error:
                if time.monotonic() > deadline:
                    raise EngineError(
                        f"could not remove the pids cgroup {self.path}: {error.strerror}; "
                        "processes of a sandboxed command may still be running in it"
                    ) from error
            time.sleep(0.02)

    def _pids(self) -> list[int]:
        try:
            text = (self.path / "cgroup.procs").read_text()
        except OSError:
            return []
        return [int(line) for line in text.split()]


def open_pids_cgroup(max_pids: int | None) -> PidsCgroup | None:
    """A cgroup for one command when we are root and one can be made; else None."""
    root = pids_root()
    if max_pids is None or root is None:
        return None
    try:
        return PidsCgroup(root, max_pids)
    except OSError:
        return None
