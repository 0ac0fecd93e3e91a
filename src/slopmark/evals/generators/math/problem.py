"""What every math template shares: the answer forms, the difficulty draw, number display."""

from __future__ import annotations

import random
from fractions import Fraction
from typing import Any

import sympy

from slopmark.evals.answers import format_number
from slopmark.evals.generators import Draft
from slopmark.evals.task import DIFFICULTIES

DOMAIN = "math"
NAMES = ("Ana", "Ben", "Chen", "Dara", "Eli", "Fatima", "Goran", "Hana", "Ivo", "Jun", "Kofi",
         "Lena", "Mateo", "Nia", "Omar", "Priya")  # fmt: skip
WORDS = ("BANANA", "LETTER", "APPLE", "BALLOON", "COMMITTEE", "PEPPER", "TOMATO", "ASSESS",
         "STATISTICS", "BOOKKEEPER", "COFFEE", "PARALLEL", "SUCCESS", "REFERENCE")  # fmt: skip
_FORMS = {
    "integer": "Give the final answer as a whole number on the last line, as `Answer: <number>`.",
    "number": "Give the exact value (an integer, a fraction such as 7/4, or a terminating decimal) "
    "on the last line, as `Answer: <value>`.",
    "expression": "Give the final expression on the last line, as `Answer: <expression>` "
    "(use ^ for powers).",
    "set": "List every solution, separated by commas, on the last line, as `Answer: <values>`.",
    "tuple": "Give the solution on the last line, as `Answer: x = <value>, y = <value>`.",
}
X, Y = sympy.symbols("x y")


def draw_level(rng: random.Random) -> tuple[str, int]:
    """A difficulty and its scale (1, 2, 3)."""
    index = rng.randrange(3)
    return DIFFICULTIES[index], index + 1


def draft(
    question: str, answer: Any, kind: str, difficulty: str, *tags: str, **extra: Any
) -> Draft:
    """A task asking ``question``, with the answer form of ``kind`` stated after it."""
    gold = [_gold(a) for a in answer] if kind in ("set", "tuple") else _gold(answer)
    verifier = {"type": "math", "answer": gold, "kind": kind, **extra}
    return Draft((f"{question}\n\n{_FORMS[kind]}",), verifier, difficulty, tags=tags)


def _gold(value: Any) -> str:
    if isinstance(value, (int, Fraction)):
        return format_number(Fraction(value))
    return str(value)


def nonzero(rng: random.Random, low: int, high: int) -> int:
    """A random integer in [low, high] other than 0."""
    return rng.choice([n for n in range(low, high + 1) if n != 0])


def show(expr: Any) -> str:
    """A SymPy expression as a person writes it: ``6*x**2`` → ``6x^2``."""
    return str(expr).replace("**", "^").replace("*", "")


def nth(n: int) -> str:
    """``n`` as an ordinal: 1st, 2nd, 11th, 23rd."""
    suffix = "th" if 10 <= n % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
    return f"{n}{suffix}"
