"""Checkpoint 2: JSON-lines and QIF input, several files, text/json/csv output."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from conftest import Runner, Writer, assert_error, output_of

DATA = Path(__file__).parent / "data"
JANUARY = str(DATA / "january.csv")
CARD = str(DATA / "card.qif")
UTILITIES = str(DATA / "utilities.jsonl")

QIF_HEAD = "!Account cash\n"


def test_jsonl_input(ledger: Runner) -> None:
    expected = """\
ACCOUNT   TXNS  BALANCE
checking     2   -99.50
savings      1    12.00

CATEGORY   TXNS   TOTAL
interest      1   12.00
utilities     2  -99.50
"""
    assert output_of(ledger("summary", UTILITIES)) == expected


def test_qif_input_as_csv_output(ledger: Runner) -> None:
    expected = (
        "section,name,count,amount\n"
        "account,credit card,2,-1029.01\n"
        "category,electronics,1,-1045.00\n"
        "category,uncategorized,1,15.99\n"
    )
    assert output_of(ledger("summary", CARD, "--format", "csv")) == expected


def test_files_of_mixed_formats_are_combined(ledger: Runner) -> None:
    expected = """\
ACCOUNT      TXNS   BALANCE
checking        5   1155.30
credit card     4  -1101.51
savings         2    212.00

CATEGORY       TXNS     TOTAL
electronics       1  -1045.00
food              2    -57.70
interest          1     12.00
salary            1   1500.00
transfer          2      0.00
uncategorized     2    -44.01
utilities         2    -99.50
"""
    assert output_of(ledger("summary", JANUARY, CARD, UTILITIES)) == expected


def test_json_output(ledger: Runner) -> None:
    document = json.loads(output_of(ledger("summary", JANUARY, "--format", "json")))
    assert document == {
        "accounts": [
            {"name": "checking", "count": 3, "balance": "1254.80"},
            {"name": "credit card", "count": 2, "balance": "-72.50"},
            {"name": "savings", "count": 1, "balance": "200.00"},
        ],
        "categories": [
            {"name": "food", "count": 2, "total": "-57.70"},
            {"name": "salary", "count": 1, "total": "1500.00"},
            {"name": "transfer", "count": 2, "total": "0.00"},
            {"name": "uncategorized", "count": 1, "total": "-60.00"},
        ],
    }


def test_csv_output(ledger: Runner) -> None:
    expected = (
        "section,name,count,amount\n"
        "account,checking,3,1254.80\n"
        "account,credit card,2,-72.50\n"
        "account,savings,1,200.00\n"
        "category,food,2,-57.70\n"
        "category,salary,1,1500.00\n"
        "category,transfer,2,0.00\n"
        "category,uncategorized,1,-60.00\n"
    )
    assert output_of(ledger("summary", JANUARY, "--format", "csv")) == expected


def test_input_format_overrides_extension(ledger: Runner, write: Writer) -> None:
    write("export.txt", '{"date": "2024-02-01", "account": "cash", "amount": "-2.25"}\n')
    write("bank.csv", QIF_HEAD + "D2024-02-02\nT10\n^\n")
    result = ledger("summary", "export.txt", "--input-format", "jsonl", "--format", "csv")
    assert output_of(result) == (
        "section,name,count,amount\naccount,cash,1,-2.25\ncategory,uncategorized,1,-2.25\n"
    )
    result = ledger("summary", "bank.csv", "--input-format", "qif", "--format", "csv")
    assert output_of(result) == (
        "section,name,count,amount\naccount,cash,1,10.00\ncategory,uncategorized,1,10.00\n"
    )


@pytest.mark.functionality
def test_qif_details(ledger: Runner, write: Writer) -> None:
    write("x.qif", "  !type:Bank  \n"
          "!ACCOUNT  Joint Checking \n"
          "\n"
          "D12/31/2023\n  T1,000,000.5  \nPEmployer Inc\nN1001\nLbonus\n^\n"
          "^\n"
          "!Account wallet\n"
          "MCoffee\nT-3\nD2024-01-02\nLfood\n^\n")
    expected = """\
ACCOUNT         TXNS     BALANCE
Joint Checking     1  1000000.50
wallet             1       -3.00

CATEGORY  TXNS       TOTAL
bonus        1  1000000.50
food         1       -3.00
"""
    assert output_of(ledger("summary", "x.qif")) == expected


@pytest.mark.functionality
def test_qif_dates_filter_like_iso_dates(ledger: Runner) -> None:
    result = ledger("summary", CARD, "--from", "2024-01-21", "--format", "csv")
    assert output_of(result) == (
        "section,name,count,amount\n"
        "account,credit card,1,15.99\n"
        "category,uncategorized,1,15.99\n"
    )


@pytest.mark.functionality
def test_extensions_ignore_case(ledger: Runner, write: Writer) -> None:
    write("A.CSV", "date,account,amount\n2024-01-01,a,1\n")
    write("b.NDJSON", '{"date": "2024-01-01", "account": "b", "amount": 2}\n')
    write("c.Qif", "!Account c\nD2024-01-01\nT3\n^\n")
    out = output_of(ledger("summary", "A.CSV", "b.NDJSON", "c.Qif", "--format", "json"))
    balances = {row["name"]: row["balance"] for row in json.loads(out)["accounts"]}
    assert balances == {"a": "1.00", "b": "2.00", "c": "3.00"}


@pytest.mark.functionality
def test_csv_output_quotes_when_needed(ledger: Runner, write: Writer) -> None:
    write("t.jsonl", '{"date": "2024-01-01", "account": "Smith, J.", "amount": "5",'
          ' "category": "say \\"hi\\""}\n')
    out = output_of(ledger("summary", "t.jsonl", "--format", "csv"))
    assert out == (
        'section,name,count,amount\naccount,"Smith, J.",1,5.00\ncategory,"say ""hi""",1,5.00\n'
    )


@pytest.mark.functionality
def test_empty_selection_in_json_and_csv(ledger: Runner) -> None:
    out = output_of(ledger("summary", JANUARY, "--to", "2023-12-31", "--format", "json"))
    assert json.loads(out) == {"accounts": [], "categories": []}
    out = output_of(ledger("summary", JANUARY, "--to", "2023-12-31", "--format", "csv"))
    assert out == "section,name,count,amount\n"


@pytest.mark.functionality
def test_explicit_text_format_matches_default(ledger: Runner) -> None:
    default = output_of(ledger("summary", JANUARY, CARD))
    assert output_of(ledger("summary", JANUARY, CARD, "--format", "text")) == default


@pytest.mark.error
def test_unknown_extension_needs_input_format(ledger: Runner, write: Writer) -> None:
    write("data.txt", "date,account,amount\n2024-01-01,a,1\n")
    assert_error(ledger("summary", "data.txt"), "data.txt")


@pytest.mark.error
@pytest.mark.parametrize(
    "line",
    [
        "{not json}",
        '["2024-01-01", "a", "1"]',
        '{"date": "2024-01-01", "account": "a", "amount": 12.345}',
        '{"date": "2024-01-01", "account": "a", "amount": 1e3}',
        '{"date": "2024-01-01", "account": "a", "amount": true}',
        '{"date": "2024-01-01", "account": 5, "amount": "1"}',
        '{"date": "2024-01-01", "amount": "1"}',
        '{"date": "01/02/2024", "account": "a", "amount": "1"}',
    ],
)
def test_bad_jsonl_line(ledger: Runner, write: Writer, line: str) -> None:
    write("t.jsonl", '{"date": "2024-01-01", "account": "a", "amount": "1"}\n\n' + line + "\n")
    assert_error(ledger("summary", "t.jsonl"), "t.jsonl:3")


@pytest.mark.error
@pytest.mark.parametrize(
    ("text", "line"),
    [
        (QIF_HEAD + "D2024-01-01\nLfood\n^\n", 4),
        ("D2024-01-01\nT5\n^\n!Account a\n", 3),
        (QIF_HEAD + "D2024-01-01\nT5\n^\nD2024-01-02\nT6\n", 5),
        (QIF_HEAD + "D2024-01-01\nT5\nT6\n^\n", 4),
        (QIF_HEAD + "D13/45/2024\nT5\n^\n", 4),
        (QIF_HEAD + "D2024-01-01\nT5.001\n^\n", 4),
    ],
)
def test_bad_qif_record(ledger: Runner, write: Writer, text: str, line: int) -> None:
    write("t.qif", text)
    assert_error(ledger("summary", "t.qif"), f"t.qif:{line}")


@pytest.mark.error
def test_error_in_a_later_file_rejects_the_run(ledger: Runner, write: Writer) -> None:
    write("bad.csv", "date,account,amount\n2024-01-01,a,1\n2024-01-02,a,x\n")
    assert_error(ledger("summary", JANUARY, "bad.csv"), "bad.csv:3")


@pytest.mark.error
@pytest.mark.parametrize(
    "options", [("--format", "xml"), ("--input-format", "ofx"), ("--format",)]
)
def test_bad_format_options(ledger: Runner, options: tuple[str, ...]) -> None:
    result = ledger("summary", JANUARY, *options)
    assert result.returncode == 2
    assert result.stdout == ""
