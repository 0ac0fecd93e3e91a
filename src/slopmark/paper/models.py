"""The model client of the model-based paper measures: a labeller, a scorer and a vision model.

``--model-config FILE`` is YAML naming up to three OpenAI-compatible endpoints::

    labeller: {base_url: http://127.0.0.1:8000/v1, model: qwen2.5-32b-instruct,
               api_key_env: MY_KEY}     # chat: sentence labels, yes/no judgements
    scorer:   {base_url: http://127.0.0.1:8001/v1, model: qwen2.5-7b-instruct}
                                        # completions: prompt token log-probabilities
    vision:   {base_url: http://127.0.0.1:8002/v1, model: qwen2.5-vl-32b-instruct}
                                        # chat with an image part: figure transcripts

``prompt_prefix`` (optional, scorer) is put before every scored prompt: with
llama-cpp-python and a model that adds no BOS token, give the BOS token's
text (``"<|im_start|>"`` for SmolLM2 and Qwen2.5) or the scorer fails its
alignment check (`ModelSet.check_scorer`).

Any role may be absent; a measure needing it is then reported as not run
(`ModelSet.missing` says why). ``api_key_env`` (optional, every role) names
the environment variable holding the key; without it a placeholder key is sent
(llama.cpp, vLLM and Ollama ignore it) and no other variable is read, so a key
never leaks to an endpoint it was not named for.

Every call goes through `slopmark.llm.client.ModelClient` (its retry policy,
its failures) and is greedy (temperature 0) and cached on disk in a
`slopmark.llm.cache.CallCache` under the SHA-256 of the canonical JSON of
(endpoint kind, model, request, parameters, run id) — the run id lets a
measure ask the same question several times (majority of three runs, as the
"Science or Slop?" paper does) and still replay each run from the cache. The
cache is one SQLite file, ``calls.sqlite``, in ``$SLOPMARK_CACHE/paper-models/``,
else ``$XDG_CACHE_HOME/slopmark/paper-models/`` (``~/.cache`` by default).

Prompt log-probabilities come from the scorer's completions endpoint
(`ModelClient.prompt_logprobs`); only the tokens inside the prompt are kept.
"""

from __future__ import annotations

import base64
import os
from collections.abc import Callable, Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, Literal, cast

from slopmark.errors import BadInput, EngineError
from slopmark.llm.base import ProviderError
from slopmark.llm.cache import CallCache, call_key
from slopmark.llm.keys import named_key
from slopmark.yamlconfig import read_mapping, reject_unknown

if TYPE_CHECKING:  # the client loads the OpenAI SDK: only when a model is called
    from slopmark.llm.client import ModelClient, TokenRow

ModelRole = Literal["labeller", "scorer", "vision"]
ROLES: tuple[ModelRole, ...] = ("labeller", "scorer", "vision")
_FIELDS = ("base_url", "model", "api_key_env", "prompt_prefix")
#: What each role is for, in messages.
_PURPOSE = {
    "labeller": "chat model for labels",
    "scorer": "completions model with prompt log-probabilities",
    "vision": "vision chat model",
}
#: A run of rare words said twice: a scorer whose log-probabilities belong to the tokens
#: they are reported for predicts the second run far better than the first.
PROBE = "violet anchor marble quietly orbit lantern copper thistle."
#: The least mean gain (nats per token) of the second run over the first.
PROBE_MIN_GAIN = 2.0
CACHE_FILE = "calls.sqlite"


class ModelCallFailed(EngineError):
    """A configured model could not be reached or answered in an unusable shape."""


@dataclass(frozen=True)
class Endpoint:
    base_url: str
    model: str
    api_key: str | None = field(default=None, repr=False)
    #: Text put before every scored prompt (e.g. the BOS token's text; see `check_scorer`).
    prompt_prefix: str = ""


#: How `ModelSet._cached` sends one uncached call: (role, endpoint, request, wire params).
_Call = Callable[[ModelRole, Endpoint, Any, dict[str, Any]], Any]


@dataclass(frozen=True)
class TokenLogprob:
    text: str
    #: Character offset of the token in the prompt.
    offset: int
    #: None for the prompt's first token (nothing precedes it).
    logprob: float | None


@dataclass(frozen=True)
class PromptLogprobs:
    prompt: str
    tokens: tuple[TokenLogprob, ...]

    def starting_at(self, start: int) -> tuple[TokenLogprob, ...]:
        """The prompt's tokens that begin at or after character ``start``."""
        end = len(self.prompt)
        return tuple(t for t in self.tokens if start <= t.offset < end)


def default_cache_dir(environ: Mapping[str, str]) -> Path:
    """``$SLOPMARK_CACHE/paper-models``, else ``$XDG_CACHE_HOME`` (or ~/.cache)/slopmark/..."""
    if environ.get("SLOPMARK_CACHE"):
        return Path(environ["SLOPMARK_CACHE"]) / "paper-models"
    root = Path(environ.get("XDG_CACHE_HOME") or Path.home() / ".cache")
    return root / "slopmark" / "paper-models"


def cache_key(kind: str, model: str, request: Any, params: Mapping[str, Any]) -> str:
    """The hex SHA-256 of the canonical JSON of one call."""
    return call_key(kind=kind, model=model, request=request, params=dict(params))


def open_cache(folder: Path) -> CallCache:
    """The model-call cache in ``folder`` (made when missing)."""
    return CallCache(folder / CACHE_FILE)


@contextmanager
def model_call(where: str) -> Iterator[None]:
    """Turn a model client's failure into `ModelCallFailed` naming ``where``."""
    try:
        yield
    except ProviderError as error:
        raise ModelCallFailed(f"{where} failed: {error}") from error


class ModelSet:
    """The configured models, called greedily through one on-disk cache.

    ``requests`` counts calls sent to a server, ``hits`` calls answered by the cache.
    """

    def __init__(
        self,
        labeller: Endpoint | None = None,
        scorer: Endpoint | None = None,
        vision: Endpoint | None = None,
        cache_dir: Path | None = None,
        timeout_s: float = 300.0,
    ) -> None:
        self.endpoints: dict[ModelRole, Endpoint | None] = {
            "labeller": labeller, "scorer": scorer, "vision": vision,
        }  # fmt: skip
        self.cache_dir = cache_dir or default_cache_dir(os.environ)
        self.timeout_s = timeout_s
        self.requests = 0
        self.hits = 0
        self._cache: CallCache | None = None
        self._clients: dict[ModelRole, ModelClient] = {}
        self._scorer_checked = False

    def missing(self, *roles: ModelRole) -> str | None:
        """Why a measure needing ``roles`` cannot run, or None when all are configured."""
        absent = [role for role in roles if self.endpoints[role] is None]
        if not absent:
            return None
        wanted = ", ".join(f"{role} ({_PURPOSE[role]})" for role in absent)
        return f"no {wanted} in --model-config; add `{absent[0]}: {{base_url, model}}`"

    def describe(self, *roles: ModelRole) -> dict[str, str]:
        """``{role: "model at base_url"}`` for the configured ``roles`` (for result details)."""
        named = {role: self.endpoints[role] for role in roles}
        return {role: f"{e.model} at {e.base_url}" for role, e in named.items() if e is not None}

    def chat(self, messages: list[dict[str, Any]], run: int = 0, max_tokens: int = 16) -> str:
        """The labeller's greedy answer to ``messages``; ``run`` tells repeated runs apart."""
        params = {"temperature": 0.0, "max_tokens": max_tokens, "run": run}
        return str(self._cached("labeller", "chat", messages, params, self._chat_call))

    def transcribe(self, prompt: str, image: bytes, media_type: str, max_tokens: int = 1024) -> str:
        """The vision model's greedy answer to ``prompt`` about one image (PNG or JPEG bytes)."""
        url = f"data:{media_type};base64,{base64.b64encode(image).decode('ascii')}"
        parts = [{"type": "text", "text": prompt}, {"type": "image_url", "image_url": {"url": url}}]
        messages = [{"role": "user", "content": parts}]
        params = {"temperature": 0.0, "max_tokens": max_tokens}
        return str(self._cached("vision", "chat", messages, params, self._chat_call))

    def prompt_logprobs(self, prompt: str) -> PromptLogprobs:
        """Each prompt token's log-probability given the tokens before it, from the scorer.

        The scorer is checked once first (`check_scorer`); offsets are relative to
        ``prompt`` whether or not the server counted the configured prefix.
        """
        if not self._scorer_checked:
            self._scorer_checked = True
            self.check_scorer()
        return self._scored(prompt)

    def check_scorer(self) -> float:
        """The probe's gain; `ModelCallFailed` when the log-probabilities look misaligned.

        llama-cpp-python reports each echoed token with the distribution of the
        *next* position when the model adds no BOS token (SmolLM2, Qwen2.5): the
        numbers come back but mean nothing. On `PROBE` said twice such a server
        shows no gain on the repeat, a sound one several nats per token.
        """
        scored = self._scored(f"{PROBE} {PROBE}")
        first = [t.logprob for t in scored.tokens[1:] if t.offset < len(PROBE)]
        second = [t.logprob for t in scored.starting_at(len(PROBE) + 2)]
        gain = _mean(second) - _mean(first)
        if gain < PROBE_MIN_GAIN:
            raise ModelCallFailed(
                f"{_where('scorer', self._endpoint('scorer'))}: its prompt "
                f"log-probabilities do not predict a repeated sentence (gain {gain:.2f} < "
                f"{PROBE_MIN_GAIN} nats/token), so they are misaligned; with llama-cpp-python "
                "and a model without a BOS token set the scorer's prompt_prefix to the BOS "
                "token's text (e.g. '<|im_start|>'), or serve the scorer with vLLM"
            )
        return gain

    def _scored(self, prompt: str) -> PromptLogprobs:
        prefix = self._endpoint("scorer").prompt_prefix
        params = {"echo": True, "logprobs": 1, "max_tokens": 1, "temperature": 0.0}
        rows = self._cached("scorer", "completion", prefix + prompt, params, self._completion_call)
        return PromptLogprobs(prompt, _relocated(rows, prefix + prompt, len(prefix)))

    def close(self) -> None:
        if self._cache is not None:
            self._cache.close()
            self._cache = None
        for client in self._clients.values():
            client.close()
        self._clients.clear()

    def _cached(
        self, role: ModelRole, kind: str, request: Any, params: dict[str, Any], call: _Call
    ) -> Any:
        endpoint = self._endpoint(role)
        key = cache_key(kind, endpoint.model, request, params)
        cache = self._open_cache()
        found = cache.get(key)
        if found is not None:
            self.hits += 1
            return found
        self.requests += 1
        wire = {name: value for name, value in params.items() if name != "run"}
        value = call(role, endpoint, request, wire)
        cache.put(key, value)
        return value

    def _endpoint(self, role: ModelRole) -> Endpoint:
        endpoint = self.endpoints[role]
        if endpoint is None:
            raise ModelCallFailed(self.missing(role) or role)
        return endpoint

    def _open_cache(self) -> CallCache:
        if self._cache is None:
            self._cache = open_cache(self.cache_dir)
        return self._cache

    def _client(self, role: ModelRole, endpoint: Endpoint) -> ModelClient:
        from slopmark.llm.client import ModelClient

        if role not in self._clients:
            self._clients[role] = ModelClient(endpoint.base_url, endpoint.api_key, self.timeout_s)
        return self._clients[role]

    def _chat_call(
        self, role: ModelRole, endpoint: Endpoint, messages: Any, params: dict[str, Any]
    ) -> str:
        client = self._client(role, endpoint)
        with model_call(_where(role, endpoint)):
            return client.chat(endpoint.model, messages, **params).text or ""

    def _completion_call(
        self, role: ModelRole, endpoint: Endpoint, prompt: Any, params: dict[str, Any]
    ) -> list[TokenRow]:
        client = self._client(role, endpoint)
        with model_call(_where(role, endpoint)):
            return client.prompt_logprobs(endpoint.model, prompt, params["max_tokens"])


def _where(role: ModelRole, endpoint: Endpoint) -> str:
    """``labeller model 'm' at URL``: how messages name an endpoint."""
    return f"{role} model {endpoint.model!r} at {endpoint.base_url}"


def _mean(values: list[float | None]) -> float:
    known = [value for value in values if value is not None]
    return sum(known) / len(known) if known else float("-inf")


def _relocated(rows: list[TokenRow], wire: str, prefix: int) -> tuple[TokenLogprob, ...]:
    """Tokens with offsets into the prompt after the prefix (dropping the prefix's tokens).

    Servers count offsets from the text they were sent (vLLM) or from the text
    of the tokens they echo, a special prefix token left out (llama-cpp-python);
    the shift under which the token texts match the sent text is taken.
    """

    def matches(shift: int) -> int:
        return sum(wire.startswith(text, offset + shift) for text, offset, _ in rows)

    shift = max((0, prefix), key=matches) - prefix
    return tuple(
        TokenLogprob(text, offset + shift, value)
        for text, offset, value in rows
        if offset + shift >= 0
    )


def load_model_config(path: Path, cache_dir: Path | None = None) -> ModelSet:
    """The `ModelSet` a ``--model-config`` YAML file names; `BadInput` naming file and field."""
    data = read_mapping(path, "labeller / scorer / vision entries")
    reject_unknown(data, ROLES, f"{path}: ", "model role")
    found = {role: _read_endpoint(path, role, data[role]) for role in ROLES if data.get(role)}
    return ModelSet(**cast(dict[str, Any], found), cache_dir=cache_dir)


def _read_endpoint(path: Path, role: str, entry: Any) -> Endpoint:
    if not isinstance(entry, dict):
        raise BadInput(f"{path}: {role}: expected a mapping {{base_url, model}}, got {entry!r}")
    reject_unknown(entry, _FIELDS, f"{path}: {role}.", "field")
    base_url, model = _text(path, role, entry, "base_url"), _text(path, role, entry, "model")
    if not base_url.startswith(("http://", "https://")):
        raise BadInput(f"{path}: {role}.base_url: '{base_url}' is not an http(s) URL")
    prefix = entry.get("prompt_prefix", "")
    if not isinstance(prefix, str):
        raise BadInput(f"{path}: {role}.prompt_prefix: expected a string, got {prefix!r}")
    return Endpoint(base_url.rstrip("/"), model, _api_key(path, role, entry), prefix)


def _text(path: Path, role: str, entry: dict[str, Any], name: str) -> str:
    value = entry.get(name)
    if not isinstance(value, str) or not value.strip():
        raise BadInput(f"{path}: {role}.{name}: missing or empty; give a non-empty string")
    return value.strip()


def _api_key(path: Path, role: str, entry: dict[str, Any]) -> str | None:
    if "api_key_env" not in entry:
        return None
    variable = _text(path, role, entry, "api_key_env")
    return named_key(variable, os.environ, f"{path}: {role}.api_key_env")
