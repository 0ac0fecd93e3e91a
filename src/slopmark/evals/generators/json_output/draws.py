"""Values json templates draw (names, cities, splits, days, times) and how prompts list them."""

from __future__ import annotations

import random
from collections.abc import Sequence
from datetime import date, timedelta
from typing import Any

PEOPLE = ("Ada", "Bruno", "Chen", "Dara", "Elif", "Femi", "Goran", "Hana", "Ivo", "Jun")
SURNAMES = ("Silva", "Mwangi", "Tanaka", "Novak", "Okafor", "Lindqvist", "Haddad", "Moreau")
CITIES = ("Lisbon", "Nairobi", "Osaka", "Toronto", "Tbilisi", "Quito", "Oslo", "Perth")


def split(rng: random.Random, total: int, parts: int, least: int = 1) -> list[int]:
    """``parts`` whole numbers, each ≥ ``least``, adding up to ``total``."""
    spare = total - parts * (least - 1)
    cuts = sorted(rng.sample(range(1, spare), parts - 1))
    return [b - a + least - 1 for a, b in zip([0, *cuts], [*cuts, spare], strict=True)]


def hhmm(minutes: int) -> str:
    return f"{minutes // 60:02d}:{minutes % 60:02d}"


def some_day(rng: random.Random) -> date:
    return date(2025, 1, 1) + timedelta(days=rng.randrange(330))


def listed(items: Sequence[Any]) -> str:
    if len(items) == 1:
        return str(items[0])
    return ", ".join(map(str, items[:-1])) + f" and {items[-1]}"


def full_name(rng: random.Random) -> str:
    return f"{rng.choice(PEOPLE)} {rng.choice(SURNAMES)}"


def pick(rng: random.Random, choices: str | Sequence[str], low: int, high: int) -> list[str]:
    """Between ``low`` and ``high`` distinct items of ``choices`` (a string: its words)."""
    pool = choices.split() if isinstance(choices, str) else list(choices)
    return rng.sample(pool, rng.randint(low, high))
