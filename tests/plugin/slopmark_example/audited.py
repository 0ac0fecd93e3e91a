"""A sandbox: bubblewrap, with every command appended to the file $AUDIT_LOG (if set)."""

import os
import shlex
from collections.abc import Mapping, Sequence
from pathlib import Path

from slopmark.sandbox import Execution, Limits, Mount, choose_sandbox, register
from slopmark.sandbox.base import unavailable_reason


@register("audited-bwrap", unavailable=lambda: unavailable_reason("bwrap"))
class AuditedSandbox:
    name = "audited-bwrap"

    def __init__(self) -> None:
        self.inner = choose_sandbox("bwrap")

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
        log = os.environ.get("AUDIT_LOG")
        if log:
            with open(log, "a", encoding="utf-8") as out:
                out.write(f"{workdir}\t{shlex.join(argv)}\n")
        return self.inner.run(
            argv, workdir=workdir, mounts=mounts, limits=limits, env=env, stdin=stdin
        )
