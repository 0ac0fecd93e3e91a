"""The math domain: is the final answer equal to the gold answer?

Config: ``{"type": "math", "answer": GOLD, "kind": KIND, "tolerance": 1e-6,
"form": "factored" | "expanded", "names": ["x", "y"]}`` (only ``answer`` and
``kind`` are required).

The final answer is found as `slopmark.evals.answers` describes (last
``\\boxed{}``, else after the last "Answer:", else the last line). Then, by kind:

- ``integer``: the number given must equal GOLD exactly ("1,024", "1024.",
  "= 1024" and "1024.0" all equal 1024). The number given is the one right of
  the last "=", else the first number after a marker, else the last number
  of an unmarked last line ("... so 17 apples are left" gives 17).
- ``number``: GOLD is a number ("3/4", "2.5", "25*pi"). A plain number is
  compared within ``tolerance`` (relative to GOLD, absolute below 1; "25%"
  may also stand for 0.25); an answer written with sqrt, pi or powers is
  evaluated by SymPy and compared the same way.
- ``expression``: normalised string equality, else SymPy equivalence (see
  `slopmark.evals.symbolic`: a worker process with a hard 2 s limit; a proof
  by simplification, else ``answer - gold`` within ``tolerance`` of 0 at
  random points). ``form`` also requires the answer to be factored /
  expanded, so restating the question does not pass.
- ``set``: GOLD is a list; the answer lists the same values in any order
  ("x = 2 or x = -3", "{-3, 2}"). score = matched / max(len(gold), len(answer)).
- ``tuple``: GOLD is a list in order; with ``names`` the answer may say
  "x = 3, y = -2" in any order. score = components right / components.

A comparison that SymPy could not decide in time marks the verdict
``ambiguous`` (not passed, score 0).
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from slopmark.evals import symbolic
from slopmark.evals.answers import (
    Answer,
    Number,
    answer_number,
    final_answer,
    format_number,
    math_part,
    parse_number,
)
from slopmark.evals.verifiers.base import Check, Message, Verdict, register

KINDS = ("integer", "number", "expression", "set", "tuple")
FORMS = ("factored", "expanded")
FIELDS = ("type", "answer", "kind", "tolerance", "form", "names")
DEFAULT_TOLERANCE = 1e-6
_SYMBOLIC_HINT = re.compile(r"sqrt|pi|\^|\*\*|log|exp")
_ELEMENT_SPLIT = re.compile(r",(?!\d{3}\b)|;|\bor\b|\band\b")


@dataclass(frozen=True)
class Match:
    """One value compared: equal, different or undecided, and why."""

    outcome: str
    detail: str


def _number_match(given: Number, gold: Fraction, tolerance: float) -> bool:
    candidates = [given.value, given.value / 100] if given.percent else [given.value]
    bound = Fraction(tolerance) * max(Fraction(1), abs(gold))
    return any(abs(c - gold) <= bound for c in candidates)


def _compare_value(text: str, gold: str, tolerance: float, form: str | None = None) -> Match:
    """Compare one answer value (number or expression) with one gold value."""
    given, wanted = parse_number(text), parse_number(gold)
    if form is None and given is not None and wanted is not None:
        return _compare_numbers(given, wanted.value, tolerance)
    if _normalise(text) == _normalise(gold):
        return Match("equal", f"'{text}' is the gold answer as written")
    return _compare_symbolic(text, gold, tolerance, form)


def _compare_numbers(given: Number, gold: Fraction, tolerance: float) -> Match:
    same = _number_match(given, gold, tolerance)
    relation = "=" if same else "≠"
    return Match(_outcome(same), f"{_show(given.value)} {relation} {format_number(gold)}")


def _compare_symbolic(text: str, gold: str, tolerance: float, form: str | None) -> Match:
    reason = symbolic.unsafe_reason(text) if text else "nothing there"
    if reason:
        return Match("different", f"cannot read '{text[:80]}' as math: {reason}")
    found = symbolic.compare(text, gold, tolerance=tolerance, form=form)
    if found.outcome == "equal" and form and found.form_ok is not True:
        outcome = "different" if found.form_ok is False else "unknown"
        return Match(outcome, f"'{text}' equals {gold} but is not {form} ({found.detail})")
    return Match(found.outcome, f"'{text}' vs {gold}: {found.method}: {found.detail}")


def _outcome(same: bool) -> str:
    return "equal" if same else "different"


def _normalise(text: str) -> str:
    text = text.replace(" ", "").replace("**", "^").lower()
    return re.sub(r"(\d)\*(?=[a-z(])", r"\1", text)


def _check_integer(config: Mapping[str, Any], answer: Answer) -> Match:
    given, gold = answer_number(answer), parse_number(str(config["answer"]))
    if given is None or gold is None:
        return Match("different", f"no number in the final answer '{answer.text[:80]}'")
    return _compare_numbers(given, gold.value, 0.0)


def _check_number(config: Mapping[str, Any], answer: Answer) -> Match:
    tolerance, gold = float(config.get("tolerance", DEFAULT_TOLERANCE)), str(config["answer"])
    text = math_part(answer.text)
    given, wanted = answer_number(answer), parse_number(gold)
    symbolic_looking = bool(_SYMBOLIC_HINT.search(text)) and symbolic.unsafe_reason(text) is None
    if symbolic_looking or given is None or wanted is None:
        return _compare_value(text, gold, tolerance)
    return _compare_numbers(given, wanted.value, tolerance)


def _check_expression(config: Mapping[str, Any], answer: Answer) -> Match:
    tolerance = float(config.get("tolerance", DEFAULT_TOLERANCE))
    gold = str(config["answer"])
    return _compare_value(math_part(answer.text), gold, tolerance, config.get("form"))


def _show(value: Fraction) -> str:
    return str(value) if value.denominator == 1 else f"{value} (= {float(value):.6g})"


def _elements(text: str) -> list[str]:
    text = text.strip().strip("{}[]()")
    return [math_part(part) for part in _ELEMENT_SPLIT.split(text) if math_part(part)]


def _named(text: str, names: Sequence[str]) -> list[str] | None:
    values = []
    for name in names:
        found = re.search(rf"(?<![A-Za-z]){re.escape(name)}\s*=\s*([^,;]+)", text)
        if not found:
            return None
        values.append(math_part(found.group(1)))
    return values


def _check_parts(config: Mapping[str, Any], answer: Answer) -> tuple[list[Check], float, bool]:
    """Checks, score and ambiguity for the set and tuple kinds."""
    gold = [str(g) for g in config["answer"]]
    tolerance = float(config.get("tolerance", DEFAULT_TOLERANCE))
    if config["kind"] == "set":
        return _match_set(_elements(answer.text), gold, tolerance)
    given = _named(answer.text, config.get("names") or []) or _elements(answer.text)
    matches = [_compare_value(g, w, tolerance) for g, w in zip(given, gold, strict=False)]
    checks = [Check(f"component {i}", m.outcome == "equal", m.detail)
              for i, m in enumerate(matches, 1)]
    if len(given) != len(gold):
        count = f"{len(given)} components, expected {len(gold)}"
        checks.append(Check("component count", False, count))
    right = sum(m.outcome == "equal" for m in matches)
    return checks, right / max(len(gold), len(given)), any(m.outcome == "unknown" for m in matches)


def _match_set(
    given: list[str], gold: list[str], tolerance: float
) -> tuple[list[Check], float, bool]:
    unmatched, checks, undecided = list(given), [], False
    for number, wanted in enumerate(gold, 1):
        hit, unsure = _find(wanted, unmatched, tolerance)
        undecided |= unsure
        if hit is not None:
            unmatched.remove(hit)
        detail = f"{wanted} given as '{hit}'" if hit is not None else f"{wanted} missing"
        checks.append(Check(f"value {number}", hit is not None, detail))
    right = sum(c.passed for c in checks)
    if unmatched:
        checks.append(Check("extra values", False, f"not solutions: {', '.join(unmatched)}"))
    return checks, right / max(len(gold), len(given), 1), undecided


def _find(wanted: str, candidates: list[str], tolerance: float) -> tuple[str | None, bool]:
    """The first candidate equal to ``wanted``, and whether an undecided one might have been."""
    undecided = False
    for text in candidates:
        outcome = _compare_value(text, wanted, tolerance).outcome
        if outcome == "equal":
            return text, False
        undecided |= outcome == "unknown"
    return None, undecided


_SINGLE = {"integer": _check_integer, "number": _check_number, "expression": _check_expression}


@register("math")
class MathVerifier:
    """Compares the final answer with the gold answer (see the module doc)."""

    name = "math"

    def problems(self, config: Mapping[str, Any]) -> list[str]:
        return config_problems(config)

    def verify(
        self, config: Mapping[str, Any], output: str, transcript: Sequence[Message]
    ) -> Verdict:
        answer = final_answer(output)
        if answer is None:
            return Verdict(False, 0.0, (Check("final answer", False, "the output is empty"),))
        found = Check("final answer", True, f"'{answer.text[:200]}' ({answer.source})")
        if config["kind"] in _SINGLE:
            match = _SINGLE[config["kind"]](config, answer)
            passed = match.outcome == "equal"
            check = Check("value", passed, match.detail)
            undecided = match.outcome == "unknown"
            return Verdict(passed, float(passed), (found, check), ambiguous=undecided)
        checks, score, undecided = _check_parts(config, answer)
        passed = all(c.passed for c in checks) and bool(checks)
        return Verdict(passed, score, (found, *checks), ambiguous=undecided and not passed)


def config_problems(config: Mapping[str, Any]) -> list[str]:
    """What is wrong with a math verifier config (see the module doc for the fields)."""
    allowed = ", ".join(FIELDS)
    found = [f"unknown field '{k}'; allowed: {allowed}" for k in config if k not in FIELDS]
    kind = config.get("kind")
    if kind not in KINDS:
        return [*found, f"'kind' is {kind!r}; allowed: {', '.join(KINDS)}"]
    found += _answer_problems(kind, config.get("answer"))
    tolerance = config.get("tolerance", DEFAULT_TOLERANCE)
    number = isinstance(tolerance, (int, float)) and not isinstance(tolerance, bool)
    if not number or not 0 <= tolerance < 1:
        found.append(f"'tolerance' is {tolerance!r}; use a number in [0, 1), e.g. 1e-6")
    if "form" in config and (kind != "expression" or config["form"] not in FORMS):
        forms = ", ".join(FORMS)
        found.append(f"'form' is {config['form']!r}; allowed with kind 'expression': {forms}")
    found += _names_problems(config)
    return found


def _answer_problems(kind: str, gold: Any) -> list[str]:
    if kind in ("set", "tuple"):
        if not isinstance(gold, list) or not gold:
            return [f"'answer' is {gold!r}; kind '{kind}' needs a non-empty list of values"]
        return [p for value in gold for p in _value_problems("number", value)]
    return _value_problems(kind, gold)


def _value_problems(kind: str, gold: Any) -> list[str]:
    if not isinstance(gold, str) or not gold.strip():
        return [f"'answer' is {gold!r}; write the gold answer as a non-empty string"]
    number = parse_number(gold)
    if kind == "integer" and (number is None or number.value.denominator != 1):
        return [f"'answer' is {gold!r}; kind 'integer' needs an integer such as \"42\""]
    if kind == "expression" or number is None:
        reason = symbolic.unsafe_reason(gold)
        return [f"'answer' {gold!r} is not plain math: {reason}"] if reason else []
    return []


def _names_problems(config: Mapping[str, Any]) -> list[str]:
    if "names" not in config:
        return []
    names, gold = config["names"], config.get("answer")
    if config.get("kind") != "tuple" or not isinstance(names, list) or not isinstance(gold, list):
        return ["'names' is only for kind 'tuple' and is a list of variable names"]
    if len(names) != len(gold) or not all(isinstance(n, str) and n.isidentifier() for n in names):
        return [f"'names' {names!r} must be one variable name per answer value ({len(gold)})"]
    return []
