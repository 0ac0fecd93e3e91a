"""Read the budget rules file (JSON) into validated rules."""

from __future__ import annotations

import json
from dataclasses import dataclass
from decimal import Decimal
from typing import Any

from conditions import FieldPatterns, parse_condition
from errors import LedgerError
from readers import read_text
from rule_kinds import KINDS, RuleKind

COMMON_KEYS = frozenset({"id", "kind", "priority", "stop", "when"})


@dataclass(frozen=True)
class Rule:
    """One budget rule: which transactions it selects and what it checks on them."""

    id: str
    kind: str
    priority: int
    stop: bool
    when: FieldPatterns
    check: RuleKind


def _rule_id(raw: dict[str, Any], where: str) -> str:
    rule_id = raw.get("id")
    if not isinstance(rule_id, str) or not rule_id.strip():
        raise LedgerError(f"{where}: 'id' must be a non-empty string")
    return rule_id.strip()


def _priority(raw: dict[str, Any], where: str) -> int:
    value = raw.get("priority", 0)
    if isinstance(value, bool) or not isinstance(value, int):
        raise LedgerError(f"{where}: 'priority' must be an integer, got {value!r}")
    return value


def _stop(raw: dict[str, Any], where: str) -> bool:
    value = raw.get("stop", False)
    if not isinstance(value, bool):
        raise LedgerError(f"{where}: 'stop' must be true or false, got {value!r}")
    return value


def _kind(raw: dict[str, Any], where: str) -> str:
    kind = raw.get("kind")
    if kind not in KINDS:
        raise LedgerError(f"{where}: unknown kind {kind!r} (expected {', '.join(KINDS)})")
    unknown = sorted(set(raw) - COMMON_KEYS - KINDS[kind].keys)
    if unknown:
        raise LedgerError(f"{where}: unknown key(s) for kind '{kind}': {', '.join(unknown)}")
    return str(kind)


def parse_rule(raw: Any, where: str) -> Rule:
    """One rule object; ``where`` names it in errors."""
    if not isinstance(raw, dict):
        raise LedgerError(f"{where}: a rule must be an object")
    rule_id = _rule_id(raw, where)
    where = f"{where} ('{rule_id}')"
    kind = _kind(raw, where)
    return Rule(
        id=rule_id,
        kind=kind,
        priority=_priority(raw, where),
        stop=_stop(raw, where),
        when=parse_condition(raw.get("when", {}), where),
        check=KINDS[kind].parse(raw, where),
    )


def _document(path: str) -> dict[str, Any]:
    try:
        document = json.loads(read_text(path), parse_float=Decimal)
    except json.JSONDecodeError as error:
        raise LedgerError(f"{path}: not valid JSON ({error})") from None
    if not isinstance(document, dict) or not isinstance(document.get("rules"), list):
        raise LedgerError(f"{path}: expected an object with a 'rules' list")
    return document


def load_rules(path: str) -> list[Rule]:
    """Every rule of the rules file at ``path``; ids must be unique."""
    rules = [
        parse_rule(raw, f"{path}: rule {number}")
        for number, raw in enumerate(_document(path)["rules"], start=1)
    ]
    seen: set[str] = set()
    for rule in rules:
        if rule.id in seen:
            raise LedgerError(f"{path}: rule id '{rule.id}' is used twice")
        seen.add(rule.id)
    return rules
