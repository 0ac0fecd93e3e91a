"""`loop`: slopmark's own small tool-using agent over any OpenAI-compatible endpoint.

It needs no agent CLI: the model (``--model``) works in the workspace through
the tools of `slopmark.code.bench.agents.tools` (shell in the sandbox, file
tools, finish), as native function calls or, for models that cannot make
them, the text protocol of `textmode`. How a session runs and stops is told
in `slopmark.code.bench.agents.session`; every message and tool result is
recorded in ``transcript.jsonl`` in the log dir.

Options (``--agent-option key=value``):

- ``base_url``: the endpoint (default: ``$OPENAI_BASE_URL``, else OpenAI's);
- ``api_key``, or ``api_key_env`` (the variable holding it); default: the first
  of ``$SLOPMARK_API_KEY`` / ``$OPENAI_API_KEY``, else a placeholder for servers
  without auth (llama.cpp, vLLM, Ollama);
- ``max_steps`` (40): model calls at most;
- ``max_cost`` (2.0): USD; the session stops once it has spent more;
- ``tool_mode`` (auto): auto, native or text;
- ``temperature``, ``max_tokens``: sent only when given;
- ``command_timeout`` (120): seconds per shell command;
- ``request_timeout`` (600): seconds per model call;
- ``max_retries`` (2): the OpenAI SDK's retries of 429, 5xx and connection errors.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from dataclasses import dataclass

from slopmark.code.bench.agents import options as opts
from slopmark.code.bench.agents.base import AgentOutcome, AgentTask, register
from slopmark.code.bench.agents.session import LoopSettings, Session
from slopmark.llm.keys import named_key, resolve_api_key, wire_key

OPENAI_BASE_URL = "https://api.openai.com/v1"
TOOL_MODES = ("auto", "native", "text")
_OPTIONS = {
    "base_url": "the OpenAI-compatible endpoint (default: $OPENAI_BASE_URL, else OpenAI)",
    "api_key": "the API key (default: $SLOPMARK_API_KEY or $OPENAI_API_KEY)",
    "api_key_env": "the environment variable holding the API key",
    "max_steps": "model calls at most (default 40)",
    "max_cost": "USD the session may spend (default 2.0); unknown prices: steps govern",
    "tool_mode": "auto (default), native (function calling) or text (fenced blocks)",
    "temperature": "sampling temperature (default: the server's)",
    "max_tokens": "tokens per reply at most (default: the server's)",
    "command_timeout": "seconds per shell command (default 120)",
    "request_timeout": "seconds per model call (default 600)",
    "max_retries": "retries of 429, 5xx and connection errors (default 2)",
}


@dataclass  # not frozen: the Agent protocol declares `name` a plain attribute
class LoopAgent:
    settings: LoopSettings
    name: str = "loop"

    def run(self, task: AgentTask) -> AgentOutcome:
        if task.model is None:
            message = "agent 'loop' needs a model: pass --model (the name the endpoint serves)"
            return AgentOutcome("error", 0.0, error=message)
        return Session(task, self.settings, task.model).run()


def _api_key(options: Mapping[str, str]) -> str:
    variable = options.get("api_key_env")
    if variable is not None:
        return named_key(variable, os.environ, "agent 'loop': option api_key_env")
    return wire_key(resolve_api_key(options.get("api_key"), os.environ))


def settings_from(options: Mapping[str, str]) -> LoopSettings:
    """`LoopSettings` from ``--agent-option`` strings; BadInput names a bad one."""
    return LoopSettings(
        base_url=options.get("base_url") or os.environ.get("OPENAI_BASE_URL") or OPENAI_BASE_URL,
        api_key=_api_key(options),
        max_steps=opts.number("loop", options, "max_steps", int, 40, 1),
        max_cost=opts.number("loop", options, "max_cost", float, 2.0, 0.0),
        tool_mode=opts.choice("loop", options, "tool_mode", TOOL_MODES),
        temperature=opts.optional_number("loop", options, "temperature", float, 0.0),
        max_tokens=opts.optional_number("loop", options, "max_tokens", int, 1),
        command_timeout_s=opts.number("loop", options, "command_timeout", float, 120.0, 1.0),
        request_timeout_s=opts.number("loop", options, "request_timeout", float, 600.0, 1.0),
        max_retries=opts.number("loop", options, "max_retries", int, 2, 0),
    )


@register(
    "loop",
    summary="slopmark's own tool-using agent over any OpenAI-compatible endpoint",
    options=dict(_OPTIONS),
)
def build(options: Mapping[str, str]) -> LoopAgent:
    return LoopAgent(settings_from(options))
