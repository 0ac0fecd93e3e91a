"""`replay`: no model; the workspace becomes the checkpoint's reference solution.

It empties the workspace and copies ``problem.solution_dir(checkpoint)`` into
it, so a run with ``--agent replay`` checks the harness, the hidden tests and
the measures against known-good code. A checkpoint without a reference solution
ends with status "error" and an untouched workspace. No model is involved:
cost, tokens and steps are None.
"""

from __future__ import annotations

import shutil
import time
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path

from slopmark.code.bench.agents.base import AgentOutcome, AgentTask, register


@dataclass  # not frozen: the Agent protocol declares `name` a plain attribute
class ReplayAgent:
    name: str = "replay"

    def run(self, task: AgentTask) -> AgentOutcome:
        started = time.monotonic()
        source = task.problem.solution_dir(task.checkpoint)
        if source is None:
            message = (
                f"problem '{task.problem.name}' has no reference solution for"
                f" {task.checkpoint.name} (looked for solutions/{task.checkpoint.name}/)"
            )
            return AgentOutcome("error", time.monotonic() - started, error=message)
        replace_contents(task.workspace, source)
        return AgentOutcome("ok", time.monotonic() - started)


def replace_contents(workspace: Path, source: Path) -> None:
    """Make ``workspace`` hold exactly what ``source`` holds (the folder itself is kept)."""
    workspace.mkdir(parents=True, exist_ok=True)
    for entry in workspace.iterdir():
        if entry.is_dir() and not entry.is_symlink():
            shutil.rmtree(entry)
        else:
            entry.unlink()
    shutil.copytree(source, workspace, dirs_exist_ok=True, symlinks=True)


@register(
    "replay",
    summary="copies each checkpoint's reference solution (no model; checks the harness)",
    replays=True,
)
def build(options: Mapping[str, str]) -> ReplayAgent:
    return ReplayAgent()
