"""An agent: writes no code, only the prompt it was given, to NOTES.md (a baseline)."""

import time
from collections.abc import Mapping
from dataclasses import dataclass

from slopmark.code.bench.agents import AgentOutcome, AgentTask, register


@dataclass
class NotesAgent:
    heading: str
    name: str = "notes"

    def run(self, task: AgentTask) -> AgentOutcome:
        started = time.monotonic()
        notes = task.workspace / "NOTES.md"
        notes.write_text(f"# {self.heading}: {task.checkpoint.name}\n\n{task.prompt}\n")
        return AgentOutcome("ok", time.monotonic() - started, steps=1)


@register(
    "notes",
    summary="writes the prompt to NOTES.md and no code (a floor for the scores)",
    options={"heading": "the first line's title (default: Notes)"},
)
def build(options: Mapping[str, str]) -> NotesAgent:
    return NotesAgent(heading=options.get("heading", "Notes"))
