"""Checkpoint 2: the query language (typed comparisons, boolean logic, regex, errors)."""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

import pytest

if TYPE_CHECKING:
    from conftest import RunLogq, WriteLog

APP_LOG = (
    "time=2024-03-01T10:00:00Z level=info service=api path=/api/users status=200 latency=12.5\n"
    "time=2024-03-01T10:00:05Z level=warn service=api path=/api/orders status=404 latency=3\n"
    "time=2024-03-01T10:01:00Z level=error service=billing path=/internal/charge status=503"
    " latency=2500\n"
    'time=2024-03-01T10:02:00Z level=info service=billing msg="retry ok" status=200 latency=180\n'
)
USERS, ORDERS, CHARGE, RETRY = APP_LOG.splitlines()


def query(logq: RunLogq, write_log: WriteLog, expression: str, log: str = APP_LOG) -> str:
    """Run one query over ``log`` and return stdout, checking the run succeeded."""
    result = logq("-q", expression, write_log("app.log", log))
    assert result.returncode == 0, result.stderr
    return result.stdout


def test_numeric_comparisons_joined_by_and(logq: RunLogq, write_log: WriteLog) -> None:
    assert query(logq, write_log, "status >= 400 AND latency < 100") == f"{ORDERS}\n"


def test_or_not_parentheses_and_regex(logq: RunLogq, write_log: WriteLog) -> None:
    expression = 'level = error OR (service = api AND NOT path ~ "users$")'
    assert query(logq, write_log, expression) == f"{ORDERS}\n{CHARGE}\n"


def test_numbers_compare_numerically_not_as_text(logq: RunLogq, write_log: WriteLog) -> None:
    assert query(logq, write_log, "latency > 100") == f"{CHARGE}\n{RETRY}\n"


def test_timestamps_compare_as_instants_across_offsets(
    logq: RunLogq, write_log: WriteLog
) -> None:
    assert query(logq, write_log, "time > 2024-03-01T11:00:30+01:00") == f"{CHARGE}\n{RETRY}\n"


def test_and_binds_tighter_than_or(logq: RunLogq, write_log: WriteLog) -> None:
    log = "a=1 b=0 c=0\na=0 b=2 c=3\na=0 b=2 c=0\na=1 b=2 c=3\n"
    expected = "a=1 b=0 c=0\na=0 b=2 c=3\na=1 b=2 c=3\n"
    assert query(logq, write_log, "a = 1 OR b = 2 AND c = 3", log) == expected


def test_quoted_value_compares_as_string(logq: RunLogq, write_log: WriteLog) -> None:
    log = "v=10\nv=9\nv=1.50\n"
    assert query(logq, write_log, 'v < "9"', log) == "v=10\nv=1.50\n"
    assert query(logq, write_log, "v < 9", log) == "v=1.50\n"


def test_missing_or_unconvertible_field_is_false_even_for_not_equal(
    logq: RunLogq, write_log: WriteLog
) -> None:
    log = "n=1 status=200\nn=2 status=500\nn=3\nn=4 status=abc\n"
    assert query(logq, write_log, "status != 200", log) == "n=2 status=500\n"
    expected = "n=2 status=500\nn=3\nn=4 status=abc\n"
    assert query(logq, write_log, "NOT status = 200", log) == expected


def test_query_and_where_must_both_hold(logq: RunLogq, write_log: WriteLog) -> None:
    name = write_log("a.log", APP_LOG)
    result = logq("-q", 'path != "/api/users"', "--where", "level=info", name)
    assert (result.returncode, result.stdout) == (0, "")
    result = logq("--query", "status = 200", "--where", "service=billing", name)
    assert result.stdout == f"{RETRY}\n"


@pytest.mark.functionality
def test_keywords_are_case_insensitive(logq: RunLogq, write_log: WriteLog) -> None:
    expression = "not service = api and (status = 503 or latency = 180)"
    assert query(logq, write_log, expression) == f"{CHARGE}\n{RETRY}\n"


@pytest.mark.functionality
def test_repeated_query_options_must_all_hold(logq: RunLogq, write_log: WriteLog) -> None:
    result = logq("-q", "service = api", "--query", "latency < 10", write_log("a.log", APP_LOG))
    assert result.stdout == f"{ORDERS}\n"


@pytest.mark.functionality
def test_regex_is_an_unanchored_search(logq: RunLogq, write_log: WriteLog) -> None:
    assert query(logq, write_log, "path ~ api") == f"{USERS}\n{ORDERS}\n"
    assert query(logq, write_log, 'path ~ "^/i"') == f"{CHARGE}\n"
    assert query(logq, write_log, 'msg ~ "y o"') == f"{RETRY}\n"


@pytest.mark.functionality
def test_only_plain_decimals_are_numbers(logq: RunLogq, write_log: WriteLog) -> None:
    log = "n=1e3\nn=inf\nn=nan\nn=1_000\nn=0x10\nn=-4\nn=7.25\nn=+5\n"
    assert query(logq, write_log, "n > -100", log) == "n=-4\nn=7.25\n"


@pytest.mark.functionality
def test_equal_numbers_with_different_text(logq: RunLogq, write_log: WriteLog) -> None:
    log = "v=1.50\nv=1.5\nv=1.05\nv=01.5\n"
    assert query(logq, write_log, "v = 1.5", log) == "v=1.50\nv=1.5\nv=01.5\n"


@pytest.mark.functionality
def test_dates_fractions_and_invalid_dates(logq: RunLogq, write_log: WriteLog) -> None:
    log = (
        "t=2024-02-29T23:59:59.999Z n=1\nt=2024-03-01 n=2\nt=2024-03-01T00:00:00.5 n=3\n"
        "t=2024-02-30T00:00:00Z n=4\nt=yesterday n=5\n"
    )
    assert query(logq, write_log, "t >= 2024-03-01", log) == (
        "t=2024-03-01 n=2\nt=2024-03-01T00:00:00.5 n=3\n"
    )
    assert query(logq, write_log, "t < 2024-03-01T00:00:00.25+00:00", log) == (
        "t=2024-02-29T23:59:59.999Z n=1\nt=2024-03-01 n=2\n"
    )


@pytest.mark.functionality
def test_compact_syntax_and_quoted_keyword_value(logq: RunLogq, write_log: WriteLog) -> None:
    log = "op=and x=5\nop=or x=-3\n"
    assert query(logq, write_log, 'op="and"', log) == "op=and x=5\n"
    assert query(logq, write_log, "(x>=-3)AND(x<0)", log) == "op=or x=-3\n"


@pytest.mark.functionality
def test_strings_compare_by_code_point(logq: RunLogq, write_log: WriteLog) -> None:
    log = "s=apple\ns=Banana\ns=banana\ns=cherry\n"
    assert query(logq, write_log, "s > banana", log) == "s=cherry\n"
    assert query(logq, write_log, "s < apple", log) == "s=Banana\n"


@pytest.mark.error
@pytest.mark.parametrize(
    ("expression", "column"),
    [
        ("status >=", 10),
        ("(level = error", 15),
        ("level = error)", 14),
        ("level error", 7),
        ("level == error", 8),
        ('msg = "unclosed', 7),
        ("a = 1 b = 2", 7),
        ('path ~ "[a-"', 8),
        ("a ! b", 3),
        ("AND a = 1", 1),
        ("a = 1 OR", 9),
        ("", 1),
    ],
)
def test_parse_error_reports_column(
    logq: RunLogq, write_log: WriteLog, expression: str, column: int
) -> None:
    result = logq("-q", expression, write_log("app.log", APP_LOG))
    assert result.returncode == 2
    assert result.stdout == ""
    assert result.stderr.startswith("logq: error: ")
    found = re.search(r"column (\d+)", result.stderr)
    assert found is not None, result.stderr
    assert int(found.group(1)) == column


@pytest.mark.error
def test_parse_error_in_second_query_is_reported(logq: RunLogq, write_log: WriteLog) -> None:
    result = logq("-q", "status = 200", "-q", "latency <", write_log("app.log", APP_LOG))
    assert result.returncode == 2
    assert result.stdout == ""
    assert "column 10" in result.stderr
