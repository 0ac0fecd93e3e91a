"""Reading an agent's ``--agent-option key=value`` settings.

Options arrive as strings. Each agent declares the keys it knows in its
`AgentSpec.options` (`make_agent` checks them); an unknown key or a value of
the wrong kind is a `BadInput` naming the agent, the key and the value, with a
suggestion for a misspelt key.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import TypeVar

from slopmark.errors import BadInput, did_you_mean

_Number = TypeVar("_Number", int, float)


def check_keys(agent: str, options: Mapping[str, str], known: Iterable[str]) -> None:
    """BadInput for the first option ``agent`` does not know."""
    known = sorted(known)
    for key in options:
        if key not in known:
            hint = did_you_mean(key, known)
            raise BadInput(
                f"agent '{agent}' has no option '{key}'"
                + (f"; {hint}" if hint else "")
                + f" (options: {', '.join(known) or 'none'})"
            )


def names(value: str | None) -> tuple[str, ...]:
    """``"A, B,C"`` → ``("A", "B", "C")``; None or empty → ``()``."""
    return tuple(part.strip() for part in (value or "").split(",") if part.strip())


def choice(agent: str, options: Mapping[str, str], key: str, allowed: tuple[str, ...]) -> str:
    """The value of ``key`` (default: the first allowed value); BadInput when not allowed."""
    value = options.get(key, allowed[0])
    if value not in allowed:
        raise BadInput(
            f"agent '{agent}': option {key}={value!r} must be one of {', '.join(allowed)}"
        )
    return value


def number(
    agent: str,
    options: Mapping[str, str],
    key: str,
    kind: type[_Number],
    default: _Number,
    minimum: _Number,
) -> _Number:
    """The value of ``key`` as ``kind`` (≥ ``minimum``), or ``default`` when it is not given."""
    value = optional_number(agent, options, key, kind, minimum)
    return default if value is None else value


def optional_number(
    agent: str, options: Mapping[str, str], key: str, kind: type[_Number], minimum: _Number
) -> _Number | None:
    """The value of ``key`` as ``kind`` (≥ ``minimum``), or None when it is not given."""
    raw = options.get(key)
    if raw is None:
        return None
    wrong = BadInput(f"agent '{agent}': option {key}={raw!r} must be a {kind.__name__} ≥ {minimum}")
    try:
        value = kind(raw)
    except ValueError:
        raise wrong from None
    if value < minimum:
        raise wrong
    return value
