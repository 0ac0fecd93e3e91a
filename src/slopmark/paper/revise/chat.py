"""The editor's and the reviewer's chat model: one OpenAI-compatible endpoint, greedy, cached.

A model is named on the command line in one of two ways::

    --editor smollm2-135m-instruct --editor-url http://127.0.0.1:8080/v1
    --editor editor.yaml

The YAML file is one role entry of ``paper measure --model-config`` (the same
fields, the same rules) plus an optional ``max_tokens``::

    base_url: http://127.0.0.1:8080/v1
    model: qwen2.5-32b-instruct
    api_key_env: MY_KEY      # optional: the variable holding the key
    max_tokens: 4096         # optional: the longest answer asked for

``--reviewer`` works the same way (``--reviewer-url`` defaults to the editor's
URL). Without ``api_key_env`` a placeholder key is sent and no variable is read.

Every call goes through `slopmark.llm.client.ModelClient`, is greedy
(temperature 0) and is cached in the paper models' call cache
(`slopmark.paper.models.open_cache`: ``$SLOPMARK_CACHE/paper-models/``, else
``$XDG_CACHE_HOME/slopmark/paper-models/``) under the SHA-256 of the canonical
JSON of (model, messages, parameters), so a rerun replays every answer.
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol

from slopmark.errors import BadInput
from slopmark.llm.cache import CallCache
from slopmark.llm.keys import named_key
from slopmark.paper.models import cache_key, default_cache_dir, model_call, open_cache
from slopmark.yamlconfig import read_mapping, reject_unknown

if TYPE_CHECKING:  # the client loads the OpenAI SDK: only when a model is called
    from slopmark.llm.client import ModelClient

Messages = list[dict[str, str]]
DEFAULT_MAX_TOKENS = 4096
_FIELDS = ("base_url", "model", "api_key_env", "max_tokens")


class Chat(Protocol):
    """What the revision loop asks of a model: a greedy answer to chat messages."""

    def ask(self, messages: Messages, max_tokens: int | None = None) -> str: ...


@dataclass(frozen=True)
class ChatSpec:
    model: str
    base_url: str
    api_key: str | None = field(default=None, repr=False)
    max_tokens: int = DEFAULT_MAX_TOKENS

    def describe(self) -> str:
        return f"{self.model} at {self.base_url}"


class ChatModel:
    """A `ChatSpec` called greedily through the on-disk cache.

    ``requests`` counts calls sent to the server, ``hits`` calls the cache answered.
    """

    def __init__(self, spec: ChatSpec, cache_dir: Path | None = None, timeout_s: float = 900.0):
        self.spec = spec
        self.cache_dir = cache_dir or default_cache_dir(os.environ)
        self.timeout_s = timeout_s
        self.requests = 0
        self.hits = 0
        self._cache: CallCache | None = None
        self._client: ModelClient | None = None

    def ask(self, messages: Messages, max_tokens: int | None = None) -> str:
        """The model's greedy answer to ``messages`` (from the cache when asked before)."""
        params = {"temperature": 0.0, "max_tokens": max_tokens or self.spec.max_tokens}
        key = cache_key("chat", self.spec.model, messages, params)
        cache = self._open_cache()
        found = cache.get(key)
        if found is not None:
            self.hits += 1
            return str(found)
        self.requests += 1
        answer = self._call(messages, params)
        cache.put(key, answer)
        return answer

    def close(self) -> None:
        if self._cache is not None:
            self._cache.close()
            self._cache = None
        if self._client is not None:
            self._client.close()
            self._client = None

    def _open_cache(self) -> CallCache:
        if self._cache is None:
            self._cache = open_cache(self.cache_dir)
        return self._cache

    def _call(self, messages: Messages, params: dict[str, Any]) -> str:
        from slopmark.llm.client import ModelClient

        if self._client is None:
            self._client = ModelClient(self.spec.base_url, self.spec.api_key, self.timeout_s)
        with model_call(f"model {self.spec.describe()}"):
            return self._client.chat(self.spec.model, messages, **params).text or ""


def chat_spec(option: str, value: str, url: str | None, max_tokens: int | None = None) -> ChatSpec:
    """The model ``--OPTION VALUE [--OPTION-url URL]`` names: a model name or a YAML file."""
    if value.endswith((".yaml", ".yml")):
        spec = _spec_file(option, Path(value))
    elif url is None:
        raise BadInput(
            f"--{option} {value}: give the server with --{option}-url URL "
            "(an OpenAI-compatible /v1 endpoint) or pass a YAML file {base_url, model}"
        )
    else:
        spec = ChatSpec(value, _checked_url(f"--{option}-url", url))
    if max_tokens is not None:
        spec = replace(spec, max_tokens=max_tokens)
    return spec


def _spec_file(option: str, path: Path) -> ChatSpec:
    data = read_mapping(path, f"base_url and model (--{option})")
    reject_unknown(data, _FIELDS, f"{path}: ", "field")
    model = _text(path, data, "model")
    url = _checked_url(f"{path}: base_url", _text(path, data, "base_url"))
    return ChatSpec(model, url, _api_key(path, data), _max_tokens(path, data))


def _text(path: Path, data: dict[str, Any], name: str) -> str:
    value = data.get(name)
    if not isinstance(value, str) or not value.strip():
        raise BadInput(f"{path}: {name}: missing or empty; give a non-empty string")
    return value.strip()


def _checked_url(where: str, url: str) -> str:
    if not url.startswith(("http://", "https://")):
        raise BadInput(f"{where}: '{url}' is not an http(s) URL")
    return url.rstrip("/")


def _api_key(path: Path, data: dict[str, Any]) -> str | None:
    if "api_key_env" not in data:
        return None
    variable = _text(path, data, "api_key_env")
    return named_key(variable, os.environ, f"{path}: api_key_env")


def _max_tokens(path: Path, data: dict[str, Any]) -> int:
    value = data.get("max_tokens", DEFAULT_MAX_TOKENS)
    if not isinstance(value, int) or isinstance(value, bool) or value < 1:
        raise BadInput(f"{path}: max_tokens: expected a positive integer, got {value!r}")
    return value
