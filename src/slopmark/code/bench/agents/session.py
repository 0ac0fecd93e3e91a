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

Spending: a step costs what the API reports (``usage.cost``, as OpenRouter
sends), else the price table's price for the model. Once one step's cost or
tokens are unknown the session's total is unknown (None): the cost budget then
cannot apply and the step budget governs.
"""

from __future__ import annotations

import json
import time
from dataclasses import dataclass
from typing import Any, cast

import openai
from openai import OpenAI, omit
from openai.types.chat import (
    ChatCompletion,
    ChatCompletionMessage,
    ChatCompletionMessageFunctionToolCall,
    ChatCompletionMessageParam,
    ChatCompletionToolUnionParam,
)
from openai.types.completion_usage import CompletionUsage

from slopmark.code.bench.agents import textmode
from slopmark.code.bench.agents.base import AgentOutcome, AgentStatus, AgentTask
from slopmark.code.bench.agents.tools import TOOL_SCHEMAS, Toolbox, ToolCall, ToolResult
from slopmark.code.bench.agents.transcript import Transcript
from slopmark.llm.openai_compat import _reported_cost
from slopmark.llm.prices import cost

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

    def add(self, usage: CompletionUsage | None, model: str) -> None:
        tokens_in = usage.prompt_tokens if usage is not None else None
        tokens_out = usage.completion_tokens if usage is not None else None
        step_cost = _reported_cost(usage) if usage is not None else None
        if step_cost is None:
            step_cost = cost(model, tokens_in, tokens_out)
        self.input_tokens = _plus(self.input_tokens, tokens_in)
        self.output_tokens = _plus(self.output_tokens, tokens_out)
        self.cost_usd = _plus(self.cost_usd, step_cost)


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
            task.workspace, task.sandbox, task.limits, self.deadline, settings.command_timeout_s
        )
        self.client = OpenAI(
            base_url=settings.base_url, api_key=settings.api_key, max_retries=settings.max_retries
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

    def _complete(self) -> ChatCompletionMessage:
        try:
            completion = self._request()
        except openai.APIStatusError as error:
            if not self._may_fall_back(error.status_code):
                raise self._failure(error) from error
            self._switch(f"the server rejected tools (HTTP {error.status_code})")
            return self._complete()
        except openai.APIError as error:
            raise self._failure(error) from error
        self.spend.add(completion.usage, self.model)
        self.transcript.write(
            "usage",
            self.steps + 1,
            input_tokens=self.spend.input_tokens,
            output_tokens=self.spend.output_tokens,
            cost_usd=self.spend.cost_usd,
        )
        if not completion.choices:
            raise SessionEnded("error", f"{self.settings.base_url} answered with no choices")
        return completion.choices[0].message

    def _request(self) -> ChatCompletion:
        settings = self.settings
        remaining = self.deadline - time.monotonic()
        tools = cast("list[ChatCompletionToolUnionParam]", list(TOOL_SCHEMAS))
        return self.client.chat.completions.create(
            model=self.model,
            messages=cast("list[ChatCompletionMessageParam]", self.messages),
            tools=tools if self.mode == "native" else omit,
            temperature=settings.temperature if settings.temperature is not None else omit,
            max_tokens=settings.max_tokens if settings.max_tokens is not None else omit,
            timeout=max(1.0, min(settings.request_timeout_s, remaining)),
        )

    def _may_fall_back(self, status: int) -> bool:
        auto_native = self.settings.tool_mode == "auto" and self.mode == "native"
        return auto_native and status in _REJECTS_TOOLS

    def _switch(self, why: str) -> None:
        self.transcript.write("switch", self.steps, to="text", why=why)
        self.mode = "text"
        self._begin()

    def _failure(self, error: openai.APIError) -> SessionEnded:
        if time.monotonic() >= self.deadline:
            return self._timeout()
        where = self.settings.base_url
        if isinstance(error, openai.APIStatusError):
            message = f"HTTP {error.status_code} from {where}: {_flat(error.message)}"
        elif isinstance(error, openai.APITimeoutError):
            message = f"no answer from {where} in {self.settings.request_timeout_s:g}s"
        else:
            message = f"cannot use {where}: {_flat(str(error))}"
        return SessionEnded("error", message)

    def _act_natively(self, reply: ChatCompletionMessage) -> str | None:
        calls = _function_calls(reply)
        self._record(_assistant_message(reply.content, calls))
        if calls:
            return "the model called finish" if self._run_calls(calls) else None
        if self.steps == 1 and self.settings.tool_mode == "auto":
            self._switch("the model's first reply had no tool call")
            return None
        return "the model replied without a tool call"

    def _run_calls(self, calls: list[ChatCompletionMessageFunctionToolCall]) -> bool:
        """Runs every call in order, recording each result; True when one was finish."""
        finished = False
        for call in calls:
            parsed = _parsed(call)
            result = self.toolbox.call(parsed) if parsed is not None else _bad_arguments(call)
            self._record({"role": "tool", "tool_call_id": call.id, "content": result.text})
            finished = finished or result.finished
            self._check_time()
        return finished

    def _act_in_text(self, reply: ChatCompletionMessage) -> str | None:
        text = reply.content or ""
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


def _function_calls(reply: ChatCompletionMessage) -> list[ChatCompletionMessageFunctionToolCall]:
    calls = reply.tool_calls or ()
    return [call for call in calls if isinstance(call, ChatCompletionMessageFunctionToolCall)]


def _assistant_message(
    content: str | None, calls: list[ChatCompletionMessageFunctionToolCall]
) -> dict[str, Any]:
    message: dict[str, Any] = {"role": "assistant", "content": content}
    if calls:
        fields = {"id", "type", "function"}
        message["tool_calls"] = [call.model_dump(include=fields) for call in calls]
    return message


def _parsed(call: ChatCompletionMessageFunctionToolCall) -> ToolCall | None:
    try:
        arguments = json.loads(call.function.arguments or "{}")
    except ValueError:
        return None
    if not isinstance(arguments, dict):
        return None
    return ToolCall(call.function.name, arguments, call.id)


def _bad_arguments(call: ChatCompletionMessageFunctionToolCall) -> ToolResult:
    shown = _flat(call.function.arguments or "")
    name = call.function.name
    return ToolResult(f"error: the arguments of {name} are not a JSON object: {shown}")


def _flat(text: str) -> str:
    flat = " ".join(text.split())
    return flat if len(flat) <= _EXCERPT else flat[: _EXCERPT - 1] + "…"
