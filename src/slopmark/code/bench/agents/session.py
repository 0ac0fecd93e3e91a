"""One checkpoint's conversation of the `loop` agent with its model.

The conversation starts with a system prompt (the tools, the workspace) and the
rendered prompt as the user message, then alternates model replies and tool
results until the model finishes (the ``finish`` tool, or a reply with no tool
call), the step budget or the cost budget is used up (status "ok": the
workspace is tested as it is; the reason is in the transcript), the wall clock
runs out ("timeout") or the provider fails ("error", with its message).

Tool mode "native" offers the tools as OpenAI function calls; "text" uses the
fenced-block protocol of `textmode`. In "auto" the session starts native and
switches to text, starting the conversation afresh, when the server rejects
``tools`` (HTTP 400, 422 or 501) or the model's first reply has no tool call.

The model is called through `slopmark.llm.client.ModelClient` (its retry
policy: 429, 5xx and connection failures are retried ``max_retries`` times,
honouring Retry-After).

Spending: a step costs what the API reports (``usage.cost``, as OpenRouter
sends), else the price table's price for the model (`slopmark.llm.prices.usage_numbers`).
Once one step's cost or tokens are unknown the session's total is unknown
(None): the cost budget then cannot apply and the step budget governs.
"""

from __future__ import annotations

import json
import time
from dataclasses import dataclass
from typing import Any

from slopmark.code.bench.agents import textmode
from slopmark.code.bench.agents.base import AgentOutcome, AgentStatus, AgentTask
from slopmark.code.bench.agents.tools import TOOL_SCHEMAS, Toolbox, ToolCall, ToolResult
from slopmark.code.bench.agents.transcript import Transcript
from slopmark.llm.base import ProviderError
from slopmark.llm.client import ModelClient, Reply, ToolRequest

TRANSCRIPT = "transcript.jsonl"
_REJECTS_TOOLS = frozenset({400, 422, 501})
_EXCERPT = 300


@dataclass(frozen=True)
class LoopSettings:
    """The `loop` agent's options (see `slopmark.code.bench.agents.loop`)."""

    base_url: str
    api_key: str
    max_steps: int = 40
    max_cost: float = 2.0
    tool_mode: str = "auto"
    temperature: float | None = None
    max_tokens: int | None = None
    command_timeout_s: float = 120.0
    request_timeout_s: float = 600.0
    max_retries: int = 2


@dataclass
class Spend:
    """Running totals; None once any step's number was unknown."""

    input_tokens: int | None = 0
    output_tokens: int | None = 0
    cost_usd: float | None = 0.0

    def add(self, reply: Reply) -> None:
        self.input_tokens = _plus(self.input_tokens, reply.input_tokens)
        self.output_tokens = _plus(self.output_tokens, reply.output_tokens)
        self.cost_usd = _plus(self.cost_usd, reply.cost_usd)


def _plus(total: Any, step: Any) -> Any:
    return None if total is None or step is None else total + step


class SessionEnded(Exception):
    """The session must stop now, with ``status`` and ``message``."""

    def __init__(self, status: AgentStatus, message: str) -> None:
        super().__init__(message)
        self.status = status
        self.message = message


class Session:
    """The state of one conversation; `run` drives it to an `AgentOutcome`."""

    def __init__(self, task: AgentTask, settings: LoopSettings, model: str) -> None:
        self.task, self.settings, self.model = task, settings, model
        self.started = time.monotonic()
        self.deadline = self.started + task.limits.wall_s
        self.mode = "text" if settings.tool_mode == "text" else "native"
        self.steps = 0
        self.spend = Spend()
        self.messages: list[dict[str, Any]] = []
        self.toolbox = Toolbox(
            task.workspace, task.sandbox, task.limits, self.deadline, settings.command_timeout_s,
            task.hidden,
        )  # fmt: skip
        self.client = ModelClient(
            settings.base_url,
            settings.api_key,
            settings.request_timeout_s,
            settings.max_retries,
        )
        self.transcript = Transcript(task.log_dir / TRANSCRIPT)

    def run(self) -> AgentOutcome:
        with self.transcript, self.client:
            self._begin()
            status: AgentStatus = "ok"
            error = None
            try:
                reason = self._converse()
            except SessionEnded as ended:
                status, error, reason = ended.status, ended.message, ended.message
            self.transcript.write("stop", self.steps, status=status, reason=reason)
        return AgentOutcome(
            status,
            time.monotonic() - self.started,
            error,
            self.spend.cost_usd,
            self.spend.input_tokens,
            self.spend.output_tokens,
            self.steps,
        )

    def _begin(self) -> None:
        self.messages = []
        self._record({"role": "system", "content": self._system_prompt()})
        self._record({"role": "user", "content": self.task.prompt})

    def _system_prompt(self) -> str:
        entry = self.task.problem.entry_script
        if self.mode == "text":
            return textmode.system_prompt(entry)
        return (
            "You are a programmer working alone in a workspace folder, through tools: shell"
            " (runs a command in the workspace, no network), write_file, read_file,"
            " list_files, edit_file, and finish. File paths are relative to the workspace."
            f" The program is run as `python {entry}` there. Check that it works by running"
            " it, fix what fails, and call finish when it is complete."
        )

    def _converse(self) -> str:
        """Steps until the model stops; returns why (SessionEnded for timeouts and failures)."""
        while True:
            if self.steps >= self.settings.max_steps:
                return f"the step budget ({self.settings.max_steps} steps) is used up"
            spent = self.spend.cost_usd
            if spent is not None and spent > self.settings.max_cost:
                return f"the cost budget (${self.settings.max_cost:g}) is used up (${spent:.4f})"
            self._check_time()
            reply = self._complete()
            self.steps += 1
            ended = self._act_natively(reply) if self.mode == "native" else self._act_in_text(reply)
            if ended is not None:
                return ended

    def _complete(self) -> Reply:
        try:
            reply = self._request()
        except ProviderError as error:
            if error.status is None or not self._may_fall_back(error.status):
                raise self._failure(error) from error
            self._switch(f"the server rejected tools (HTTP {error.status})")
            return self._complete()
        self.spend.add(reply)
        self.transcript.write(
            "usage",
            self.steps + 1,
            input_tokens=self.spend.input_tokens,
            output_tokens=self.spend.output_tokens,
            cost_usd=self.spend.cost_usd,
        )
        return reply

    def _request(self) -> Reply:
        settings = self.settings
        remaining = self.deadline - time.monotonic()
        return self.client.chat(
            self.model,
            self.messages,
            tools=TOOL_SCHEMAS if self.mode == "native" else None,
            temperature=settings.temperature,
            max_tokens=settings.max_tokens,
            timeout_s=max(1.0, min(settings.request_timeout_s, remaining)),
        )

    def _may_fall_back(self, status: int) -> bool:
        auto_native = self.settings.tool_mode == "auto" and self.mode == "native"
        return auto_native and status in _REJECTS_TOOLS

    def _switch(self, why: str) -> None:
        self.transcript.write("switch", self.steps, to="text", why=why)
        self.mode = "text"
        self._begin()

    def _failure(self, error: ProviderError) -> SessionEnded:
        if time.monotonic() >= self.deadline:
            return self._timeout()
        return SessionEnded("error", str(error))

    def _act_natively(self, reply: Reply) -> str | None:
        calls = list(reply.tool_calls)
        self._record(_assistant_message(reply.text, calls))
        if calls:
            return "the model called finish" if self._run_calls(calls) else None
        if self.steps == 1 and self.settings.tool_mode == "auto":
            self._switch("the model's first reply had no tool call")
            return None
        return "the model replied without a tool call"

    def _run_calls(self, calls: list[ToolRequest]) -> bool:
        """Runs every call in order, recording each result; True when one was finish."""
        finished = False
        for call in calls:
            parsed = _parsed(call)
            result = self.toolbox.call(parsed) if parsed is not None else _bad_arguments(call)
            self._record({"role": "tool", "tool_call_id": call.id, "content": result.text})
            finished = finished or result.finished
            self._check_time()
        return finished

    def _act_in_text(self, reply: Reply) -> str | None:
        text = reply.text or ""
        self._record({"role": "assistant", "content": text})
        calls = textmode.actions(text, self.task.problem.entry_script)
        if not calls:
            return "the model replied without any block"
        results = []
        for call in calls:
            results.append(self.toolbox.call(call))
            self._check_time()
        self._record({"role": "user", "content": textmode.results_message(calls, results)})
        return None

    def _record(self, message: dict[str, Any]) -> None:
        self.messages.append(message)
        self.transcript.write("message", self.steps, mode=self.mode, message=message)

    def _check_time(self) -> None:
        if time.monotonic() >= self.deadline:
            raise self._timeout()

    def _timeout(self) -> SessionEnded:
        return SessionEnded("timeout", f"the {self.task.limits.wall_s:g}s wall clock ran out")


def _assistant_message(content: str | None, calls: list[ToolRequest]) -> dict[str, Any]:
    message: dict[str, Any] = {"role": "assistant", "content": content}
    if calls:
        message["tool_calls"] = [call.wire() for call in calls]
    return message


def _parsed(call: ToolRequest) -> ToolCall | None:
    try:
        arguments = json.loads(call.arguments or "{}")
    except ValueError:
        return None
    if not isinstance(arguments, dict):
        return None
    return ToolCall(call.name, arguments, call.id)


def _bad_arguments(call: ToolRequest) -> ToolResult:
    shown = _flat(call.arguments or "")
    name = call.name
    return ToolResult(f"error: the arguments of {name} are not a JSON object: {shown}")


def _flat(text: str) -> str:
    flat = " ".join(text.split())
    return flat if len(flat) <= _EXCERPT else flat[: _EXCERPT - 1] + "…"
