"""Where a model endpoint's API key comes from: one lookup for every client.

A key is given outright, or named by the environment variable holding it
(``api_key_env`` in config files: only that variable is read, so a key never
reaches an endpoint it was not named for), or, for the eval providers only,
taken from the first of `KEY_VARIABLES` that is set. Without a key the
client sends `PLACEHOLDER_KEY`, which servers without auth ignore.
"""

from __future__ import annotations

from collections.abc import Mapping

from slopmark.errors import BadInput

KEY_VARIABLES = ("SLOPMARK_API_KEY", "OPENAI_API_KEY")
#: Sent when no key is configured: servers without auth (llama.cpp, vLLM, Ollama) ignore it.
PLACEHOLDER_KEY = "sk-no-key"


def resolve_api_key(explicit: str | None, environ: Mapping[str, str]) -> str | None:
    """The key from the argument, else the first of `KEY_VARIABLES` that is set."""
    from_env = (environ[name] for name in KEY_VARIABLES if environ.get(name))
    return explicit or next(from_env, None)


def named_key(variable: str, environ: Mapping[str, str], where: str, hint: str = "") -> str:
    """The key in the environment variable ``variable``; `BadInput` naming ``where`` (and
    saying ``hint``, what to do) if unset."""
    key = environ.get(variable)
    if not key:
        todo = f"; {hint}" if hint else ""
        raise BadInput(f"{where}: environment variable {variable} is not set{todo}")
    return key


def wire_key(key: str | None) -> str:
    """What to send: the key, or `PLACEHOLDER_KEY` when there is none."""
    return key or PLACEHOLDER_KEY
