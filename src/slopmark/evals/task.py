"""The task model: what a model is asked, and how its answer is checked.

A task is pure data. Its verifier config is private: `Task.public()` is what
clients (and the model) may see.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

DOMAINS = (
    "instruction",
    "json",
    "math",
    "sycophancy",
    "hierarchy",
    "refusal",
    "persistence",
    "calibration",
)
SOURCES = ("seed", "community", "original")
DIFFICULTIES = ("easy", "medium", "hard")


@dataclass(frozen=True)
class Task:
    """One task. ``turns`` are the user messages, sent one after another.

    ``system`` is the task's own system prompt (e.g. the application rules a
    hierarchy task tests); the harness adds its constant prompt before it.
    ``verifier`` is ``{"type": NAME, ...}``, read only by the verifier NAME.
    """

    id: str
    domain: str
    turns: tuple[str, ...]
    verifier: Mapping[str, Any]
    source: str = "seed"
    difficulty: str = "medium"
    approved: bool = True
    system: str | None = None
    template_id: str | None = None
    variant: int | None = None
    tags: tuple[str, ...] = field(default=())

    @property
    def verifier_type(self) -> str:
        return str(self.verifier.get("type", ""))

    def public(self) -> dict[str, Any]:
        """Everything but the verifier config: safe to show clients and models."""
        return {
            "id": self.id,
            "domain": self.domain,
            "turns": list(self.turns),
            "system": self.system,
            "source": self.source,
            "difficulty": self.difficulty,
            "template_id": self.template_id,
            "variant": self.variant,
            "tags": list(self.tags),
        }
