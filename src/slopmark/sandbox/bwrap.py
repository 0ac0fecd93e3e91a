"""The bubblewrap backend (Linux): namespaces, a read-only host and no privileges.

Inside the sandbox the host's root file system is visible read-only, with a
fresh ``/dev``, ``/proc``, ``/tmp`` and ``/run`` (the last hides host sockets
such as Docker's; ``/run/systemd/resolve`` stays for DNS); each fresh tmpfs
(``/tmp``, ``/run``, the emptied folders) holds at most ``limits.memory_mb``. Home folders and
credential files are replaced by empty ones (`private`): ``/root``, ``/home``,
the caller's ``$HOME``, ``/etc/shadow``, ``/etc/gshadow``, ``/etc/sudoers``
and the SSH host keys (the homes by writable, throwaway folders). The mounts
appear at their own paths, writable ones with ``--bind``; a hidden mount is an
empty read-only folder (or file). The command runs
as uid and gid 65534 in a new user namespace with every capability dropped, in
its own PID, IPC, UTS (and, unless ``limits.network``, network) namespace.
That uid is the caller's own uid outside: files it writes in a writable mount
belong to the caller, and root's files outside the private paths stay readable
(the system's), but the process holds no capability.

The running Python's own folders stay visible read-only when they sit under
``/tmp``, ``/run`` or a private folder (`harness_paths`), so a checkout in
``/tmp`` or an interpreter under ``/root/.pyenv`` works.

Environment: exactly ``env``, plus ``PATH`` when it has none and ``PWD``
(which bwrap always sets to the working folder). Descriptors in ``pass_fds``
are inherited; every other one is closed.

Limits: ``RLIMIT_AS`` is set before bwrap starts; ``RLIMIT_NPROC`` is set by a
small shim inside the user namespace (so it counts the sandbox's processes
only). Host root is exempt from ``RLIMIT_NPROC``, so as root each command also
gets a pids cgroup of ``max_procs`` + 2 (bwrap's own two processes) when one
can be made (see `pids`); ``process_limit_enforced`` says whether that holds.
When the command ends, the PID namespace ends and the kernel kills whatever it
left running.

`BwrapSandbox.guard` nests a second sandbox inside the first for one command
(the submission the hidden tests start): its own user and PID namespace, so it
can neither signal nor read the memory, descriptors or root of the processes
around it, with given paths emptied and others read-only.
"""

from __future__ import annotations

import functools
import os
import shutil
import subprocess
import sys
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path

from slopmark.sandbox.base import (
    Execution,
    Limits,
    Mount,
    register,
)
from slopmark.sandbox.layout import check_layout, nested_last
from slopmark.sandbox.limits import command_env, memory_setter, with_nproc
from slopmark.sandbox.pids import PidsCgroup, open_pids_cgroup, pids_root
from slopmark.sandbox.private import private_paths
from slopmark.sandbox.supervise import Launch, supervise

#: The uid and gid the command has inside the sandbox ("nobody").
SANDBOX_ID = "65534"

#: bwrap's own processes (the outer one and the PID namespace's init) in the pids cgroup.
_BWRAP_PROCESSES = 2

_NAMESPACES = (
    "--unshare-user", "--uid", SANDBOX_ID, "--gid", SANDBOX_ID,
    "--unshare-pid", "--unshare-ipc", "--unshare-uts", "--unshare-cgroup-try",
    "--cap-drop", "ALL", "--die-with-parent", "--new-session",
)  # fmt: skip


#: Host folders the sandbox replaces with empty ones.
_REPLACED = (Path("/tmp"), Path("/run"))
#: What the nested sandbox of `BwrapSandbox.guard` unshares.
_NESTED = ("--unshare-user", "--unshare-pid", "--unshare-ipc", "--die-with-parent")


def harness_paths(private: Sequence[Path] = ()) -> list[Path]:
    """The running Python's folders when they sit in a folder the sandbox replaces.

    The NPROC shim and the harness's virtual environments run from them, so a
    checkout under ``/tmp`` (a CI clone) or an interpreter under a home folder
    (pyenv's) must stay visible, read-only.
    """
    folders = {sys.prefix, sys.base_prefix, sys.exec_prefix, os.path.dirname(sys.executable)}
    found = {Path(folder).resolve() for folder in folders}
    replaced = (*_REPLACED, *private)
    return sorted(p for p in found if p.exists() and any(p.is_relative_to(r) for r in replaced))


def tmpfs_args(path: Path | str, size_mb: int | None) -> list[str]:
    """A fresh tmpfs at ``path``, holding at most ``size_mb`` MiB when given: its pages are
    memory the memory limit does not count, so a sandbox's /tmp and throwaway homes are
    bounded by that limit too (ENOSPC past it)."""
    size = ["--size", str(size_mb * 2**20)] if size_mb else []
    return [*size, "--tmpfs", str(path)]


def hide_args(path: Path, size_mb: int | None = None) -> list[str]:
    """bwrap arguments that replace ``path`` with an empty folder (or an empty file)."""
    if path.is_dir():
        return tmpfs_args(path, size_mb)
    return ["--ro-bind", "/dev/null", str(path)]


def mount_args(mount: Mount, size_mb: int | None = None) -> list[str]:
    if mount.hidden:
        return hide_args(mount.path, size_mb)
    return ["--bind" if mount.writable else "--ro-bind", str(mount.path), str(mount.path)]


def host_view(size_mb: int | None = None) -> list[str]:
    """The bwrap arguments of what every sandbox sees of the host (the module docstring);
    each fresh tmpfs holds at most ``size_mb`` MiB."""
    args = ["--ro-bind", "/", "/", "--dev", "/dev", "--proc", "/proc"]
    args += tmpfs_args("/tmp", size_mb)
    if Path("/run").is_dir() and not Path("/run").is_symlink():
        args += tmpfs_args("/run", size_mb)
        args += ["--ro-bind-try", "/run/systemd/resolve", "/run/systemd/resolve"]
    private = [path for path in private_paths() if not path.is_symlink()]
    for path in private:
        args += hide_args(path, size_mb)
    for path in harness_paths(private):
        args += ["--ro-bind", str(path), str(path)]
    return args


def bwrap_argv(
    argv: Sequence[str], *, workdir: Path, mounts: Sequence[Mount], limits: Limits, bwrap: str
) -> list[str]:
    """The bwrap command line that runs ``argv`` (with the NPROC shim) in the sandbox."""
    args = [bwrap, *host_view(limits.memory_mb), *_NAMESPACES]
    if not limits.network:
        args.append("--unshare-net")
    for mount in nested_last(mounts):
        args += mount_args(mount, limits.memory_mb)
    hidden = [mount.path for mount in mounts if mount.hidden and mount.path.is_dir()]
    for path in hidden:  # read-only, once what they hold is mounted
        args += ["--remount-ro", str(path)]
    return [*args, "--chdir", str(workdir), "--", *with_nproc(list(argv), limits)]


def guard_argv(
    bwrap: str, hide: Sequence[Path], keep: Sequence[Path], unset: Sequence[str]
) -> list[str]:
    """The argv prefix of a sandbox nested in this one (see `BwrapSandbox.guard`)."""
    mounts = [Mount(path, hidden=True) for path in hide] + [Mount(path) for path in keep]
    args = [bwrap, "--dev-bind", "/", "/"]  # the session's mounts, its /dev's devices included
    for mount in nested_last(mounts):
        args += mount_args(mount)
    args += _NESTED
    for name in unset:
        args += ["--unsetenv", name]
    return [*args, "--"]


class BwrapSandbox:
    """Runs commands with bubblewrap (see the module docstring for what it isolates)."""

    name = "bwrap"
    passes_fds = True

    def __init__(self, executable: str) -> None:
        self.executable = executable
        #: False when running as root without a pids cgroup: max_procs is then not enforced.
        self.process_limit_enforced = os.geteuid() != 0 or pids_root() is not None

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
    ) -> Execution:
        """Run ``argv`` in ``workdir`` inside a fresh sandbox."""
        check_layout(workdir, mounts)
        command = bwrap_argv(
            argv, workdir=workdir, mounts=mounts, limits=limits, bwrap=self.executable
        )
        max_pids = None if limits.max_procs is None else limits.max_procs + _BWRAP_PROCESSES
        cgroup = open_pids_cgroup(max_pids)
        launch = Launch(
            command, command_env(env), preexec=_preexec(limits, cgroup), pass_fds=tuple(pass_fds)
        )
        try:
            return supervise(launch, limits, stdin)
        finally:
            if cgroup is not None:
                cgroup.close()

    def guard(
        self, hide: Sequence[Path], keep: Sequence[Path], unset: Sequence[str]
    ) -> list[str] | None:
        """The argv prefix that runs one command of a session in a sandbox nested in it:
        ``hide`` emptied, ``keep`` read-only, ``unset`` removed from its environment,
        in its own user, PID and IPC namespaces (so it cannot signal, trace or read
        the processes around it); None when this machine cannot nest sandboxes."""
        if nested_unavailable(self.executable) is not None:
            return None
        return guard_argv(self.executable, hide, keep, unset)


def _preexec(limits: Limits, cgroup: PidsCgroup | None) -> Callable[[], None]:
    set_memory = memory_setter(limits)
    join = cgroup.joiner() if cgroup is not None else None

    def apply() -> None:
        if join is not None:
            join()
        set_memory()

    return apply


def _probe(argv: list[str], executable: str) -> str | None:
    """Why ``argv`` does not run in a trivial sandbox (None when it runs)."""
    probe = bwrap_argv(
        argv, workdir=Path("/"), mounts=[], limits=Limits(max_procs=None), bwrap=executable
    )
    try:
        done = subprocess.run(
            probe, capture_output=True, text=True, env=command_env({}), timeout=30, check=False
        )
    except (OSError, subprocess.TimeoutExpired) as error:
        return str(error)
    if done.returncode != 0:
        return (done.stderr.strip().splitlines()[-1:] or [f"exit code {done.returncode}"])[0]
    return None


@functools.cache
def unavailable() -> str | None:
    """Why bwrap cannot run here (not installed, or it fails to start a trivial sandbox)."""
    executable = shutil.which("bwrap")
    if executable is None:
        return "bubblewrap is not installed (apt-get install bubblewrap)"
    why = _probe(["true"], executable)
    if why is None:
        return None
    return (
        f"bwrap is installed but cannot start a sandbox here ({why}); user namespaces "
        "may be disabled (sysctl user.max_user_namespaces, kernel.unprivileged_userns_clone)"
    )


@functools.cache
def nested_unavailable(executable: str) -> str | None:
    """Why a sandbox cannot be nested in a bwrap sandbox here (None when it can)."""
    why = _probe([*guard_argv(executable, (), (), ()), "true"], executable)
    return None if why is None else f"bwrap cannot nest a sandbox here ({why})"


@register("bwrap", unavailable=unavailable)
def build() -> BwrapSandbox:
    return BwrapSandbox(shutil.which("bwrap") or "bwrap")
