"""`claude-code`: Anthropic's Claude Code CLI in print mode, as a `command` preset.

Runs ``claude -p --output-format json --dangerously-skip-permissions
[--model M] < prompt.md`` in the workspace: ``-p`` (print mode) reads the prompt
from stdin, works until done and exits; permission prompts are skipped since
nobody is there to answer them and the sandbox is the boundary. Claude Code
refuses that flag when run as root outside a sandbox it recognises; run it in
the bwrap or Docker sandbox, which drop root.

``--output-format json`` prints one result object at the end::

    {"type": "result", "subtype": "success", "is_error": false, "num_turns": 6,
     "result": "...", "total_cost_usd": 0.0342,
     "usage": {"input_tokens": 12, "cache_creation_input_tokens": 5120,
               "cache_read_input_tokens": 20480, "output_tokens": 830}, ...}

Read into the outcome: cost = ``total_cost_usd`` (``cost_usd`` in older
versions), input tokens = ``input_tokens`` + both cache counts (Anthropic's
``input_tokens`` leaves out cached ones), output tokens, steps = ``num_turns``.
``is_error`` true (e.g. subtype ``error_max_turns``) makes the status "error".
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from slopmark.code.bench.agents.base import register
from slopmark.code.bench.agents.command import CommandAgent, Report
from slopmark.code.bench.agents.presets import (
    PRESET_OPTIONS,
    Preset,
    json_objects,
    reported_amount,
    reported_count,
)

_INPUT_KEYS = ("input_tokens", "cache_creation_input_tokens", "cache_read_input_tokens")


def read_claude_report(stdout: str, model: str | None = None) -> Report | None:
    """The result object Claude Code printed last on stdout, as a `Report`."""
    results = [found for found in json_objects(stdout) if found.get("type") == "result"]
    if not results:
        return None
    result = results[-1]
    usage = result.get("usage")
    usage = usage if isinstance(usage, dict) else {}
    error = None
    if result.get("is_error"):
        error = f"claude: {result.get('subtype', 'error')}: {result.get('result', '')}".strip()
    return Report(
        cost_usd=reported_amount(result.get("total_cost_usd", result.get("cost_usd"))),
        input_tokens=_input_tokens(usage),
        output_tokens=reported_count(usage.get("output_tokens")),
        steps=reported_count(result.get("num_turns")),
        error=error,
    )


def _input_tokens(usage: dict[str, Any]) -> int | None:
    if reported_count(usage.get("input_tokens")) is None:
        return None
    return sum(reported_count(usage.get(key)) or 0 for key in _INPUT_KEYS)


CLAUDE_CODE = Preset(
    name="claude-code",
    binary="claude",
    install_hint="npm install -g @anthropic-ai/claude-code",
    flags="-p --output-format json --dangerously-skip-permissions",
    prompt_input="< {prompt_file}",
    read_report=read_claude_report,
)


@register(
    "claude-code",
    summary="Claude Code in print mode (claude -p --output-format json)",
    options=dict(PRESET_OPTIONS),
)
def build(options: Mapping[str, str]) -> CommandAgent:
    return CLAUDE_CODE.build(options)
