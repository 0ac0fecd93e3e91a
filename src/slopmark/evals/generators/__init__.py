"""Procedural task generation: templates registered per domain, variants drawn by seed.

A template is a function ``(rng) -> Draft``; `generate` turns templates ×
variants into distinct tasks with ``source="original"`` and the template id
as ``template_id``. The same (domain, templates, variants, seed) always
yields the same tasks.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass, field
from importlib import import_module
from typing import Any

from slopmark.errors import BadInput
from slopmark.evals.task import DOMAINS, Task

MODULES = {
    "instruction": "instruction",
    "json": "json_output",
    "math": "math",
    "sycophancy": "sycophancy",
    "hierarchy": "hierarchy",
    "refusal": "refusal",
    "persistence": "persistence",
    "calibration": "calibration",
}


@dataclass(frozen=True)
class Draft:
    """What a template produces; `generate` adds ids and labels."""

    turns: tuple[str, ...]
    verifier: dict[str, Any]
    difficulty: str = "medium"
    system: str | None = None
    tags: tuple[str, ...] = field(default=())


Template = Callable[[random.Random], Draft]
_TEMPLATES: dict[str, dict[str, Template]] = {}


def template(domain: str, template_id: str) -> Callable[[Template], Template]:
    """Decorator registering a template of ``domain`` under ``template_id``."""

    def add(function: Template) -> Template:
        _TEMPLATES.setdefault(domain, {})[template_id] = function
        return function

    return add


def templates(domain: str) -> dict[str, Template]:
    if domain not in DOMAINS:
        raise BadInput(f"unknown domain '{domain}'; known: {', '.join(DOMAINS)}")
    import_module(f"slopmark.evals.generators.{MODULES[domain]}")
    return dict(sorted(_TEMPLATES.get(domain, {}).items()))


def generate(domain: str, count: int | None, variants: int, seed: int) -> list[Task]:
    """``variants`` distinct tasks from each of the first ``count`` templates (all when None)."""
    chosen = list(templates(domain).items())[:count]
    if count is not None and len(chosen) < count:
        raise BadInput(
            f"domain '{domain}' has {len(chosen)} templates, fewer than --templates {count}"
        )
    tasks = []
    for template_id, make in chosen:
        seen: set[tuple[str, ...]] = set()
        attempt = 0
        while len(seen) < variants and attempt < variants * 20:
            draft = make(random.Random(f"{seed}:{domain}:{template_id}:{attempt}"))
            attempt += 1
            if draft.turns in seen:
                continue
            seen.add(draft.turns)
            tasks.append(_task(domain, template_id, len(seen) - 1, draft))
    return tasks


def _task(domain: str, template_id: str, variant: int, draft: Draft) -> Task:
    return Task(
        id=f"{domain}.{template_id}.{variant}",
        domain=domain,
        turns=draft.turns,
        verifier=draft.verifier,
        source="original",
        difficulty=draft.difficulty,
        approved=True,
        system=draft.system,
        template_id=template_id,
        variant=variant,
        tags=draft.tags,
    )
