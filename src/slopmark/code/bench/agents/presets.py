"""What the agent-CLI presets share: how one is built, and reading its JSON report.

A `Preset` names a CLI on PATH, its fixed flags and how it takes the prompt;
`Preset.build` makes the `CommandAgent` (with ``--model M`` when the run has a
model) or says how to install the CLI when it is missing. Presets accept the
``env`` and ``home`` options of `command`.
"""

from __future__ import annotations

import json
import shutil
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from typing import Any

from slopmark.code.bench.agents import options as opts
from slopmark.code.bench.agents.command import HOMES, CommandAgent, ReportReader
from slopmark.errors import BadInput

#: The options every preset takes (``--agent-option``).
PRESET_OPTIONS = {
    "env": "extra host variables to pass, comma-separated",
    "home": "private (default: a fresh HOME in the log dir) or host (the CLI's login in ~)",
}


@dataclass(frozen=True)
class Preset:
    """A CLI run as ``{flags} [--model M] {prompt_input}``."""

    name: str
    binary: str
    install_hint: str
    flags: str
    prompt_input: str
    read_report: ReportReader

    def build(self, options: Mapping[str, str]) -> CommandAgent:
        if shutil.which(self.binary) is None:
            raise BadInput(
                f"agent '{self.name}' needs the '{self.binary}' CLI on PATH: {self.install_hint}"
            )
        return CommandAgent(
            name=self.name,
            template=f"{self.binary} {self.flags} --model {{model}} {self.prompt_input}",
            template_without_model=f"{self.binary} {self.flags} {self.prompt_input}",
            extra_env=opts.names(options.get("env")),
            home=opts.choice(self.name, options, "home", HOMES),
            read_report=self.read_report,
        )


def json_objects(stdout: str) -> Iterator[dict[str, Any]]:
    """The JSON objects printed one per line, in order; other lines (logs) are skipped."""
    for line in stdout.splitlines():
        try:
            found = json.loads(line)
        except ValueError:
            continue
        if isinstance(found, dict):
            yield found


def reported_amount(value: Any) -> float | None:
    """A cost from a CLI's JSON report: a number ≥ 0, else None (never a bool)."""
    usable = isinstance(value, int | float) and not isinstance(value, bool) and value >= 0
    return float(value) if usable else None


def reported_count(value: Any) -> int | None:
    """A token or turn count from a CLI's JSON report: an integer ≥ 0, else None."""
    return value if isinstance(value, int) and reported_amount(value) is not None else None
