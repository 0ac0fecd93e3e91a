"""Resource limits every backend applies the same way, and which limit stopped a command.

- Memory is ``RLIMIT_AS`` (address space), set in the child before it execs.
- The process count is ``RLIMIT_NPROC``. The kernel does not enforce it for
  host root (even inside a user namespace, the real user is still root), so
  the bubblewrap backend adds a pids cgroup when it runs as root.
- Which limit stopped a command is read from what it left behind; see
  `stopped_by`.
"""

from __future__ import annotations

import resource
import signal
import sys
from collections.abc import Callable, Mapping

from slopmark.sandbox.base import Limits

#: PATH given to a command whose ``env`` has none (the only variable added).
DEFAULT_PATH = "/usr/local/bin:/usr/bin:/bin"

#: Signals a process dies of when an allocation fails under ``RLIMIT_AS``.
_MEMORY_SIGNALS = (signal.SIGKILL, signal.SIGSEGV)
_MEMORY_MARKS = ("MemoryError", "Cannot allocate memory", "std::bad_alloc", "out of memory")
_PROCESS_MARKS = ("BlockingIOError", "Resource temporarily unavailable", "fork: retry")

#: Sets RLIMIT_NPROC and execs the command: ``python -I -S -c SHIM N argv...``.
#: Run inside a user namespace, the limit then counts that namespace's processes only.
#: It execs with the environment it was started with (read back from /proc), not
#: ``os.environ``, which Python's locale coercion may have changed (LC_CTYPE).
_NPROC_SHIM = """
import os, resource, sys
n = int(sys.argv[1])
resource.setrlimit(resource.RLIMIT_NPROC, (n, n))
raw = open("/proc/self/environ", "rb").read().split(bytes(1))
env = dict(item.split(b"=", 1) for item in raw if b"=" in item)
try:
    os.execvpe(sys.argv[2], sys.argv[2:], env)
except OSError as error:
    sys.stderr.write(f"{sys.argv[2]}: {error.strerror}\\n")
    sys.exit(127)
"""


def command_env(env: Mapping[str, str]) -> dict[str, str]:
    """Exactly ``env``, plus ``PATH=DEFAULT_PATH`` when it has no PATH."""
    return {"PATH": DEFAULT_PATH, **env}


def memory_setter(limits: Limits) -> Callable[[], None]:
    """A ``preexec_fn`` that sets ``RLIMIT_AS`` to ``limits.memory_mb`` (if any)."""

    def apply() -> None:
        if limits.memory_mb is not None:
            size = limits.memory_mb * 1024 * 1024
            resource.setrlimit(resource.RLIMIT_AS, (size, size))

    return apply


def all_limits_setter(limits: Limits) -> Callable[[], None]:
    """A ``preexec_fn`` that sets ``RLIMIT_AS`` and ``RLIMIT_NPROC``."""
    set_memory = memory_setter(limits)

    def apply() -> None:
        set_memory()
        if limits.max_procs is not None:
            resource.setrlimit(resource.RLIMIT_NPROC, (limits.max_procs, limits.max_procs))

    return apply


def with_nproc(argv: list[str], limits: Limits) -> list[str]:
    """``argv`` run through a tiny host-Python shim that first sets ``RLIMIT_NPROC``."""
    if limits.max_procs is None:
        return argv
    return [sys.executable, "-I", "-S", "-c", _NPROC_SHIM, str(limits.max_procs), *argv]


def stopped_by(returncode: int, stderr: str, limits: Limits) -> str | None:
    """The limit that ended a command that exited with ``returncode``; None if none did.

    Only a failed command (``returncode != 0``) can have hit a limit:

    - "memory" when a memory limit is set and stderr shows a failed allocation
      (Python's ``MemoryError``, ``Cannot allocate memory``, ``std::bad_alloc``,
      ``out of memory``), or the command died of SIGKILL or SIGSEGV (as a
      negative return code, or 128 + signal through a shell or bubblewrap);
    - "processes" when a process limit is set and stderr shows a failed fork
      (``BlockingIOError``, ``Resource temporarily unavailable``, bash's
      ``fork: retry``).
    """
    if returncode == 0:
        return None
    if limits.memory_mb is not None and _memory_hit(returncode, stderr):
        return "memory"
    if limits.max_procs is not None and any(mark in stderr for mark in _PROCESS_MARKS):
        return "processes"
    return None


def _memory_hit(returncode: int, stderr: str) -> bool:
    signals = {int(sig) for sig in _MEMORY_SIGNALS}
    died = -returncode in signals or returncode - 128 in signals
    return died or any(mark in stderr for mark in _MEMORY_MARKS)
