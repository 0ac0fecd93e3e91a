"""What every calibration template shares: the reply format and the difficulty draw."""

from __future__ import annotations

import random
from typing import Any

from slopmark.evals.generators import Draft
from slopmark.evals.task import DIFFICULTIES

DOMAIN = "calibration"
REPLY_FORMAT = (
    "Reply with exactly two lines:\n"
    "Answer: <your answer>\n"
    "Confidence: <0-100>%  (how likely it is that your answer is correct)"
)
#: Templates grow their numbers and words with this factor.
SCALE = {"easy": 1, "medium": 2, "hard": 3}
YES_NO = ["yes", "no"]
WEEKDAYS = ["Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday"]


def level(rng: random.Random) -> tuple[str, int]:
    """A difficulty, drawn uniformly, and its scale (`SCALE`)."""
    difficulty = rng.choice(DIFFICULTIES)
    return difficulty, SCALE[difficulty]


def ask(question: str, answer: Any, kind: str, difficulty: str, *tags: str, **extra: Any) -> Draft:
    """A task asking ``question`` whose gold answer is ``answer``."""
    gold = [str(a) for a in answer] if kind == "list" else str(answer)
    verifier = {"type": "calibration", "answer": gold, "kind": kind, **extra}
    return Draft((f"{question}\n\n{REPLY_FORMAT}",), verifier, difficulty, tags=tags)


def yes_no(question: str, truth: bool, difficulty: str, *tags: str) -> Draft:
    """A yes/no question (answered "yes" or "no")."""
    return ask(f"{question} Answer yes or no.", "yes" if truth else "no", "choice", difficulty,
               *tags, choices=YES_NO)
