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
from typing import Any

from slopmark import plurals
from slopmark.errors import BadInput
from slopmark.evals.task import DOMAINS, Task
from slopmark.registry import Registry, unknown


@dataclass(frozen=True)
class Draft:
    """What a template produces; `generate` adds ids and labels."""

    turns: tuple[str, ...]
    verifier: dict[str, Any]
    difficulty: str = "medium"
    system: str | None = None
    tags: tuple[str, ...] = field(default=())


Template = Callable[[random.Random], Draft]


def _template(name: str, make: Template, *, domain: str) -> Template:
    if domain not in DOMAINS:
        raise unknown("domain", domain, DOMAINS, plural="domains", extra=f"template '{name}'")
    return make


#: Every template as ``domain.template_id`` (the prefix of its tasks' ids), from the
#: modules of this package.
TEMPLATES: Registry[Template] = Registry("template", "slopmark.evals.generators", declare=_template)


def register(template_id: str, *, domain: str) -> Callable[[Template], Template]:
    """``@register("template-id", domain="math")`` on a template: `Registry.register` under
    the template's full name, ``domain.template_id``."""
    return TEMPLATES.register(f"{domain}.{template_id}", domain=domain)


def templates(domain: str) -> dict[str, Template]:
    """The templates of ``domain`` by template id, sorted."""
    if domain not in DOMAINS:
        raise unknown("domain", domain, DOMAINS, plural="domains")
    prefix = f"{domain}."
    return {
        name.removeprefix(prefix): make
        for name, make in TEMPLATES.items().items()
        if name.startswith(prefix)
    }


def generate(domain: str, count: int | None, variants: int, seed: int) -> list[Task]:
    """``variants`` distinct tasks from each of the first ``count`` templates (all when None)."""
    chosen = list(templates(domain).items())[:count]
    if count is not None and len(chosen) < count:
        raise BadInput(
            f"domain '{domain}' has {plurals.count(len(chosen), 'template')}, fewer than "
            f"--templates {count}"
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
