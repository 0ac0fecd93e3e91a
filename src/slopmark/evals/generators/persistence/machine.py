"""What every persistence template shares: step counts, the prompt shape, answer formats."""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

from slopmark.evals.generators import Draft
from slopmark.evals.task import DIFFICULTIES

DOMAIN = "persistence"
STEPS = {"easy": (5, 8), "medium": (10, 15), "hard": (20, 30)}
NAMES = ("Ana", "Ben", "Chen", "Dara", "Eli", "Fay", "Gus", "Hana", "Ivo", "Jun", "Kai", "Lea")
COLOURS = ("red", "blue", "green", "yellow", "white", "black")
ITEMS = ("lamp", "rope", "map", "key", "coin", "torch", "apple", "compass", "knife", "book")
HEADINGS = "NESW"
MOVES = {"N": (0, 1), "E": (1, 0), "S": (0, -1), "W": (-1, 0)}
COMPASS = {"N": "north", "E": "east", "S": "south", "W": "west"}
SCREEN = {"N": "up", "E": "right", "S": "down", "W": "left"}


def draw_steps(rng: random.Random) -> tuple[str, int]:
    """A difficulty and its number of steps."""
    difficulty = rng.choice(DIFFICULTIES)
    return difficulty, rng.randint(*STEPS[difficulty])


def draft(
    intro: str, steps: Sequence[str], ask: str, fmt: str, expected: Any, level: str, *tags: str
) -> Draft:
    """The task: rules, numbered steps, then how to write the final state ``expected``."""
    numbered = "\n".join(f"{i}. {step}" for i, step in enumerate(steps, 1))
    prompt = f"{intro}\n\nSteps:\n{numbered}\n\n{ask}"
    state = {k: str(v) for k, v in expected.items()} if fmt == "mapping" else expected
    if fmt in ("sequence", "set"):
        state = [str(v) for v in expected]
    verifier = {"type": "persistence", "format": fmt, "expected": state}
    return Draft((prompt,), verifier, level, tags=tags)


def ask_list(what: str, example: str) -> str:
    """Ask for a sequence or set on the last line."""
    return (f"On the last line, write {what} as a bracketed, comma-separated list, "
            f"e.g. `{example}` (write `[]` if it is empty).")


def ask_pairs(keys: Sequence[str], note: str = "") -> str:
    """Ask for ``key=value`` pairs on the last line."""
    shape = ", ".join(f"{key}=<{key}>" for key in keys)
    return f"On the last line, write the final state exactly as `{shape}`{note}."


def ask_text(what: str, example: str) -> str:
    """Ask for a quoted text on the last line."""
    return f'On the last line, write {what} in double quotes, e.g. `"{example}"`.'
