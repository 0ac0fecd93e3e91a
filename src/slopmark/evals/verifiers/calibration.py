"""The calibration domain: a short answer plus a stated confidence, scored by Brier.

Config: ``{"type": "calibration", "answer": GOLD, "kind": KIND, "aliases": [...],
"choices": [...], "tolerance": 1e-6}`` (``answer`` and ``kind`` required).

The prompt asks for ``Answer: ...`` and ``Confidence: N%``. The confidence is
the last "Confidence" on the output followed by a number: ``80%`` and
``80`` mean 0.8; a number up to 1 written with a decimal point and no ``%``
(``0.8``) is read as a probability. Outside 0–100% it is invalid. Lines
stating the confidence are removed before the answer is found as
`slopmark.evals.answers` describes (after "Answer:", else the last line).

Answer kinds: ``integer`` (exact), ``number`` (within ``tolerance``, relative
above 1), ``text`` (equal to GOLD or an alias ignoring case, surrounding
quotes, spaces and a final full stop), ``choice`` (exactly one of ``choices``
is named, as a whole word, and it is GOLD: "Tuesday, not Monday" is no
answer), ``list`` (GOLD a list; the same items in the same order, split on
commas, else spaces).

passed = the answer is correct. score = 1 − (p − c)² with p the confidence
and c 1 if correct else 0 (the Brier score's complement); 0 when no valid
confidence was stated. ``extra`` = ``{"confidence": p or None, "correct": c}``
for the board's calibration error (ECE) and Brier score.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from fractions import Fraction
from typing import Any

from slopmark.evals.answers import Answer, answer_number, final_answer, parse_number
from slopmark.evals.verifiers.base import Check, Message, Verdict, register

KINDS = ("integer", "number", "text", "choice", "list")
FIELDS = ("type", "answer", "kind", "aliases", "choices", "tolerance")
DEFAULT_TOLERANCE = 1e-6
_CONFIDENCE = re.compile(
    r"confidence\b[^0-9\n]{0,30}?(\d{1,4}(?:\.\d+)?)\s*(%|percent)?", re.IGNORECASE
)
_CONFIDENCE_LINE = re.compile(r"^[\W_]*confidence\b", re.IGNORECASE)
_CONFIDENCE_WORD = re.compile(r"\bconfidence\b", re.IGNORECASE)


def stated_confidence(output: str) -> tuple[float | None, str]:
    """The stated confidence as a probability, and how it was read (or why not)."""
    found = list(_CONFIDENCE.finditer(output))
    if not found:
        return None, "no 'Confidence: N%' in the output"
    number, percent = found[-1].group(1), found[-1].group(2)
    value = float(number)
    probability = value if not percent and "." in number and value <= 1 else value / 100
    if not 0 <= probability <= 1:
        return None, f"confidence {number}{percent or ''} is outside 0–100%"
    return probability, f"{found[-1].group(0).strip()} → {probability:g}"


def stated_answer(output: str) -> Answer | None:
    """The final answer, ignoring the lines (and line ends) that state the confidence."""
    lines = [line for line in output.splitlines() if not _CONFIDENCE_LINE.match(line)]
    answer = final_answer("\n".join(lines))
    if answer is None:
        return None
    found = _CONFIDENCE_WORD.search(answer.text)
    text = (answer.text[: found.start()] if found else answer.text).rstrip(" \t(,;[-")
    return Answer(text, answer.source) if text else None


def _text_key(text: str) -> str:
    text = " ".join(text.split()).strip("\"'“”‘’ ").rstrip(".!").strip("\"'“”‘’ ")
    return text.casefold()


def _check_integer(config: Mapping[str, Any], answer: Answer) -> tuple[bool, str]:
    given, gold = answer_number(answer), parse_number(str(config["answer"]))
    if given is None or gold is None:
        return False, f"no number in '{answer.text[:80]}'"
    return given.value == gold.value, f"{given.value} vs {config['answer']}"


def _check_number(config: Mapping[str, Any], answer: Answer) -> tuple[bool, str]:
    given, gold = answer_number(answer), parse_number(str(config["answer"]))
    if given is None or gold is None:
        return False, f"no number in '{answer.text[:80]}'"
    bound = Fraction(config.get("tolerance", DEFAULT_TOLERANCE)) * max(Fraction(1), abs(gold.value))
    same = abs(given.value - gold.value) <= bound
    return same, f"{float(given.value):g} vs {config['answer']} (tolerance {float(bound):g})"


def _check_text(config: Mapping[str, Any], answer: Answer) -> tuple[bool, str]:
    accepted = {_text_key(str(a)) for a in [config["answer"], *config.get("aliases", [])]}
    same = _text_key(answer.text) in accepted
    return same, f"'{answer.text[:80]}' vs '{config['answer']}'"


def _check_choice(config: Mapping[str, Any], answer: Answer) -> tuple[bool, str]:
    named = {c for c in config["choices"] if _mentions(answer.text, str(c))}
    if len(named) != 1:
        listed = ", ".join(sorted(map(str, named))) or "none"
        return False, f"'{answer.text[:80]}' names {listed}; expected exactly one choice"
    (choice,) = named
    same = _text_key(choice) == _text_key(str(config["answer"]))
    return same, f"{choice} vs {config['answer']}"


def _mentions(text: str, choice: str) -> bool:
    pattern = rf"(?<![\w/]){re.escape(choice)}(?![\w/])"
    return re.search(pattern, text, re.IGNORECASE) is not None


def _check_list(config: Mapping[str, Any], answer: Answer) -> tuple[bool, str]:
    body = answer.text.strip().strip("[](){}")
    parts = body.split(",") if "," in body else body.split()
    given = [_item_key(p) for p in parts if p.strip()]
    wanted = [_item_key(str(item)) for item in config["answer"]]
    return given == wanted, f"[{', '.join(given)}] vs [{', '.join(wanted)}]"


def _item_key(text: str) -> str:
    number = parse_number(text)
    return str(number.value) if number is not None else _text_key(text)


_CHECKERS = {
    "integer": _check_integer, "number": _check_number, "text": _check_text,
    "choice": _check_choice, "list": _check_list,
}  # fmt: skip


@register("calibration")
class CalibrationVerifier:
    """Checks the answer and reads the stated confidence (see the module doc)."""

    name = "calibration"

    def problems(self, config: Mapping[str, Any]) -> list[str]:
        return config_problems(config)

    def verify(
        self, config: Mapping[str, Any], output: str, transcript: Sequence[Message]
    ) -> Verdict:
        probability, how = stated_confidence(output)
        answer = stated_answer(output)
        if answer is None:
            correct, detail = False, "no answer in the output"
        else:
            correct, detail = _CHECKERS[config["kind"]](config, answer)
        stated = Check("confidence", probability is not None, how)
        score = 0.0 if probability is None else 1 - (probability - correct) ** 2
        extra = {"confidence": probability, "correct": correct}
        return Verdict(correct, score, (Check("answer", correct, detail), stated), extra=extra)


def config_problems(config: Mapping[str, Any]) -> list[str]:
    """What is wrong with a calibration verifier config."""
    allowed = ", ".join(FIELDS)
    found = [f"unknown field '{k}'; allowed: {allowed}" for k in config if k not in FIELDS]
    kind = config.get("kind")
    if kind not in KINDS:
        return [*found, f"'kind' is {kind!r}; allowed: {', '.join(KINDS)}"]
    found += _answer_problems(kind, config.get("answer"))
    return found + _option_problems(config) + _choice_problems(config)


def _answer_problems(kind: str, gold: Any) -> list[str]:
    if kind == "list":
        ok = isinstance(gold, list) and bool(gold)
        return [] if ok else [f"'answer' is {gold!r}; kind 'list' needs a non-empty list"]
    if not isinstance(gold, str) or not gold.strip():
        return [f"'answer' is {gold!r}; write the gold answer as a non-empty string"]
    if kind in ("integer", "number") and parse_number(gold) is None:
        return [f"'answer' is {gold!r}; kind '{kind}' needs a number such as \"42\""]
    return []


def _option_problems(config: Mapping[str, Any]) -> list[str]:
    found = []
    aliases = config.get("aliases", [])
    if not isinstance(aliases, list) or not all(isinstance(a, str) for a in aliases):
        found.append(f"'aliases' is {aliases!r}; use a list of strings")
    tolerance = config.get("tolerance", DEFAULT_TOLERANCE)
    number = isinstance(tolerance, (int, float)) and not isinstance(tolerance, bool)
    if not number or not 0 <= tolerance < 1:
        found.append(f"'tolerance' is {tolerance!r}; use a number in [0, 1), e.g. 1e-6")
    return found


def _choice_problems(config: Mapping[str, Any]) -> list[str]:
    choices, kind = config.get("choices"), config.get("kind")
    if kind != "choice":
        return ["'choices' is only for kind 'choice'"] if "choices" in config else []
    if not isinstance(choices, list) or len(choices) < 2:
        return [f"'choices' is {choices!r}; kind 'choice' needs a list of at least 2 options"]
    if _text_key(str(config.get("answer"))) not in {_text_key(str(c)) for c in choices}:
        return [f"'answer' {config.get('answer')!r} is not one of the choices {choices!r}"]
    return []
