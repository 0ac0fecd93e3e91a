"""A real OpenAI-compatible HTTP server for tests, on 127.0.0.1 with an ephemeral port.

Use it through the ``openai_server`` fixture; import it in a conftest::

    from fakes.openai_server import openai_server  # noqa: F401  (the fixture)

(in a test module, ``openai_server = fake.openai_server`` after
``from fakes import openai_server as fake`` avoids ruff's F811).

The fixture yields a started `FakeOpenAIServer` and stops it afterwards:

- ``server.base_url`` is ``http://127.0.0.1:PORT/v1``: give it to any OpenAI client.
- ``server.answer`` is a function ``(messages: list[dict]) -> str`` making the
  assistant's text. The default echoes the last user message.
  ``server.answer_from({"question": "answer"})`` answers by the last user
  message from a table and echoes what the table does not hold.
- ``server.enqueue(Behaviour(...), ...)`` scripts the next requests, one
  behaviour each, in order; once the queue is empty ``server.default``
  (a plain 200 answer unless you assign another) serves every request.
- ``server.requests`` lists the JSON bodies received (a retry is a new
  entry), ``server.request_count`` counts them; ``server.authorizations``
  lists each request's ``Authorization`` header ("" when absent), in order.

A `Behaviour` can: answer with an HTTP error (``status=429, retry_after="1"``,
``status=500``, ``status=400``), sleep before answering (``delay_s``, to
trigger client timeouts), pace stream chunks (``chunk_delay_s``), add
``usage.cost`` (``cost=0.0012``), leave usage out of streams
(``stream_usage=False``, as llama-cpp-python's server does), a top-level ``provider`` field
(``provider="Groq"``), set ``finish_reason`` (e.g. ``"length"``), and cut the
connection in the middle of a stream (``drop_after_chunks=2``). It can also script
the assistant's turn itself: ``text="..."`` replaces ``server.answer`` for that
request, and ``tool_calls=(ToolCall("write_file", {"path": "a.py"}), ...)`` answers
with native function calls (``message.tool_calls`` in a whole answer; in a stream,
one delta naming each call, then its arguments in pieces). With tool calls and no
``text`` the message's ``content`` is null, and ``finish_reason`` ``"stop"`` becomes
``"tool_calls"``, as OpenAI sends. Arguments given as a string are sent verbatim
(e.g. broken JSON); ids are ``call_0``, ``call_1``, … per answer.

Legacy completions (``POST /v1/completions``) serve prompt log-probabilities the
way llama.cpp's server and vLLM do for ``echo=True, logprobs=N``: ``server.logprobs``
is a function ``(prompt: str) -> list[(token, logprob)]`` whose tokens, joined, are
the prompt (the default, `word_logprobs`, cuts the prompt into words with their
leading whitespace: -4.0 for a word new in the prompt, -0.5 for a repeated one, a
crude stand-in for a language model that copies what it has seen). The answer's
``choices[0].logprobs`` carries ``tokens``, ``token_logprobs`` (None for the first
token, as OpenAI sends) and ``text_offset``; with ``max_tokens`` ≥ 1 one generated token
(``server.generated_token``, at -0.5) follows the prompt, in ``text`` too. Without
``echo`` only the generated token is returned.

Chat answers can depend on the request's content: ``server.answer_matching({"needle":
"answer"})`` answers with the first entry whose needle occurs in the last user
message's text (text parts of a multi-part message are joined; `message_text`), and
echoes otherwise; ``server.answer_routing`` does the same with entries that may also be
functions ``(messages) -> str`` (a scripted reviewer that reads the request).
``server.image_requests`` counts chat requests carrying an ``image_url`` part.

Only these two routes exist. With ``"stream": true`` the answer is
sent as SSE chunks (one per word), a last choice chunk carrying
``finish_reason``, a usage chunk with empty ``choices`` when
``stream_options.include_usage`` is set, then ``data: [DONE]``. Otherwise one
``chat.completion`` JSON with ``usage``. Token counts are deterministic:
``prompt_tokens`` = whitespace-separated words of all messages' content + 3 per
message, ``completion_tokens`` = words of the answer plus words of each tool call's
JSON arguments.
"""

from __future__ import annotations

import json
import re
import threading
import time
from collections import deque
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

import pytest

Answer = Callable[[list[dict[str, Any]]], str]
#: ``prompt -> [(token, logprob), ...]``; the tokens joined must give the prompt back.
Logprobs = Callable[[str], list[tuple[str, float]]]


@dataclass(frozen=True)
class ToolCall:
    """One native function call the scripted assistant makes."""

    name: str
    arguments: dict[str, Any] | str = field(default_factory=dict)

    @property
    def arguments_json(self) -> str:
        return self.arguments if isinstance(self.arguments, str) else json.dumps(self.arguments)

    def wire(self, index: int) -> dict[str, Any]:
        function = {"name": self.name, "arguments": self.arguments_json}
        return {"id": f"call_{index}", "type": "function", "function": function}


@dataclass(frozen=True)
class Behaviour:
    """How the server answers one request (defaults: a plain, instant 200)."""

    status: int = 200
    retry_after: str | None = None
    error_message: str = "scripted failure"
    delay_s: float = 0.0
    chunk_delay_s: float = 0.0
    cost: float | None = None
    provider: str | None = None
    finish_reason: str = "stop"
    drop_after_chunks: int | None = None
    extra_usage: dict[str, Any] = field(default_factory=dict)
    stream_usage: bool = True  # False: ignore stream_options.include_usage, as llama.cpp does
    text: str | None = None  # the assistant's text for this request instead of server.answer
    tool_calls: tuple[ToolCall, ...] = ()

    @property
    def finish(self) -> str:
        """The finish_reason sent: "tool_calls" for a plain answer carrying tool calls."""
        scripted_stop = self.tool_calls and self.finish_reason == "stop"
        return "tool_calls" if scripted_stop else self.finish_reason


def echo_last_user(messages: list[dict[str, Any]]) -> str:
    """The default answer: the content of the last user message."""
    users = [m for m in messages if m.get("role") == "user"]
    return str(users[-1].get("content", "")) if users else ""


def message_text(message: dict[str, Any]) -> str:
    """A message's text: its string content, or its text parts joined by newlines."""
    content = message.get("content")
    if isinstance(content, list):
        texts = [str(part.get("text", "")) for part in content if part.get("type") == "text"]
        return "\n".join(texts)
    return str(content or "")


def last_user_text(messages: list[dict[str, Any]]) -> str:
    users = [m for m in messages if m.get("role") == "user"]
    return message_text(users[-1]) if users else ""


def has_image(body: dict[str, Any]) -> bool:
    """Does any message carry an ``image_url`` content part?"""
    for message in body.get("messages", []):
        content = message.get("content")
        if isinstance(content, list) and any(p.get("type") == "image_url" for p in content):
            return True
    return False


def word_logprobs(prompt: str) -> list[tuple[str, float]]:
    """The default scorer: words with their leading whitespace; repeated words are likelier."""
    seen: set[str] = set()
    scored = []
    for token in re.findall(r"\s*\S+|\s+$", prompt):
        scored.append((token, -0.5 if token.strip() in seen else -4.0))
        seen.add(token.strip())
    return scored


def _words(text: str) -> int:
    return len(text.split())


def _usage(messages: list[dict[str, Any]], answer: str, step: Behaviour) -> dict[str, Any]:
    prompt = sum(_words(str(m.get("content") or "")) + 3 for m in messages)
    completion = _words(answer) + sum(_words(call.arguments_json) for call in step.tool_calls)
    usage: dict[str, Any] = {
        "prompt_tokens": prompt,
        "completion_tokens": completion,
        "total_tokens": prompt + completion,
    }
    if step.cost is not None:
        usage["cost"] = step.cost
    return usage | step.extra_usage


class FakeOpenAIServer:
    """The server and its script; see the module docstring."""

    def __init__(self) -> None:
        self.answer: Answer = echo_last_user
        self.logprobs: Logprobs = word_logprobs
        self.generated_token = " the"
        self.default = Behaviour()
        self.requests: list[dict[str, Any]] = []
        self.authorizations: list[str] = []
        self._queue: deque[Behaviour] = deque()
        self._lock = threading.Lock()
        self.stopping = threading.Event()
        self._httpd = _Server(("127.0.0.1", 0), _Handler)
        self._httpd.fake = self
        self._thread = threading.Thread(target=self._httpd.serve_forever, args=(0.05,))
        self._thread.daemon = True

    @property
    def base_url(self) -> str:
        host, port = self._httpd.server_address[:2]
        return f"http://{host!s}:{port}/v1"

    @property
    def request_count(self) -> int:
        with self._lock:
            return len(self.requests)

    def answer_from(self, table: dict[str, str]) -> None:
        """Answer by the last user message from ``table``; echo what it lacks."""
        self.answer = lambda messages: table.get(echo_last_user(messages), echo_last_user(messages))

    def answer_matching(self, table: dict[str, str]) -> None:
        """Answer with the first entry whose key occurs in the last user message's text."""

        def answer(messages: list[dict[str, Any]]) -> str:
            text = last_user_text(messages)
            found = (reply for needle, reply in table.items() if needle in text)
            return next(found, echo_last_user(messages))

        self.answer = answer

    def answer_routing(self, table: dict[str, str | Answer]) -> None:
        """Like `answer_matching`, but an entry may be a function of the messages."""

        def answer(messages: list[dict[str, Any]]) -> str:
            text = last_user_text(messages)
            found = (reply for needle, reply in table.items() if needle in text)
            reply = next(found, echo_last_user)
            return reply if isinstance(reply, str) else reply(messages)

        self.answer = answer

    @property
    def image_requests(self) -> int:
        with self._lock:
            return sum(has_image(body) for body in self.requests)

    def enqueue(self, *steps: Behaviour) -> None:
        with self._lock:
            self._queue.extend(steps)

    def take(self, body: dict[str, Any]) -> Behaviour:
        """Record one request and return the behaviour that serves it."""
        with self._lock:
            self.requests.append(body)
            return self._queue.popleft() if self._queue else self.default

    def start(self) -> FakeOpenAIServer:
        self._thread.start()
        return self

    def stop(self) -> None:
        self.stopping.set()
        self._httpd.shutdown()
        self._httpd.server_close()
        self._thread.join(timeout=5)


class _Server(ThreadingHTTPServer):
    daemon_threads = True
    request_queue_size = 256  # many clients connect at once (the default 5 drops SYNs)
    fake: FakeOpenAIServer


class _Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    server: _Server

    def log_message(self, format: str, *args: Any) -> None:
        """Keep test output quiet."""

    def do_POST(self) -> None:
        length = int(self.headers.get("Content-Length") or 0)
        body = json.loads(self.rfile.read(length) or b"{}")
        route = self.path.rstrip("/")
        if route not in ("/v1/chat/completions", "/v1/completions"):
            self._send_json(404, {"error": {"message": f"no route {self.path}"}})
            return
        fake = self.server.fake
        with fake._lock:
            fake.authorizations.append(self.headers.get("Authorization", ""))
        step = fake.take(body)
        if step.delay_s and fake.stopping.wait(step.delay_s):
            return
        try:
            if route == "/v1/completions":
                self._serve_legacy(fake, body, step)
            else:
                self._serve(fake, body, step)
        except (BrokenPipeError, ConnectionResetError):
            self.close_connection = True  # the client gave up (e.g. timed out)

    def _serve_legacy(self, fake: FakeOpenAIServer, body: dict[str, Any], step: Behaviour) -> None:
        if step.status != 200:
            self._send_error(step)
        else:
            self._send_json(200, _legacy_completion(fake, body, step))

    def _serve(self, fake: FakeOpenAIServer, body: dict[str, Any], step: Behaviour) -> None:
        if step.status != 200:
            self._send_error(step)
            return
        messages = list(body.get("messages", []))
        scripted = step.text is not None or bool(step.tool_calls)
        answer = (step.text or "") if scripted else fake.answer(messages)
        if body.get("stream"):
            self._stream(body, messages, answer, step)
        else:
            self._send_json(200, _completion(body, messages, answer, step))

    def _send_error(self, step: Behaviour) -> None:
        headers = {"Retry-After": step.retry_after} if step.retry_after is not None else {}
        error = {"message": step.error_message, "type": "scripted", "code": step.status}
        self._send_json(step.status, {"error": error}, headers)

    def _send_json(self, status: int, payload: Any, headers: dict[str, str] | None = None) -> None:
        data = json.dumps(payload).encode()
        self.send_response(status)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(data)))
        for name, value in (headers or {}).items():
            self.send_header(name, value)
        self.end_headers()
        self.wfile.write(data)

    def _stream(
        self, body: dict[str, Any], messages: list[dict[str, Any]], answer: str, step: Behaviour
    ) -> None:
        self.send_response(200)
        self.send_header("Content-Type", "text/event-stream")
        self.send_header("Transfer-Encoding", "chunked")
        self.end_headers()
        for sent, event in enumerate(_events(body, messages, answer, step)):
            if sent == step.drop_after_chunks:
                self.close_connection = True
                return
            self._write_chunk(f"data: {event}\n\n".encode())
            if step.chunk_delay_s:
                time.sleep(step.chunk_delay_s)
        self._write_chunk(b"")

    def _write_chunk(self, data: bytes) -> None:
        self.wfile.write(f"{len(data):x}\r\n".encode() + data + b"\r\n")
        self.wfile.flush()


def _envelope(body: dict[str, Any], step: Behaviour, kind: str) -> dict[str, Any]:
    head = {"id": "chatcmpl-fake", "object": kind, "created": int(time.time())}
    head["model"] = body.get("model", "fake")
    return head | ({"provider": step.provider} if step.provider else {})


def _completion(
    body: dict[str, Any], messages: list[dict[str, Any]], answer: str, step: Behaviour
) -> dict[str, Any]:
    message: dict[str, Any] = {"role": "assistant", "content": answer}
    if step.tool_calls:
        message["content"] = step.text
        message["tool_calls"] = [call.wire(index) for index, call in enumerate(step.tool_calls)]
    choice = {"index": 0, "message": message, "finish_reason": step.finish}
    usage = _usage(messages, answer, step)
    return _envelope(body, step, "chat.completion") | {"choices": [choice], "usage": usage}


def _legacy_completion(
    fake: FakeOpenAIServer, body: dict[str, Any], step: Behaviour
) -> dict[str, Any]:
    """A ``text_completion`` with ``logprobs`` for the echoed prompt and one generated token."""
    prompt = body.get("prompt", "")
    prompt = prompt[0] if isinstance(prompt, list) else str(prompt)
    echoed = fake.logprobs(prompt) if body.get("echo") else []
    generated = [(fake.generated_token, -0.5)] if (body.get("max_tokens") or 0) >= 1 else []
    pairs = echoed + generated
    offsets = [0 if body.get("echo") else len(prompt)]
    for token, _ in pairs[:-1]:
        offsets.append(offsets[-1] + len(token))
    values: list[float | None] = [value for _, value in pairs]
    if body.get("echo") and values:
        values[0] = None
    logprobs = {
        "tokens": [token for token, _ in pairs],
        "token_logprobs": values,
        "text_offset": offsets[: len(pairs)],
        "top_logprobs": None,
    }
    text = "".join(token for token, _ in pairs)
    choice = {"text": text, "index": 0, "logprobs": logprobs, "finish_reason": "length"}
    usage = {"prompt_tokens": len(echoed), "completion_tokens": len(generated)}
    usage["total_tokens"] = len(echoed) + len(generated)
    return _envelope(body, step, "text_completion") | {"choices": [choice], "usage": usage}


def _events(
    body: dict[str, Any], messages: list[dict[str, Any]], answer: str, step: Behaviour
) -> Iterator[str]:
    head = _envelope(body, step, "chat.completion.chunk")
    deltas = list(_text_deltas(answer, step)) + list(_tool_call_deltas(step))
    deltas[0] = {"role": "assistant"} | deltas[0]
    for delta in deltas:
        yield json.dumps(head | {"choices": [{"index": 0, "delta": delta, "finish_reason": None}]})
    last = {"index": 0, "delta": {}, "finish_reason": step.finish}
    yield json.dumps(head | {"choices": [last]})
    if step.stream_usage and (body.get("stream_options") or {}).get("include_usage"):
        yield json.dumps(head | {"choices": [], "usage": _usage(messages, answer, step)})
    yield "[DONE]"


def _text_deltas(answer: str, step: Behaviour) -> Iterator[dict[str, Any]]:
    """One delta per word; none when tool calls come without text."""
    if step.tool_calls and not answer:
        return
    pieces = answer.split(" ")
    for index, piece in enumerate(pieces):
        yield {"content": piece if index == len(pieces) - 1 else piece + " "}


def _tool_call_deltas(step: Behaviour) -> Iterator[dict[str, Any]]:
    """Per call: a delta with its id and name, then its arguments in 8-character pieces."""
    for index, call in enumerate(step.tool_calls):
        opening = call.wire(index)
        opening["function"] = {"name": call.name, "arguments": ""}
        yield {"tool_calls": [{"index": index} | opening]}
        text = call.arguments_json
        for start in range(0, len(text), 8):
            piece = {"index": index, "function": {"arguments": text[start : start + 8]}}
            yield {"tool_calls": [piece]}


@pytest.fixture
def openai_server() -> Iterator[FakeOpenAIServer]:
    """A started `FakeOpenAIServer`, stopped after the test."""
    server = FakeOpenAIServer().start()
    try:
        yield server
    finally:
        server.stop()
