"""``none-unsafe``: run on the host, with only rlimits and the wall clock. No isolation.

For users who explicitly ask (``--sandbox none-unsafe``). What it gives:
the wall clock (the process group is killed), ``RLIMIT_AS``, ``RLIMIT_NPROC``
(not enforced for root; for other users it counts all their processes on the
host), exactly ``env``, and killing the process group when the command ends.

What it does NOT give: the mounts are not enforced (the command can read and
write anything the caller can, anywhere; hidden mounts hide nothing), the
network is always on whatever ``limits.network`` says, the command runs with
the caller's uid and privileges, and a child that starts its own session
escapes the kill.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path

from slopmark.sandbox.base import Execution, Limits, Mount, register
from slopmark.sandbox.layout import check_layout
from slopmark.sandbox.limits import all_limits_setter, command_env
from slopmark.sandbox.supervise import Launch, supervise


def _available() -> str | None:
    return None


@register("none-unsafe", unavailable=_available, safe=False)
class UnsafeSandbox:
    """Runs commands directly on the host (see the module docstring for what it lacks)."""

    name = "none-unsafe"
    passes_fds = True

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
        """Run ``argv`` in ``workdir`` on the host under the rlimits and the wall clock."""
        check_layout(workdir, mounts)
        launch = Launch(
            argv, command_env(env), cwd=workdir, preexec=all_limits_setter(limits),
            pass_fds=tuple(pass_fds),
        )  # fmt: skip
        return supervise(launch, limits, stdin)
