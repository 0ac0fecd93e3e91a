"""Checkpoint 3: aggregation (--group-by, --agg) and the table/json/csv formats."""

from __future__ import annotations

import json
from typing import TYPE_CHECKING

import pytest

if TYPE_CHECKING:
    from conftest import RunLogq, WriteLog

APP_LOG = (
    "service=api level=info latency=12.5\n"
    "service=api level=info latency=3\n"
    "service=billing level=error latency=2500\n"
    "service=api level=error latency=abc\n"
    "service=api level=info latency=110\n"
    "level=info latency=7\n"
)


def run_ok(logq: RunLogq, write_log: WriteLog, *args: str, log: str = APP_LOG) -> str:
    """Run logq over ``log`` with ``args``; return stdout after checking success."""
    result = logq(*args, write_log("app.log", log))
    assert result.returncode == 0, result.stderr
    return result.stdout


def test_table_with_group_by_and_several_aggregates(logq: RunLogq, write_log: WriteLog) -> None:
    out = run_ok(
        logq, write_log, "--group-by", "service", "--agg", "count", "--agg", "avg:latency",
        "--agg", "max:latency",
    )
    assert out == (
        "service  count  avg:latency  max:latency\n"
        "-------  -----  -----------  -----------\n"
        "api          4       41.833          110\n"
        "billing      1         2500         2500\n"
        "-            1            7            7\n"
    )


def test_csv_groups_in_first_appearance_order(logq: RunLogq, write_log: WriteLog) -> None:
    out = run_ok(logq, write_log, "--group-by", "service,level", "--format", "csv")
    assert out == "service,level,count\napi,info,3\nbilling,error,1\napi,error,1\n,info,1\n"


def test_json_single_row_without_group_by(logq: RunLogq, write_log: WriteLog) -> None:
    out = run_ok(
        logq, write_log, "--agg", "count", "--agg", "p50:latency", "--agg", "sum:latency",
        "--format", "json",
    )
    assert json.loads(out) == [{"count": 6, "p50:latency": 12.5, "sum:latency": 2632.5}]
    assert list(json.loads(out)[0]) == ["count", "p50:latency", "sum:latency"]


def test_no_match_without_group_by_gives_count_zero(logq: RunLogq, write_log: WriteLog) -> None:
    out = run_ok(
        logq, write_log, "-q", "level = debug", "--agg", "count", "--agg", "min:latency",
        "--format", "json",
    )
    assert json.loads(out) == [{"count": 0, "min:latency": None}]


def test_filters_apply_before_aggregation(logq: RunLogq, write_log: WriteLog) -> None:
    out = run_ok(
        logq, write_log, "--where", "level=info", "-q", "latency < 100", "--group-by", "service",
        "--agg", "sum:latency", "--format", "csv",
    )
    assert out == "service,sum:latency\napi,15.5\n,7\n"


def test_decimal_arithmetic_is_exact(logq: RunLogq, write_log: WriteLog) -> None:
    log = "x=0.1\nx=0.2\nx=1.50\nx=1.50\n"
    out = run_ok(logq, write_log, "--agg", "sum:x", "--agg", "avg:x", "--format", "csv", log=log)
    assert out == "sum:x,avg:x\n3.3,0.825\n"


def test_nearest_rank_percentiles(logq: RunLogq, write_log: WriteLog) -> None:
    twenty = "".join(f"g=a v={n}\n" for n in range(20, 0, -1))
    five = "".join(f"g=b v={n}\n" for n in (5, 1, 4, 2, 3))
    out = run_ok(
        logq, write_log, "--group-by", "g", "--agg", "p50:v", "--agg", "p95:v", "--format", "json",
        log=twenty + five,
    )
    assert json.loads(out) == [
        {"g": "a", "p50:v": 10, "p95:v": 19},
        {"g": "b", "p50:v": 3, "p95:v": 5},
    ]


def test_group_by_alone_counts(logq: RunLogq, write_log: WriteLog) -> None:
    out = run_ok(logq, write_log, "--group-by", "level")
    assert out == "level  count\n-----  -----\ninfo       4\nerror      2\n"


@pytest.mark.functionality
def test_rounding_is_half_away_from_zero(logq: RunLogq, write_log: WriteLog) -> None:
    log = "x=2.0005\nx=-0.1245\nx=1\nx=1\n"
    out = run_ok(
        logq, write_log, "--agg", "max:x", "--agg", "min:x", "--agg", "p50:x", "--format", "csv",
        log=log,
    )
    assert out == "max:x,min:x,p50:x\n2.001,-0.125,1\n"


@pytest.mark.functionality
def test_negative_zero_and_integral_results(logq: RunLogq, write_log: WriteLog) -> None:
    log = "g=a x=-0.0001\ng=b x=2.50\ng=b x=0.50\n"
    out = run_ok(
        logq, write_log, "--group-by", "g", "--agg", "sum:x", "--agg", "avg:x", "--format", "csv",
        log=log,
    )
    assert out == "g,sum:x,avg:x\na,0,0\nb,3,1.5\n"


@pytest.mark.functionality
def test_json_group_values_are_strings_or_null(logq: RunLogq, write_log: WriteLog) -> None:
    log = "status=200 ms=5\nstatus=500 ms=1\nms=2\nstatus=200 ms=x\n"
    out = run_ok(
        logq, write_log, "--group-by", "status", "--agg", "count", "--agg", "avg:ms",
        "--format", "json", log=log,
    )
    assert json.loads(out) == [
        {"status": "200", "count": 2, "avg:ms": 5},
        {"status": "500", "count": 1, "avg:ms": 1},
        {"status": None, "count": 1, "avg:ms": 2},
    ]


@pytest.mark.functionality
def test_csv_quotes_only_when_needed(logq: RunLogq, write_log: WriteLog) -> None:
    log = 'msg="a, b" n=1\nmsg="say \\"hi\\"" n=2\nmsg=plain n=3\nmsg="" n=4\n'
    out = run_ok(logq, write_log, "--group-by", "msg", "--agg", "sum:n", "--format", "csv", log=log)
    assert out == 'msg,sum:n\n"a, b",1\n"say ""hi""",2\nplain,3\n,4\n'


@pytest.mark.functionality
def test_repeated_group_by_and_null_aggregate_in_table(
    logq: RunLogq, write_log: WriteLog
) -> None:
    log = "host=web-1 region=eu cpu=93.5\nhost=web-1 region=eu cpu=x\nhost=db region=us-east\n"
    out = run_ok(logq, write_log, "--group-by", "region", "--group-by", "host", "--agg", "max:cpu",
                 log=log)
    assert out == (
        "region   host   max:cpu\n"
        "-------  -----  -------\n"
        "eu       web-1     93.5\n"
        "us-east  db           -\n"
    )


@pytest.mark.functionality
@pytest.mark.parametrize(
    ("fmt", "expected"),
    [("table", "level  count\n-----  -----\n"), ("csv", "level,count\n"), ("json", None)],
)
def test_group_by_without_matches_prints_only_header(
    logq: RunLogq, write_log: WriteLog, fmt: str, expected: str | None
) -> None:
    out = run_ok(logq, write_log, "-q", "latency > 99999", "--group-by", "level", "--format", fmt)
    if expected is None:
        assert json.loads(out) == []
    else:
        assert out == expected


@pytest.mark.error
def test_malformed_lines_still_aggregate_with_status_1(
    logq: RunLogq, write_log: WriteLog
) -> None:
    result = logq("--agg", "count", "--format", "csv", write_log("bad.log", 'a=1\nb="x\na=2\n'))
    assert result.returncode == 1
    assert result.stdout == "count\n2\n"
    assert "bad.log:2" in result.stderr


@pytest.mark.error
@pytest.mark.parametrize(
    "args",
    [
        ["--agg", "median:latency"],
        ["--agg", "sum"],
        ["--agg", "count:latency"],
        ["--agg", "sum:"],
        ["--agg", "count", "--agg", "count"],
        ["--group-by", "service,,level"],
        ["--agg", "count", "--format", "xml"],
        ["--format", "json"],
    ],
)
def test_invalid_aggregation_options(logq: RunLogq, write_log: WriteLog, args: list[str]) -> None:
    result = logq(*args, write_log("app.log", APP_LOG))
    assert result.returncode == 2
    assert result.stdout == ""
    assert result.stderr.startswith("logq: error: ")
