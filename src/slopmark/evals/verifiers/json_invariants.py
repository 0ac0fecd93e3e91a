"""The invariants of json tasks: sums, counts, comparisons, uniqueness, order, subsets.

Each invariant is a mapping naming its kind (``{"sum": "/items/*/price",
"equals": 10}``); the language is documented in `verifiers.json_output`.
"""

from __future__ import annotations

import json
import math
from collections import defaultdict
from collections.abc import Callable, Mapping
from typing import Any

from slopmark.evals.verifiers.base import Check
from slopmark.evals.verifiers.json_paths import Match, PathError, brief, is_number, kind_of, resolve

OPERATORS: dict[str, Callable[[Any, Any], bool]] = {
    "<": lambda a, b: a < b,
    "<=": lambda a, b: a <= b,
    "==": lambda a, b: a == b,
    "!=": lambda a, b: a != b,
    ">=": lambda a, b: a >= b,
    ">": lambda a, b: a > b,
}
TARGETS = ("equals", "at_least", "at_most")


def _canonical(value: Any) -> str:
    if isinstance(value, float) and value.is_integer():
        value = int(value)
    return json.dumps(value, sort_keys=True)


def _operand(document: Any, operand: Any) -> list[Match]:
    if isinstance(operand, str):
        return resolve(document, operand)
    literal = operand["value"] if isinstance(operand, dict) else operand
    return [Match("", (), literal, literal=True)]


def _single_number(document: Any, target: Any) -> float | None:
    matches = _operand(document, target)
    one = len(matches) == 1 and is_number(matches[0].value)
    return float(matches[0].value) if one else None


def _aggregate(invariant: Mapping[str, Any], document: Any, total: float, what: str) -> Check:
    key = next(k for k in TARGETS if k in invariant)
    wanted = _single_number(document, invariant[key])
    if wanted is None:
        return Check(_title(invariant), False, f"{invariant[key]!r} does not lead to one number")
    slack = invariant.get("tolerance", 1e-6)
    passed = {
        "equals": abs(total - wanted) <= slack,
        "at_least": total >= wanted - slack,
        "at_most": total <= wanted + slack,
    }[key]
    expected = "expected " + {"equals": "", "at_least": "at least ", "at_most": "at most "}[key]
    expected += f"{wanted:g}"
    return Check(_title(invariant), passed, f"{what} is {total:g}; {expected}")


def _sum(invariant: Mapping[str, Any], document: Any) -> Check:
    matches = resolve(document, invariant["sum"])
    bad = [m for m in matches if not is_number(m.value)]
    if bad:
        detail = f"{bad[0].where} is {kind_of(bad[0].value)}, not a number"
        return Check(_title(invariant), False, detail)
    total = math.fsum(m.value for m in matches)
    return _aggregate(invariant, document, total, f"the sum of {len(matches)} value(s)")


def _count(invariant: Mapping[str, Any], document: Any) -> Check:
    path = invariant["count"]
    found = len(resolve(document, path + "/*"))
    return _aggregate(invariant, document, found, "the count")


def _pairs(left: list[Match], right: list[Match]) -> list[tuple[Match, Match]]:
    """Pairs whose ``*`` bindings agree: one binding list is a prefix of the other."""
    exact: dict[tuple[str, ...], list[Match]] = defaultdict(list)
    below: dict[tuple[str, ...], list[Match]] = defaultdict(list)
    for b in right:
        exact[b.keys].append(b)
        for size in range(len(b.keys)):
            below[b.keys[:size]].append(b)
    pairs: list[tuple[Match, Match]] = []
    for a in left:
        for size in range(len(a.keys) + 1):
            pairs.extend((a, b) for b in exact.get(a.keys[:size], ()))
        pairs.extend((a, b) for b in below.get(a.keys, ()))
    return pairs


def _holds(a: Any, op: str, b: Any) -> bool:
    if op in ("==", "!="):
        same = _canonical(a) == _canonical(b)
        return same if op == "==" else not same
    comparable = (is_number(a) and is_number(b)) or (isinstance(a, str) and isinstance(b, str))
    return comparable and OPERATORS[op](a, b)


def _compare(invariant: Mapping[str, Any], document: Any) -> Check:
    left_path, op, right_path = invariant["compare"]
    pairs = _pairs(_operand(document, left_path), _operand(document, right_path))
    if not pairs:
        return Check(_title(invariant), False, "no values to compare")
    failing = [(a, b) for a, b in pairs if not _holds(a.value, op, b.value)]
    if not failing:
        return Check(_title(invariant), True, f"holds for {len(pairs)} pair(s)")
    a, b = failing[0]
    detail = f"{len(failing)} of {len(pairs)} pair(s) fail, first {a} vs {b}"
    return Check(_title(invariant), False, detail)


def _unique(invariant: Mapping[str, Any], document: Any) -> Check:
    seen: dict[str, str] = {}
    for match in resolve(document, invariant["unique"]):
        key = _canonical(match.value)
        if key in seen:
            detail = f"{match.where} repeats {seen[key]} ({brief(match.value)})"
            return Check(_title(invariant), False, detail)
        seen[key] = match.where
    return Check(_title(invariant), True, f"{len(seen)} distinct value(s)")


def _sorted(invariant: Mapping[str, Any], document: Any) -> Check:
    matches = resolve(document, invariant["sorted"])
    op = {"asc": "<", "desc": ">"}[invariant.get("order", "asc")]
    op += "" if invariant.get("strict", False) else "="
    for before, after in zip(matches, matches[1:], strict=False):
        if not _holds(before.value, op, after.value):
            return Check(_title(invariant), False, f"out of order: {before} then {after}")
    return Check(_title(invariant), True, f"{len(matches)} value(s) in order")


def _subset(invariant: Mapping[str, Any], document: Any) -> Check:
    allowed = {_canonical(m.value) for m in resolve(document, invariant["of"])}
    for match in resolve(document, invariant["subset"]):
        if _canonical(match.value) not in allowed:
            detail = f"{match} is not among {invariant['of']}"
            return Check(_title(invariant), False, detail)
    return Check(_title(invariant), True, f"every value is among {invariant['of']}")


INVARIANTS: dict[str, Callable[[Mapping[str, Any], Any], Check]] = {
    "sum": _sum,
    "count": _count,
    "compare": _compare,
    "unique": _unique,
    "sorted": _sorted,
    "subset": _subset,
}


def _title(invariant: Mapping[str, Any]) -> str:
    kind = next(k for k in INVARIANTS if k in invariant)
    if kind == "compare":
        left, op, right = invariant["compare"]
        return f"compare {_shown(left)} {op} {_shown(right)}"
    target = next((f" {k} {invariant[k]}" for k in (*TARGETS, "of") if k in invariant), "")
    return f"{kind} {invariant[kind]}{target}"


def _shown(operand: Any) -> str:
    """A path as itself, a literal as JSON."""
    if isinstance(operand, str):
        return operand
    return brief(operand.get("value") if isinstance(operand, dict) else operand)


def check_invariant(invariant: Mapping[str, Any], document: Any) -> Check:
    """One invariant as a check named by its kind (``sum``, ``compare``, ...), the
    invariant itself leading its detail; a path that breaks off fails it."""
    kind = next(k for k in INVARIANTS if k in invariant)
    try:
        check = INVARIANTS[kind](invariant, document)
    except PathError as error:
        check = Check(_title(invariant), False, str(error))
    return Check(kind, check.passed, f"{check.name}: {check.detail}")
