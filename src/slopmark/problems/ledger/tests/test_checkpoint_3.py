"""Checkpoint 3: the `check` command and its budget rules (limit, large, priority, stop)."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path
from typing import Any

import pytest

from conftest import Runner, Writer, assert_error

DATA = Path(__file__).parent / "data"
SPRING = str(DATA / "spring.csv")
BUDGET = str(DATA / "budget.json")

EXAMPLE_TEXT = """\
RULE       PERIOD      MESSAGE
card-big   2024-03-20  large spend 649.00 on credit card (New phone)
groceries  2024-03     spent 330.55 of 300.00 (over by 30.55)
yearly     2024        spent 2600.00 of 1500.00 (over by 1100.00)
"""


def alerts_of(result: subprocess.CompletedProcess[str]) -> list[tuple[str, str, str]]:
    """(rule, period, message) of a successful `check --format json`."""
    assert result.returncode in (0, 1), result
    assert result.stderr == ""
    document = json.loads(result.stdout)
    expected_code = 1 if document["alerts"] else 0
    assert result.returncode == expected_code
    return [(alert["rule"], alert["period"], alert["message"]) for alert in document["alerts"]]


def check_with(ledger: Runner, write: Writer, rules: list[dict[str, Any]],
               *extra: str) -> list[tuple[str, str, str]]:
    write("rules.json", json.dumps({"rules": rules}))
    return alerts_of(ledger("check", SPRING, "--rules", "rules.json", "--format", "json", *extra))


def test_example_text_output(ledger: Runner) -> None:
    result = ledger("check", SPRING, "--rules", BUDGET)
    assert (result.returncode, result.stderr, result.stdout) == (1, "", EXAMPLE_TEXT)


def test_no_alerts_exits_zero(ledger: Runner) -> None:
    result = ledger("check", SPRING, "--rules", BUDGET, "--to", "2024-03-10")
    assert (result.returncode, result.stderr, result.stdout) == (0, "", "no alerts\n")
    result = ledger("check", SPRING, "--rules", BUDGET, "--to", "2024-03-10", "--format", "csv")
    assert (result.returncode, result.stdout) == (0, "rule,kind,priority,period,message\n")


def test_example_json_output(ledger: Runner) -> None:
    result = ledger("check", SPRING, "--rules", BUDGET, "--format", "json")
    assert result.returncode == 1
    assert json.loads(result.stdout) == {"alerts": [
        {"rule": "card-big", "kind": "large", "priority": 0, "period": "2024-03-20",
         "message": "large spend 649.00 on credit card (New phone)"},
        {"rule": "groceries", "kind": "limit", "priority": 0, "period": "2024-03",
         "message": "spent 330.55 of 300.00 (over by 30.55)"},
        {"rule": "yearly", "kind": "limit", "priority": 0, "period": "2024",
         "message": "spent 2600.00 of 1500.00 (over by 1100.00)"},
    ]}


def test_example_csv_output(ledger: Runner) -> None:
    result = ledger("check", SPRING, "--rules", BUDGET, "--format", "csv")
    assert result.returncode == 1
    assert result.stdout == (
        "rule,kind,priority,period,message\n"
        "card-big,large,0,2024-03-20,large spend 649.00 on credit card (New phone)\n"
        "groceries,limit,0,2024-03,spent 330.55 of 300.00 (over by 30.55)\n"
        "yearly,limit,0,2024,spent 2600.00 of 1500.00 (over by 1100.00)\n"
    )


def test_stop_rule_hides_its_transactions(ledger: Runner, write: Writer) -> None:
    dining = {"id": "eating-out", "kind": "limit", "limit": "100", "when": {"category": "dining"}}
    work = {"id": "work", "kind": "large", "threshold": "1000", "priority": 10,
            "when": {"memo": "*reimbursed*"}}
    assert check_with(ledger, write, [dining, work]) == [
        ("eating-out", "2024-03", "spent 149.99 of 100.00 (over by 49.99)"),
    ]
    assert check_with(ledger, write, [dining, dict(work, stop=True)]) == []


def test_stop_only_affects_lower_priority_rules(ledger: Runner, write: Writer) -> None:
    taker = {"id": "taker", "kind": "large", "threshold": "5000", "stop": True,
             "when": {"category": "rent"}}
    before = {"id": "before", "kind": "large", "threshold": "900", "priority": 1,
              "when": {"category": "rent"}}
    after = {"id": "after", "kind": "large", "threshold": "900", "priority": -1,
             "when": {"category": "rent"}}
    assert check_with(ledger, write, [after, taker, before]) == [
        ("before", "2024-03-09", "large spend 950.00 on checking (March rent)"),
        ("before", "2024-04-09", "large spend 950.00 on checking (April rent)"),
    ]


def test_order_is_priority_then_id(ledger: Runner, write: Writer) -> None:
    def rent(rule_id: str, priority: int) -> dict[str, Any]:
        return {"id": rule_id, "kind": "limit", "limit": "900", "priority": priority,
                "when": {"category": "rent"}}

    rules = [rent("b", 0), rent("a", 0), rent("z", 3), rent("m", -2)]
    alerts = check_with(ledger, write, rules, "--to", "2024-03-31")
    assert [alert[0] for alert in alerts] == ["z", "a", "b", "m"]


def test_limit_is_strict_and_threshold_inclusive(ledger: Runner, write: Writer) -> None:
    rules = [
        {"id": "rent-cap", "kind": "limit", "limit": "950", "when": {"category": "rent"}},
        {"id": "rent-big", "kind": "large", "threshold": "950.00", "when": {"category": "rent"}},
    ]
    assert check_with(ledger, write, rules, "--to", "2024-03-31") == [
        ("rent-big", "2024-03-09", "large spend 950.00 on checking (March rent)"),
    ]


def test_refunds_reduce_spending(ledger: Runner, write: Writer) -> None:
    rules = [{"id": "g", "kind": "limit", "limit": "82.59", "when": {"category": "groceries"}}]
    alerts = check_with(ledger, write, rules, "--from", "2024-04-01")
    assert alerts == [("g", "2024-04", "spent 82.60 of 82.59 (over by 0.01)")]


@pytest.mark.functionality
@pytest.mark.parametrize(
    ("when", "count"),
    [
        ({"memo": "freshmart"}, 3),
        ({"memo": "fresh"}, 0),
        ({"memo": "FRESH*"}, 3),
        ({"account": "CREDIT?CARD", "memo": "n*"}, 3),
        ({"category": "[!gs]*"}, 6),
        ({"category": "sub*", "account": "checking"}, 0),
    ],
)
def test_glob_conditions(
    ledger: Runner, write: Writer, when: dict[str, str], count: int
) -> None:
    rules = [{"id": "all", "kind": "large", "threshold": "0.01", "when": when}]
    assert len(check_with(ledger, write, rules)) == count


@pytest.mark.functionality
def test_uncategorized_and_memo_less_messages(ledger: Runner, write: Writer) -> None:
    write("t.csv", "date,account,amount,category,memo\n2024-06-01,cash,-40,,\n"
          "2024-06-02,cash,-45,,Shoes\n2024-07-01,cash,-5,misc,\n")
    write("rules.json", json.dumps({"rules": [
        {"id": "u", "kind": "large", "threshold": 40, "when": {"category": "UNCATEGORIZED"}},
    ]}))
    result = ledger("check", "t.csv", "--rules", "rules.json")
    assert result.returncode == 1
    assert result.stdout == (
        "RULE  PERIOD      MESSAGE\n"
        "u     2024-06-01  large spend 40.00 on cash\n"
        "u     2024-06-02  large spend 45.00 on cash (Shoes)\n"
    )


@pytest.mark.functionality
def test_monthly_and_yearly_periods(ledger: Runner, write: Writer) -> None:
    rules = [
        {"id": "subs-month", "kind": "limit", "limit": "15.98", "when": {"category": "subs*"}},
        {"id": "subs-year", "kind": "limit", "limit": "31.97", "period": "year",
         "when": {"category": "subs*"}},
        {"id": "subs-month-ok", "kind": "limit", "limit": 15.99, "period": "month",
         "when": {"category": "subs*"}},
    ]
    assert check_with(ledger, write, rules) == [
        ("subs-month", "2024-03", "spent 15.99 of 15.98 (over by 0.01)"),
        ("subs-month", "2024-04", "spent 15.99 of 15.98 (over by 0.01)"),
        ("subs-year", "2024", "spent 31.98 of 31.97 (over by 0.01)"),
    ]


@pytest.mark.functionality
def test_rules_over_mixed_input_formats(ledger: Runner, write: Writer) -> None:
    write("more.qif", "!Account credit card\nD04/30/2024\nT-1,210.00\nLelectronics\n^\n")
    write("more.jsonl", '{"date": "2024-04-30", "account": "cash", "amount": -5000}\n')
    write("rules.json", json.dumps({"rules": [
        {"id": "huge", "kind": "large", "threshold": "1000"}]}))
    result = ledger("check", SPRING, "more.qif", "more.jsonl", "--rules", "rules.json",
                    "--format", "csv")
    assert result.returncode == 1
    assert result.stdout.splitlines()[1:] == [
        "huge,large,0,2024-04-30,large spend 1210.00 on credit card",
        "huge,large,0,2024-04-30,large spend 5000.00 on cash",
    ]


@pytest.mark.functionality
def test_summary_is_unchanged_by_rules_support(ledger: Runner) -> None:
    result = ledger("summary", SPRING, "--format", "csv", "--from", "2024-04-01")
    assert result.returncode == 0
    assert "account,savings,1,-700.00\n" in result.stdout


@pytest.mark.error
@pytest.mark.parametrize(
    "text",
    ["{not json", '[{"id": "a"}]', '{"rules": {"id": "a"}}', '{"rules": ["a"]}', "{}"],
)
def test_malformed_rules_file(ledger: Runner, write: Writer, text: str) -> None:
    write("rules.json", text)
    assert_error(ledger("check", SPRING, "--rules", "rules.json"), "rules.json")


@pytest.mark.error
@pytest.mark.parametrize(
    "change",
    [
        {"kind": "cap"},
        {"kind": None},
        {"limt": "5"},
        {"limit": "12.345"},
        {"limit": "0"},
        {"limit": -5},
        {"limit": True},
        {"limit": "1e3"},
        {"period": "week"},
        {"priority": "high"},
        {"priority": 1.5},
        {"stop": "yes"},
        {"when": ["groceries"]},
        {"when": {"payee": "x"}},
        {"when": {"memo": 5}},
        {"threshold": "10"},
    ],
)
def test_bad_rule_names_file_and_rule(
    ledger: Runner, write: Writer, change: dict[str, Any]
) -> None:
    rule = dict({"id": "cap-food", "kind": "limit", "limit": "100"}, **change)
    rule = {key: value for key, value in rule.items() if value is not None}
    write("rules.json", json.dumps({"rules": [rule]}))
    assert_error(ledger("check", SPRING, "--rules", "rules.json"), "rules.json", "cap-food")


@pytest.mark.error
@pytest.mark.parametrize(
    "rules",
    [
        [{"kind": "large", "threshold": "1"}],
        [{"id": "", "kind": "large", "threshold": "1"}],
        [{"id": "x", "kind": "large", "threshold": "1"}, {"id": "x", "kind": "large",
                                                           "threshold": "2"}],
        [{"id": "x", "kind": "large"}],
    ],
)
def test_bad_ids_and_missing_options(
    ledger: Runner, write: Writer, rules: list[dict[str, Any]]
) -> None:
    write("rules.json", json.dumps({"rules": rules}))
    assert_error(ledger("check", SPRING, "--rules", "rules.json"), "rules.json")


@pytest.mark.error
def test_missing_rules_file_and_option(ledger: Runner) -> None:
    assert_error(ledger("check", SPRING, "--rules", "absent.json"), "absent.json")
    result = ledger("check", SPRING)
    assert result.returncode == 2
    assert result.stdout == ""


@pytest.mark.error
def test_bad_transactions_exit_2_not_1(ledger: Runner, write: Writer) -> None:
    write("bad.csv", "date,account,amount\n2024-01-01,a,-5000\n2024-01-02,a,oops\n")
    assert_error(ledger("check", "bad.csv", "--rules", BUDGET), "bad.csv:3")
