"""Run budget rules over transactions, highest priority first."""

from __future__ import annotations

from dataclasses import dataclass

from rules import Rule
from transactions import Transaction


@dataclass(frozen=True)
class Alert:
    """A finding of one rule, ready to print."""

    rule: str
    kind: str
    priority: int
    period: str
    message: str


def evaluation_order(rules: list[Rule]) -> list[Rule]:
    """Priority descending, then id ascending."""
    return sorted(rules, key=lambda rule: (-rule.priority, rule.id))


def _alerts_of(rule: Rule, selected: list[Transaction]) -> list[Alert]:
    found = [
        Alert(rule.id, rule.kind, rule.priority, finding.period, finding.message)
        for finding in rule.check.findings(selected)
    ]
    return sorted(found, key=lambda alert: (alert.period, alert.message))


def evaluate(rules: list[Rule], transactions: list[Transaction]) -> list[Alert]:
    """Every alert, in evaluation order; a 'stop' rule hides what it selects from later rules."""
    remaining = list(transactions)
    alerts: list[Alert] = []
    for rule in evaluation_order(rules):
        selected = [txn for txn in remaining if rule.when.matches(txn)]
        if rule.stop:
            remaining = [txn for txn in remaining if not rule.when.matches(txn)]
        alerts.extend(_alerts_of(rule, selected))
    return alerts
