"""The agents of the checkpoint benchmark, and their registry.

Built-ins: `command` (any agent CLI from a command-line template), its presets
`claude-code` and `codex`, `loop` (slopmark's own tool-using agent over an
OpenAI-compatible endpoint) and `replay` (copies the reference solutions).
"""

from slopmark.code.bench.agents.base import (
    Agent,
    AgentOutcome,
    AgentSpec,
    AgentStatus,
    AgentTask,
    agent_specs,
    make_agent,
    register,
)

__all__ = [
    "Agent",
    "AgentOutcome",
    "AgentSpec",
    "AgentStatus",
    "AgentTask",
    "agent_specs",
    "make_agent",
    "register",
]
