"""The verifier protocol, its verdict, and the registry."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol

from slopmark.llm.base import Message as Message  # a transcript's message, defined by llm
from slopmark.registry import Registry


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


def _instance(name: str, cls: type[Any]) -> Verifier:
    """A verifier class registered as ``name``: its one instance, named."""
    instance: Verifier = cls()
    instance.name = name
    return instance


#: Every verifier by name: the modules of this package, then the entry points of
#: ``slopmark.verifiers``.
VERIFIERS: Registry[Verifier] = Registry("verifier", "slopmark.evals.verifiers", declare=_instance)
#: Class decorator: ``@register("math")`` makes the verifier available by name.
register = VERIFIERS.register


def verifier_names() -> list[str]:
    return VERIFIERS.names()


def get_verifier(name: str) -> Verifier:
    """The verifier called ``name``; unknown names suggest the closest one."""
    return VERIFIERS.get(name)
