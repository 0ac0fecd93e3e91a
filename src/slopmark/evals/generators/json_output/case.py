"""A json template's `Case`, its registry, and the prompt and verifier config it is made of."""

from __future__ import annotations

import json
import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from slopmark.evals.generators import Draft, register
from slopmark.evals.generators.json_output.schema import Record

DOMAIN = "json"


@dataclass(frozen=True)
class Case:
    """A generated task and an answer that passes it."""

    draft: Draft
    reference: Any


Make = Callable[[random.Random], Case]
CASES: dict[str, Make] = {}


def case(template_id: str) -> Callable[[Make], Make]:
    """Register a template returning a `Case`; the generator sees only its draft."""

    def add(make: Make) -> Make:
        CASES[template_id] = make
        register(template_id, domain=DOMAIN)(lambda rng: make(rng).draft)
        return make

    return add


def ask(task: str, schema: Record | None = None, bare: bool = False) -> str:
    """The prompt: the task, the schema when shown, and how to reply."""
    shown = f"\nThe JSON must match this JSON Schema:\n{json.dumps(schema)}" if schema else ""
    fence = ", with no code fence around it" if bare else ""
    return f"{task}{shown}\nReply with the JSON only{fence}."


def make_case(
    prompt: str,
    reference: Any,
    schema: Record | None = None,
    invariants: Sequence[Any] = (),
    difficulty: str = "medium",
    bare: bool = False,
) -> Case:
    """A task whose prompt ends with `ask`; ``bare`` tasks reject a fenced answer."""
    verifier: Record = {"type": "json", "fences": "reject" if bare else "allow"}
    verifier.update({"schema": schema} if schema else {})
    verifier.update({"invariants": list(invariants)} if invariants else {})
    tags = ("schema",) * bool(schema) + ("invariants",) * bool(invariants)
    return Case(Draft((prompt,), verifier, difficulty, tags=tags), reference)
