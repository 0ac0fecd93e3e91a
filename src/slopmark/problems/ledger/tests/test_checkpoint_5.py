"""Checkpoint 5: `import` into a state file with de-duplication, `report`, `check --state`."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from conftest import Runner, Writer, assert_error, output_of

DATA = Path(__file__).parent / "data"
JANUARY = str(DATA / "january.csv")
CARD = str(DATA / "card.qif")
SPRING = str(DATA / "spring.csv")
BUDGET = str(DATA / "budget.json")
STATE = "ledger.state"

MONTH_CSV = """\
section,name,count,amount
account,checking,3,1254.80
account,credit card,4,-1101.51
account,savings,1,200.00
category,electronics,1,-1045.00
category,food,2,-57.70
category,salary,1,1500.00
category,transfer,2,0.00
category,uncategorized,2,-44.01
"""

EMPTY_TEXT = "ACCOUNT  TXNS  BALANCE\n\nCATEGORY  TXNS  TOTAL\n"


def import_files(ledger: Runner, *files: str) -> str:
    return output_of(ledger("import", *files, "--state", STATE))


def report(ledger: Runner, *options: str) -> str:
    return output_of(ledger("report", "--state", STATE, *options))


def test_import_then_report_matches_summary(ledger: Runner) -> None:
    assert import_files(ledger, JANUARY) == "imported 6, skipped 0\n"
    assert report(ledger) == output_of(ledger("summary", JANUARY))


def test_reimport_adds_nothing(ledger: Runner) -> None:
    import_files(ledger, JANUARY)
    before = report(ledger, "--format", "json")
    assert import_files(ledger, JANUARY) == "imported 0, skipped 6\n"
    assert report(ledger, "--format", "json") == before


def test_overlapping_imports_add_only_new(ledger: Runner) -> None:
    assert import_files(ledger, JANUARY) == "imported 6, skipped 0\n"
    assert import_files(ledger, JANUARY, CARD) == "imported 2, skipped 6\n"
    assert report(ledger, "--month", "2024-01", "--format", "csv") == MONTH_CSV


def test_identical_transactions_are_counted(ledger: Runner, write: Writer) -> None:
    coffee = "2024-02-01,cash,-3.20,coffee,Cafe\n"
    write("one.csv", "date,account,amount,category,memo\n" + coffee * 2)
    write("two.csv", "date,account,amount,category,memo\n" + coffee * 3)
    assert import_files(ledger, "one.csv") == "imported 2, skipped 0\n"
    assert import_files(ledger, "one.csv") == "imported 0, skipped 2\n"
    assert import_files(ledger, "two.csv") == "imported 1, skipped 2\n"
    assert import_files(ledger, "one.csv", "two.csv") == "imported 2, skipped 3\n"
    assert report(ledger, "--format", "csv") == (
        "section,name,count,amount\naccount,cash,5,-16.00\ncategory,coffee,5,-16.00\n"
    )


def test_same_transaction_from_another_format_is_skipped(ledger: Runner, write: Writer) -> None:
    import_files(ledger, JANUARY)
    write("again.jsonl", "\n".join([
        '{"date": "2024-01-09", "account": " credit card", "amount": -12.50, '
        '"category": "food", "memo": "Lunch "}',
        '{"date": "2024-01-10", "account": "savings", "amount": "200.0", "category": "transfer"}',
        '{"date": "2024-01-15", "account": "credit card", "amount": "-60", "memo": "Concert"}',
        '{"date": "2024-01-15", "account": "credit card", "amount": "-60", "memo": "concert"}',
    ]) + "\n")
    write("again.qif", "!Account checking\nD01/05/2024\nT-45.2\nLfood\nMGroceries\n^\n")
    assert import_files(ledger, "again.jsonl", "again.qif") == "imported 1, skipped 4\n"


def test_report_formats_and_date_range(ledger: Runner) -> None:
    import_files(ledger, JANUARY, SPRING)
    document = json.loads(report(ledger, "--from", "2024-04-01", "--to", "2024-04-10",
                                 "--format", "json"))
    assert document == {
        "accounts": [
            {"name": "checking", "count": 2, "balance": "1550.00"},
            {"name": "credit card", "count": 2, "balance": "-82.60"},
        ],
        "categories": [
            {"name": "groceries", "count": 2, "total": "-82.60"},
            {"name": "rent", "count": 1, "total": "-950.00"},
            {"name": "salary", "count": 1, "total": "2500.00"},
        ],
    }


def test_check_over_the_state(ledger: Runner) -> None:
    import_files(ledger, SPRING)
    from_state = ledger("check", "--state", STATE, "--rules", BUDGET)
    from_file = ledger("check", SPRING, "--rules", BUDGET)
    assert from_state.returncode == 1
    assert (from_state.stdout, from_state.stderr) == (from_file.stdout, "")


@pytest.mark.functionality
@pytest.mark.parametrize(
    ("month", "count"), [("2024-02", 2), ("2024-03", 1), ("2024-01", 1), ("2023-02", 0)]
)
def test_month_bounds(ledger: Runner, write: Writer, month: str, count: int) -> None:
    write("t.csv", "date,account,amount\n2024-01-31,a,1\n2024-02-01,a,1\n"
          "2024-02-29,a,1\n2024-03-01,a,1\n")
    import_files(ledger, "t.csv")
    lines = report(ledger, "--month", month, "--format", "csv").splitlines()
    assert lines[1:2] == ([f"account,a,{count},{count}.00"] if count else [])


@pytest.mark.functionality
def test_header_only_import_creates_an_empty_state(ledger: Runner, write: Writer) -> None:
    write("empty.csv", "date,account,amount\n")
    assert import_files(ledger, "empty.csv") == "imported 0, skipped 0\n"
    assert report(ledger) == EMPTY_TEXT
    assert ledger("check", "--state", STATE, "--rules", BUDGET).stdout == "no alerts\n"


@pytest.mark.functionality
def test_state_accumulates_across_runs(ledger: Runner) -> None:
    import_files(ledger, JANUARY)
    import_files(ledger, SPRING)
    assert report(ledger) == output_of(ledger("summary", JANUARY, SPRING))
    assert report(ledger, "--month", "2023-12") == EMPTY_TEXT


@pytest.mark.functionality
def test_check_state_with_date_range(ledger: Runner) -> None:
    import_files(ledger, SPRING)
    result = ledger("check", "--state", STATE, "--rules", BUDGET, "--from", "2024-04-01",
                    "--format", "csv")
    assert (result.returncode, result.stdout) == (1, (
        "rule,kind,priority,period,message\n"
        "yearly,limit,0,2024,spent 1650.00 of 1500.00 (over by 150.00)\n"
    ))


@pytest.mark.functionality
def test_import_honours_input_format(ledger: Runner, write: Writer) -> None:
    write("statement.txt", "!Account cash\nD2024-05-01\nT-7\nLfood\n^\n")
    result = ledger("import", "statement.txt", "--state", STATE, "--input-format", "qif")
    assert output_of(result) == "imported 1, skipped 0\n"
    assert report(ledger, "--format", "csv").splitlines()[1] == "account,cash,1,-7.00"


@pytest.mark.error
def test_report_without_a_state(ledger: Runner) -> None:
    assert_error(ledger("report", "--state", "missing.state"), "missing.state")
    assert_error(ledger("check", "--state", "missing.state", "--rules", BUDGET),
                 "missing.state")


@pytest.mark.error
def test_foreign_file_at_state_path_is_left_alone(ledger: Runner, write: Writer) -> None:
    path = write(STATE, "this is my shopping list\n")
    assert_error(ledger("import", JANUARY, "--state", STATE), STATE)
    assert_error(ledger("report", "--state", STATE), STATE)
    assert path.read_text(encoding="utf-8") == "this is my shopping list\n"


@pytest.mark.error
def test_failed_import_changes_nothing(ledger: Runner, write: Writer, tmp_path: Path) -> None:
    import_files(ledger, JANUARY)
    before = (tmp_path / STATE).read_bytes()
    write("bad.csv", "date,account,amount\n2024-06-01,cash,-5\n2024-06-02,cash,five\n")
    assert_error(ledger("import", SPRING, "bad.csv", "--state", STATE), "bad.csv:3")
    assert (tmp_path / STATE).read_bytes() == before
    assert report(ledger) == output_of(ledger("summary", JANUARY))


@pytest.mark.error
@pytest.mark.parametrize(
    "argv",
    [
        ("check", JANUARY, "--state", STATE, "--rules", BUDGET),
        ("check", "--rules", BUDGET),
        ("report", "--state", STATE, "--month", "2024-01", "--from", "2024-01-01"),
        ("report", "--state", STATE, "--month", "2024-13"),
        ("report", "--state", STATE, "--month", "2024-1"),
        ("report", "--state", STATE, "--month", "May"),
        ("report", "--state", STATE, "--from", "2024-02-01", "--to", "2024-01-01"),
    ],
)
def test_bad_option_combinations(ledger: Runner, argv: tuple[str, ...]) -> None:
    import_files(ledger, JANUARY)
    assert_error(ledger(*argv))


@pytest.mark.error
@pytest.mark.parametrize(
    "argv", [("import", JANUARY), ("import", "--state", STATE), ("report",),
             ("report", "--state", STATE, "--format", "yaml")]
)
def test_usage_errors(ledger: Runner, argv: tuple[str, ...]) -> None:
    result = ledger(*argv)
    assert result.returncode == 2
    assert result.stdout == ""
