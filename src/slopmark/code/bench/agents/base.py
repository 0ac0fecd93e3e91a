"""What every agent takes and returns, and the registry of agents.

An agent gets one checkpoint's prompt and the workspace as the previous
checkpoint left it, works in the workspace (inside the sandbox it is given),
and reports what it spent. It never sees the tests or the solutions.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Literal, Protocol

from slopmark.code.bench.agents.options import check_keys
from slopmark.code.bench.problem import Checkpoint, Problem
from slopmark.registry import Registry
from slopmark.sandbox.base import Limits, Sandbox

AgentStatus = Literal["ok", "error", "timeout"]


@dataclass(frozen=True)
class AgentTask:
    problem: Problem
    checkpoint: Checkpoint
    #: The rendered prompt (spec inside the chosen template).
    prompt: str
    is_continuation: bool
    workspace: Path
    #: Where the agent may keep transcripts and logs (outside the workspace).
    log_dir: Path
    model: str | None
    sandbox: Sandbox
    limits: Limits
    #: Host folders the agent's sandbox hides (the problems, the run folder); its
    #: workspace and log dir, inside them, stay visible.
    hidden: tuple[Path, ...] = ()


@dataclass(frozen=True)
class AgentOutcome:
    """What one checkpoint's agent session did. Unknown numbers are None, never 0."""

    status: AgentStatus
    wall_s: float
    error: str | None = None
    cost_usd: float | None = None
    input_tokens: int | None = None
    output_tokens: int | None = None
    steps: int | None = None


class Agent(Protocol):
    name: str

    def run(self, task: AgentTask) -> AgentOutcome:
        """Work on ``task.workspace``; never raises for what the agent did."""
        ...


@dataclass(frozen=True)
class AgentSpec:
    """How to build an agent from the CLI's options (``--agent``, ``--agent-option k=v``)."""

    name: str
    build: Callable[[Mapping[str, str]], Agent]
    summary: str
    #: True when the agent only copies reference solutions (no model involved).
    replays: bool = False
    #: Option key → what it sets; `make_agent` rejects any other key.
    options: dict[str, str] = field(default_factory=dict)


#: Every agent by name: the modules of this package, then the entry points of
#: ``slopmark.agents``.
AGENTS: Registry[AgentSpec] = Registry("agent", "slopmark.code.bench.agents", declare=AgentSpec)
#: ``@register("name", summary=..., options=..., replays=...)`` on the function building
#: the agent from its options (the fields of `AgentSpec`).
register = AGENTS.register


def agent_specs() -> dict[str, AgentSpec]:
    return AGENTS.items()


def make_agent(name: str, options: Mapping[str, str]) -> Agent:
    """The agent ``name``; a command line with ``{prompt_file}`` becomes a `command` agent."""
    specs = agent_specs()
    if name in specs:
        return _build(specs[name], options)
    if "{prompt_file}" in name or "{prompt}" in name:
        return _build(specs["command"], {**options, "template": name})
    raise AGENTS.unknown(name, specs, extra="or give a command line containing {prompt_file}")


def _build(spec: AgentSpec, options: Mapping[str, str]) -> Agent:
    check_keys(spec.name, options, spec.options)
    return spec.build(options)
