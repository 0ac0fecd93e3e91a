"""Turn budget alerts into a text table, JSON or CSV."""

from __future__ import annotations

import json
from collections.abc import Callable

from engine import Alert
from render import csv_text, table

NO_ALERTS = "no alerts\n"


def alerts_text(alerts: list[Alert]) -> str:
    """RULE, PERIOD, MESSAGE columns, all left-aligned; 'no alerts' when there is none."""
    if not alerts:
        return NO_ALERTS
    rows = [(alert.rule, alert.period, alert.message) for alert in alerts]
    return "\n".join(table(("RULE", "PERIOD", "MESSAGE"), rows, align="<<<")) + "\n"


def _record(alert: Alert) -> dict[str, str | int]:
    return {
        "rule": alert.rule,
        "kind": alert.kind,
        "priority": alert.priority,
        "period": alert.period,
        "message": alert.message,
    }


def alerts_json(alerts: list[Alert]) -> str:
    """{"alerts": [{rule, kind, priority, period, message}]}."""
    return json.dumps({"alerts": [_record(alert) for alert in alerts]}, indent=2) + "\n"


def alerts_csv(alerts: list[Alert]) -> str:
    """Header rule,kind,priority,period,message and one row per alert."""
    rows = [tuple(str(value) for value in _record(alert).values()) for alert in alerts]
    return csv_text(("rule", "kind", "priority", "period", "message"), rows)


ALERT_FORMATS: dict[str, Callable[[list[Alert]], str]] = {
    "text": alerts_text,
    "json": alerts_json,
    "csv": alerts_csv,
}
