"""Checkpoint 1: summarize a CSV file as account and category tables."""

from __future__ import annotations

from pathlib import Path

import pytest

from conftest import Runner, Writer, assert_error, output_of

DATA = Path(__file__).parent / "data"
JANUARY = str(DATA / "january.csv")

JANUARY_SUMMARY = """\
ACCOUNT      TXNS  BALANCE
checking        3  1254.80
credit card     2   -72.50
savings         1   200.00

CATEGORY       TXNS    TOTAL
food              2   -57.70
salary            1  1500.00
transfer          2     0.00
uncategorized     1   -60.00
"""

HEADER_ONLY = """\
ACCOUNT  TXNS  BALANCE

CATEGORY  TXNS  TOTAL
"""


def test_summary_of_example_file(ledger: Runner) -> None:
    assert output_of(ledger("summary", JANUARY)) == JANUARY_SUMMARY


def test_date_range_is_inclusive(ledger: Runner) -> None:
    expected = """\
ACCOUNT      TXNS  BALANCE
checking        1  -200.00
credit card     1   -12.50
savings         1   200.00

CATEGORY  TXNS   TOTAL
food         1  -12.50
transfer     2    0.00
"""
    result = ledger("summary", JANUARY, "--from", "2024-01-09", "--to", "2024-01-10")
    assert output_of(result) == expected


def test_columns_in_any_order_and_extra_columns(ledger: Runner, write: Writer) -> None:
    write("t.csv", "memo,Amount,bank id,category,DATE,account\n"
          "coffee,-3.50,77,food,2024-03-01,cash\n"
          "refund,10,78,food,2024-03-02,cash\n")
    expected = """\
ACCOUNT  TXNS  BALANCE
cash        2     6.50

CATEGORY  TXNS  TOTAL
food         2   6.50
"""
    assert output_of(ledger("summary", "t.csv")) == expected


def test_optional_columns_may_be_absent(ledger: Runner, write: Writer) -> None:
    write("t.csv", "date,account,amount\n2024-03-01,cash,-1\n2024-03-02,wallet,25.5\n")
    expected = """\
ACCOUNT  TXNS  BALANCE
cash        1    -1.00
wallet      1    25.50

CATEGORY       TXNS  TOTAL
uncategorized     2  24.50
"""
    assert output_of(ledger("summary", "t.csv")) == expected


def test_header_only_file_prints_bare_headers(ledger: Runner, write: Writer) -> None:
    write("t.csv", "date,account,amount,category,memo\n")
    assert output_of(ledger("summary", "t.csv")) == HEADER_ONLY


def test_wide_values_widen_their_columns(ledger: Runner, write: Writer) -> None:
    rows = ["date,account,amount,category"]
    rows += [f"2024-05-{day:02d},brokerage account,12345678.9,investments" for day in range(1, 13)]
    rows.append("2024-05-20,x,-0.01,fees")
    write("t.csv", "\n".join(rows) + "\n")
    expected = """\
ACCOUNT            TXNS       BALANCE
brokerage account    12  148148146.80
x                     1         -0.01

CATEGORY     TXNS         TOTAL
fees            1         -0.01
investments    12  148148146.80
"""
    assert output_of(ledger("summary", "t.csv")) == expected


def test_decimal_sums_are_exact(ledger: Runner, write: Writer) -> None:
    rows = ["date,account,amount,category,memo"]
    rows += ["2024-01-01,cash,0.10,snacks,gum"] * 3
    rows += ["2024-01-02,cash,-0.30,snacks,return"]
    rows += ["2024-01-03,cash,0.1,misc,"] * 7
    write("t.csv", "\n".join(rows) + "\n")
    expected = """\
ACCOUNT  TXNS  BALANCE
cash       11     0.70

CATEGORY  TXNS  TOTAL
misc         7   0.70
snacks       4   0.00
"""
    assert output_of(ledger("summary", "t.csv")) == expected


@pytest.mark.functionality
def test_quoted_fields_spaces_and_blank_lines(ledger: Runner, write: Writer) -> None:
    write("t.csv", ' Date , ACCOUNT ,Amount, Category ,Memo\n'
          '\n'
          '2024-02-01,"Smith, J.", +40 ,"gifts, misc","a ""quoted"" memo"\n'
          '  ,  ,  ,  ,  \n'
          '2024-02-02,"  Smith, J. ",-0.5,gifts,\n')
    expected = """\
ACCOUNT    TXNS  BALANCE
Smith, J.     2    39.50

CATEGORY     TXNS  TOTAL
gifts           1  -0.50
gifts, misc     1  40.00
"""
    assert output_of(ledger("summary", "t.csv")) == expected


@pytest.mark.functionality
def test_names_sort_by_code_point_and_keep_case(ledger: Runner, write: Writer) -> None:
    write("t.csv", "date,account,amount,category\n"
          "2024-01-01,bank,1,food\n2024-01-01,Bank,2,Food\n"
          "2024-01-01,_misc,3,food\n2024-01-01,Zed,4,zzz\n")
    expected = """\
ACCOUNT  TXNS  BALANCE
Bank        1     2.00
Zed         1     4.00
_misc       1     3.00
bank        1     1.00

CATEGORY  TXNS  TOTAL
Food         1   2.00
food         2   4.00
zzz          1   4.00
"""
    assert output_of(ledger("summary", "t.csv")) == expected


@pytest.mark.functionality
def test_zero_is_never_negative(ledger: Runner, write: Writer) -> None:
    write("t.csv", "date,account,amount,category\n2024-01-01,a,-0.00,x\n"
          "2024-01-02,b,-5,y\n2024-01-03,b,5.00,y\n")
    out = output_of(ledger("summary", "t.csv"))
    assert "-0.00" not in out
    assert out.splitlines()[1:3] == ["a           1     0.00", "b           2     0.00"]


@pytest.mark.functionality
@pytest.mark.parametrize(
    ("option", "value", "balance"),
    [("--from", "2024-01-10", "-200.00"), ("--to", "2024-01-05", "1454.80")],
)
def test_single_sided_date_range(
    ledger: Runner, option: str, value: str, balance: str
) -> None:
    out = output_of(ledger("summary", JANUARY, option, value))
    checking = [line for line in out.splitlines() if line.startswith("checking")]
    assert checking and checking[0].split()[-1] == balance


@pytest.mark.functionality
def test_range_excluding_everything(ledger: Runner) -> None:
    assert output_of(ledger("summary", JANUARY, "--from", "2025-01-01")) == HEADER_ONLY


@pytest.mark.error
def test_missing_file(ledger: Runner) -> None:
    assert_error(ledger("summary", "nope.csv"), "nope.csv")


@pytest.mark.error
@pytest.mark.parametrize("amount", ["12.345", '"1,200.00"', ".5", "12.", "1e3", "abc", "--4"])
def test_bad_amount_names_file_and_line(ledger: Runner, write: Writer, amount: str) -> None:
    write("t.csv", f"date,account,amount\n2024-01-01,a,1\n\n2024-01-02,a,{amount}\n")
    assert_error(ledger("summary", "t.csv"), "t.csv:4")


@pytest.mark.error
@pytest.mark.parametrize("day", ["2024-02-30", "2024/01/03", "03-01-2024", "2024-1-3"])
def test_bad_date(ledger: Runner, write: Writer, day: str) -> None:
    write("t.csv", f"date,account,amount\n{day},a,1\n")
    assert_error(ledger("summary", "t.csv"), "t.csv:2")


@pytest.mark.error
@pytest.mark.parametrize(
    "row", ["2024-01-01,,5", "2024-01-01,a,", ",a,5", "2024-01-01,a", "2024-01-01,a,5,extra"]
)
def test_incomplete_rows(ledger: Runner, write: Writer, row: str) -> None:
    write("t.csv", f"date,account,amount\n2024-01-01,a,1\n{row}\n")
    assert_error(ledger("summary", "t.csv"), "t.csv:3")


@pytest.mark.error
@pytest.mark.parametrize(
    "text", ["", "date,account,category\n2024-01-01,a,b\n", "date,account,amount,Date\n"]
)
def test_bad_header_or_empty_file(ledger: Runner, write: Writer, text: str) -> None:
    write("t.csv", text)
    assert_error(ledger("summary", "t.csv"), "t.csv")


@pytest.mark.error
@pytest.mark.parametrize(
    "options", [("--from", "2024-02-01", "--to", "2024-01-01"), ("--from", "yesterday")]
)
def test_bad_date_options(ledger: Runner, options: tuple[str, ...]) -> None:
    assert_error(ledger("summary", JANUARY, *options))


@pytest.mark.error
@pytest.mark.parametrize("argv", [(), ("summary",), ("summary", JANUARY, "--bogus")])
def test_usage_errors_exit_2(ledger: Runner, argv: tuple[str, ...]) -> None:
    result = ledger(*argv)
    assert result.returncode == 2
    assert result.stdout == ""
    assert result.stderr.strip()
