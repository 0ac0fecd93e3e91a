"""Checkpoint 4: composed and named conditions, amount bounds, recurring charges."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from conftest import Runner, Writer, assert_error

DATA = Path(__file__).parent / "data"
SPRING = str(DATA / "spring.csv")
SUBS = str(DATA / "subs.csv")

SUBS_TEXT = """\
RULE          PERIOD            MESSAGE
big-non-card  2024-01-25        large spend 75.00 on checking
big-non-card  2024-02-25        large spend 75.00 on checking
big-non-card  2024-03-25        large spend 75.00 on checking
other         2024-01..2024-03  recurring 75.00 on checking for 3 months
other         2024-04..2024-06  recurring 40.00 on checking (gym membership) for 3 months
subs          2023-11..2024-02  recurring 15.99 on credit card (netflix) for 4 months
"""


def run_rules(ledger: Runner, write: Writer, document: dict[str, Any], source: str = SPRING,
              *extra: str) -> list[tuple[str, str, str]]:
    """(rule, period, message) of every alert; asserts the exit status matches."""
    write("rules.json", json.dumps(document))
    result = ledger("check", source, "--rules", "rules.json", "--format", "json", *extra)
    assert result.stderr == ""
    alerts = json.loads(result.stdout)["alerts"]
    assert result.returncode == (1 if alerts else 0)
    return [(alert["rule"], alert["period"], alert["message"]) for alert in alerts]


def periods_of(ledger: Runner, write: Writer, when: Any,
               conditions: dict[str, Any] | None = None) -> list[str]:
    """The dates of the spendings that ``when`` selects in spring.csv."""
    document: dict[str, Any] = {
        "rules": [{"id": "probe", "kind": "large", "threshold": "0.01", "when": when}]
    }
    if conditions is not None:
        document["conditions"] = conditions
    return [period for _, period, _ in run_rules(ledger, write, document)]


def test_subscriptions_example(ledger: Runner) -> None:
    result = ledger("check", SUBS, "--rules", str(DATA / "subs.json"))
    assert (result.returncode, result.stderr, result.stdout) == (1, "", SUBS_TEXT)


def test_recurring_min_months_two(ledger: Runner, write: Writer) -> None:
    document = {"rules": [{"id": "r", "kind": "recurring", "min_months": 2,
                           "when": {"category": "subscriptions"}}]}
    assert run_rules(ledger, write, document, SUBS) == [
        ("r", "2023-11..2024-02", "recurring 15.99 on credit card (netflix) for 4 months"),
        ("r", "2024-01..2024-02", "recurring 9.99 on credit card (spotify) for 2 months"),
        ("r", "2024-03..2024-04", "recurring 11.99 on credit card (spotify) for 2 months"),
    ]


def test_recurring_reports_every_long_enough_run(ledger: Runner, write: Writer) -> None:
    document = {"rules": [{"id": "gym", "kind": "recurring", "min_months": 2,
                           "when": {"memo": "gym*"}}]}
    assert run_rules(ledger, write, document, SUBS) == [
        ("gym", "2024-01..2024-02", "recurring 40.00 on checking (gym membership) for 2 months"),
        ("gym", "2024-04..2024-06", "recurring 40.00 on checking (gym membership) for 3 months"),
    ]


def test_all_any_not(ledger: Runner, write: Writer) -> None:
    when = {"all": [
        {"account": "credit*"},
        {"any": [{"category": "dining"}, {"category": "electronics"}, {"memo": "netflix"}]},
        {"not": {"memo": "netflix"}},
    ]}
    assert periods_of(ledger, write, when) == ["2024-03-05", "2024-03-20"]


def test_amount_bounds(ledger: Runner, write: Writer) -> None:
    assert periods_of(ledger, write, {"max_amount": "-650", "min_amount": -950}) == [
        "2024-03-09", "2024-04-09", "2024-04-18",
    ]
    assert periods_of(ledger, write, {"min_amount": "-15.99", "max_amount": "0"}) == [
        "2024-03-15", "2024-04-15",
    ]


def test_named_conditions_and_refs(ledger: Runner, write: Writer) -> None:
    conditions = {
        "card": {"account": "credit card"},
        "food": {"any": [{"category": "groceries"}, {"category": "dining"}]},
        "food-on-card": {"all": [{"ref": "card"}, {"ref": "food"}]},
    }
    assert periods_of(ledger, write, {"ref": "food-on-card"}, conditions) == [
        "2024-03-02", "2024-03-05", "2024-03-12", "2024-04-03",
    ]
    assert periods_of(ledger, write, {"not": {"ref": "card"}, }, conditions) == [
        "2024-03-09", "2024-03-25", "2024-04-09", "2024-04-18",
    ]


def test_composed_conditions_with_limits_and_stop(ledger: Runner, write: Writer) -> None:
    document = {
        "conditions": {"food": {"any": [{"category": "groceries"}, {"category": "dining"}]}},
        "rules": [
            {"id": "work", "kind": "large", "threshold": "1000", "priority": 1, "stop": True,
             "when": {"memo": "*reimbursed*"}},
            {"id": "food", "kind": "limit", "limit": "400", "when": {"ref": "food"}},
        ],
    }
    assert run_rules(ledger, write, document) == [
        ("food", "2024-03", "spent 420.54 of 400.00 (over by 20.54)"),
    ]


@pytest.mark.functionality
def test_empty_all_and_any(ledger: Runner, write: Writer) -> None:
    assert len(periods_of(ledger, write, {"all": []})) == 11
    assert periods_of(ledger, write, {"any": []}) == []
    assert len(periods_of(ledger, write, {"not": {"any": []}})) == 11


@pytest.mark.functionality
def test_deeply_nested_conditions(ledger: Runner, write: Writer) -> None:
    when = {"not": {"not": {"all": [{"any": [{"all": [{"memo": "*rent"}]}]},
                                    {"not": {"memo": "march*"}}]}}}
    assert periods_of(ledger, write, when) == ["2024-04-09"]


@pytest.mark.functionality
def test_recurring_crosses_year_and_counts_month_once(ledger: Runner, write: Writer) -> None:
    write("t.csv", "date,account,amount,memo\n"
          "2023-12-01,cash,-10,Paper\n2023-12-20,cash,-10,paper\n"
          "2024-01-05,cash,-10,PAPER\n2024-02-05,cash,-10.00,  paper \n"
          "2024-03-05,cash,10,paper\n2024-04-05,cash,-10,\n2024-05-05,cash,-10,\n")
    document = {"rules": [{"id": "p", "kind": "recurring", "min_months": 2}]}
    assert run_rules(ledger, write, document, "t.csv") == [
        ("p", "2023-12..2024-02", "recurring 10.00 on cash (paper) for 3 months"),
        ("p", "2024-04..2024-05", "recurring 10.00 on cash for 2 months"),
    ]


@pytest.mark.functionality
def test_recurring_respects_priority_and_stop(ledger: Runner, write: Writer) -> None:
    document = {"rules": [
        {"id": "streams", "kind": "recurring", "priority": 2, "stop": True,
         "when": {"memo": "netflix"}},
        {"id": "everything", "kind": "recurring", "min_months": 4},
    ]}
    assert run_rules(ledger, write, document, SUBS) == [
        ("streams", "2023-11..2024-02", "recurring 15.99 on credit card (netflix) for 4 months"),
    ]


@pytest.mark.functionality
def test_recurring_csv_output(ledger: Runner, write: Writer) -> None:
    write("rules.json", json.dumps({"rules": [
        {"id": "ins", "kind": "recurring", "when": {"category": "insurance"}}]}))
    result = ledger("check", SUBS, "--rules", "rules.json", "--format", "csv")
    assert (result.returncode, result.stdout) == (1, (
        "rule,kind,priority,period,message\n"
        "ins,recurring,0,2024-01..2024-03,recurring 75.00 on checking for 3 months\n"
    ))


@pytest.mark.error
@pytest.mark.parametrize(
    "when",
    [
        {"all": {"memo": "x"}},
        {"any": "groceries"},
        {"not": {"memo": "x"}, "memo": "y"},
        {"all": [], "any": []},
        {"all": [{"payee": "x"}]},
        {"not": ["x"]},
        {"min_amount": "1.005"},
        {"max_amount": True},
        {"ref": "nowhere"},
        "groceries",
    ],
)
def test_bad_conditions(ledger: Runner, write: Writer, when: Any) -> None:
    rules = [{"id": "probe-rule", "kind": "large", "threshold": "1", "when": when}]
    write("rules.json", json.dumps({"rules": rules}))
    assert_error(ledger("check", SPRING, "--rules", "rules.json"), "rules.json", "probe-rule")


@pytest.mark.error
@pytest.mark.parametrize(
    "conditions",
    [
        {"a": {"ref": "a"}},
        {"a": {"ref": "b"}, "b": {"not": {"ref": "a"}}},
        {"unused": {"bogus": "x"}},
        ["a"],
    ],
)
def test_bad_named_conditions(ledger: Runner, write: Writer, conditions: Any) -> None:
    rules = [{"id": "r", "kind": "large", "threshold": "1"}]
    write("rules.json", json.dumps({"conditions": conditions, "rules": rules}))
    assert_error(ledger("check", SPRING, "--rules", "rules.json"), "rules.json")


@pytest.mark.error
@pytest.mark.parametrize("min_months", [1, 0, "3", 2.5, True])
def test_bad_min_months(ledger: Runner, write: Writer, min_months: Any) -> None:
    rules = [{"id": "rec", "kind": "recurring", "min_months": min_months}]
    write("rules.json", json.dumps({"rules": rules}))
    assert_error(ledger("check", SPRING, "--rules", "rules.json"), "rules.json", "rec")


@pytest.mark.error
def test_recurring_rejects_keys_of_other_kinds(ledger: Runner, write: Writer) -> None:
    rules = [{"id": "rec", "kind": "recurring", "threshold": "5"}]
    write("rules.json", json.dumps({"rules": rules}))
    assert_error(ledger("check", SPRING, "--rules", "rules.json"), "rules.json", "rec")
