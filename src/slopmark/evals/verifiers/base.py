"""The verifier protocol, its verdict, and the registry."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from importlib import import_module
from importlib.metadata import entry_points
from typing import Any, Protocol, TypeVar

from slopmark.errors import BadInput, did_you_mean
from slopmark.llm.base import Message as Message  # a transcript's message, defined by llm

#: Built-in verifier modules, imported on first use of the registry.
BUILTIN_MODULES = (
    "instruction",
    "json_output",
    "math",
    "sycophancy",
    "hierarchy",
    "refusal",
    "persistence",
    "calibration",
)
ENTRY_POINT_GROUP = "slopmark.verifiers"


@dataclass(frozen=True)
class Check:
    """One named check a verdict is made of, and why it passed or failed."""

    name: str
    passed: bool
    detail: str = ""


@dataclass(frozen=True)
class Verdict:
    """``passed`` and ``score`` in [0, 1]; ``checks`` say which check failed and why.

    ``ambiguous`` marks a verdict the verifier could not decide (e.g. a
    symbolic comparison that timed out); ``extra`` holds domain numbers such
    as a calibration run's stated confidence.
    """

    passed: bool
    score: float
    checks: tuple[Check, ...] = ()
    ambiguous: bool = False
    extra: Mapping[str, Any] = field(default_factory=dict)

    @classmethod
    def from_checks(cls, checks: Sequence[Check], **extra: Any) -> Verdict:
        """pass = every check passed; score = share of checks passed."""
        passed = sum(c.passed for c in checks)
        score = passed / len(checks) if checks else 0.0
        return cls(bool(checks) and passed == len(checks), score, tuple(checks), extra=extra)

    def details(self) -> dict[str, Any]:
        return {
            "checks": [
                {"name": c.name, "passed": c.passed, "detail": c.detail} for c in self.checks
            ],
            "ambiguous": self.ambiguous,
            **dict(self.extra),
        }


class Verifier(Protocol):
    """What every verifier implements."""

    name: str

    def problems(self, config: Mapping[str, Any]) -> list[str]:
        """What is wrong with a task's verifier config, one message per problem."""

    def verify(
        self, config: Mapping[str, Any], output: str, transcript: Sequence[Message]
    ) -> Verdict:
        """Score ``output`` (the final answer); ``transcript`` holds every message."""


_REGISTRY: dict[str, Verifier] = {}
_LOADED = False
V = TypeVar("V")


def register(name: str) -> Callable[[type[V]], type[V]]:
    """Class decorator: ``@register("math")`` makes the verifier available by name."""

    def add(cls: type[V]) -> type[V]:
        instance: Any = cls()
        instance.name = name
        _REGISTRY[name] = instance
        return cls

    return add


def _load() -> None:
    global _LOADED
    if _LOADED:
        return
    _LOADED = True
    for module in BUILTIN_MODULES:
        import_module(f"slopmark.evals.verifiers.{module}")
    for point in entry_points(group=ENTRY_POINT_GROUP):
        point.load()


def verifier_names() -> list[str]:
    _load()
    return sorted(_REGISTRY)


def get_verifier(name: str) -> Verifier:
    """The verifier called ``name``; unknown names suggest the closest one."""
    _load()
    if name in _REGISTRY:
        return _REGISTRY[name]
    hint = did_you_mean(name, _REGISTRY) or f"known: {', '.join(sorted(_REGISTRY))}"
    raise BadInput(f"unknown verifier '{name}'; {hint}")
