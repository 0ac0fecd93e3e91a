"""Checkpoint 5: line timestamps, --merge by time and --bucket aggregation."""

from __future__ import annotations

import json
from typing import TYPE_CHECKING

import pytest

if TYPE_CHECKING:
    from conftest import RunLogq, WriteLog

A_LOG = (
    "time=2024-03-01T10:00:00Z svc=a msg=start\n"
    "time=2024-03-01T10:00:10Z svc=a level=error msg=boom\n"
    'level=error msg="  at handler()"\n'
    "time=2024-03-01T10:00:30Z svc=a msg=done\n"
)
B_LOG = (
    '{"ts": 1709287205, "svc": "b", "msg": "tick"}\n'
    '{"ts": "2024-03-01T11:00:20+01:00", "svc": "b", "level": "error", "msg": "late"}\n'
)
A1, A2, A3, A4 = A_LOG.splitlines()
B1, B2 = B_LOG.splitlines()


def two_logs(write_log: WriteLog) -> tuple[str, str]:
    return write_log("a.log", A_LOG), write_log("b.log", B_LOG)


def test_merge_orders_lines_by_time(logq: RunLogq, write_log: WriteLog) -> None:
    result = logq("--merge", *two_logs(write_log))
    assert result.returncode == 0
    assert result.stdout == "\n".join([A1, B1, A2, A3, B2, A4]) + "\n"


def test_merge_with_filter_keeps_continuation_lines(logq: RunLogq, write_log: WriteLog) -> None:
    result = logq("--merge", "--where", "level=error", *two_logs(write_log))
    assert result.stdout == f"{A2}\n{A3}\n{B2}\n"


def test_continuation_inherits_time_of_unmatched_line(
    logq: RunLogq, write_log: WriteLog
) -> None:
    app = write_log(
        "app.log", "time=2024-03-01T10:00:10Z msg=boom\nlevel=error msg=trace\n"
    )
    other = write_log(
        "other.log",
        "time=2024-03-01T10:00:05Z level=error n=1\ntime=2024-03-01T10:00:20Z level=error n=2\n",
    )
    result = logq("--merge", "--where", "level=error", other, app)
    assert result.stdout == (
        "time=2024-03-01T10:00:05Z level=error n=1\nlevel=error msg=trace\n"
        "time=2024-03-01T10:00:20Z level=error n=2\n"
    )


def test_merge_sorts_unsorted_inputs_and_keeps_ties_in_input_order(
    logq: RunLogq, write_log: WriteLog
) -> None:
    first = write_log("1.log", "time=2024-01-01T00:00:03Z n=1\ntime=2024-01-01T00:00:01Z n=2\n")
    second = write_log("2.log", "time=2024-01-01T00:00:03Z n=3\ntime=2024-01-01T00:00:02Z n=4\n")
    result = logq("--merge", first, second)
    assert result.stdout == (
        "time=2024-01-01T00:00:01Z n=2\ntime=2024-01-01T00:00:02Z n=4\n"
        "time=2024-01-01T00:00:03Z n=1\ntime=2024-01-01T00:00:03Z n=3\n"
    )


def test_bucket_counts_only_timed_lines(logq: RunLogq, write_log: WriteLog) -> None:
    result = logq("--bucket", "1m", "--agg", "count", *two_logs(write_log))
    assert result.returncode == 0
    assert result.stdout == (
        "bucket                count\n--------------------  -----\n2024-03-01T10:00:00Z      5\n"
    )


def test_bucket_with_group_by_orders_by_bucket(logq: RunLogq, write_log: WriteLog) -> None:
    result = logq("--bucket", "10s", "--group-by", "svc", "--format", "csv", *two_logs(write_log))
    assert result.stdout == (
        "bucket,svc,count\n"
        "2024-03-01T10:00:00Z,a,1\n2024-03-01T10:00:00Z,b,1\n2024-03-01T10:00:10Z,a,1\n"
        "2024-03-01T10:00:20Z,b,1\n2024-03-01T10:00:30Z,a,1\n"
    )


def test_buckets_align_to_epoch_and_accept_unix_time(logq: RunLogq, write_log: WriteLog) -> None:
    log = (
        "time=2024-03-01T10:04:59.9Z ms=10\n"
        "ts=1709287500 ms=20\n"
        "timestamp=1709287799.5 ms=40\n"
        "time=2024-03-01T11:02:00+01:00 ms=5\n"
    )
    result = logq("--bucket", "5m", "--agg", "count", "--agg", "avg:ms", "--format", "json",
                  write_log("t.log", log))
    assert json.loads(result.stdout) == [
        {"bucket": "2024-03-01T10:00:00Z", "count": 2, "avg:ms": 7.5},
        {"bucket": "2024-03-01T10:05:00Z", "count": 2, "avg:ms": 30},
    ]


@pytest.mark.functionality
def test_time_field_option_and_default_precedence(logq: RunLogq, write_log: WriteLog) -> None:
    log = (
        "at=2024-01-01T00:00:09Z time=2024-01-01T00:00:01Z n=1\n"
        "at=2024-01-01T00:00:02Z ts=2024-01-01T00:00:08Z n=2\n"
        "time=2024-01-01T00:00:05Z ts=2024-01-01T00:00:00Z n=3\n"
    )
    name = write_log("t.log", log)
    default = logq("--merge", name).stdout
    assert [line.split()[-1] for line in default.splitlines()] == ["n=1", "n=3", "n=2"]
    custom = logq("--merge", "--time-field", "at", name).stdout
    # n=3 has no "at": it inherits the time of n=2, the timed line before it.
    assert [line.split()[-1] for line in custom.splitlines()] == ["n=2", "n=3", "n=1"]


@pytest.mark.functionality
def test_untimed_lines_at_start_come_first(logq: RunLogq, write_log: WriteLog) -> None:
    late = write_log("late.log", "banner=yes\ntime=2024-01-01T00:00:09Z n=1\n")
    early = write_log("early.log", "time=2024-01-01T00:00:01Z n=2\nnote=after-n2\n")
    result = logq("--merge", late, early)
    assert result.stdout == (
        "banner=yes\ntime=2024-01-01T00:00:01Z n=2\nnote=after-n2\ntime=2024-01-01T00:00:09Z n=1\n"
    )


@pytest.mark.functionality
def test_merge_decides_group_first_appearance(logq: RunLogq, write_log: WriteLog) -> None:
    a_name, b_name = two_logs(write_log)
    plain = logq("--group-by", "svc", "--format", "csv", a_name, b_name)
    merged = logq("--merge", "--group-by", "svc", "--format", "csv", b_name, a_name)
    assert plain.stdout == "svc,count\na,3\n,1\nb,2\n"
    assert merged.stdout == "svc,count\na,3\nb,2\n,1\n"


@pytest.mark.functionality
def test_daily_buckets_start_at_utc_midnight(logq: RunLogq, write_log: WriteLog) -> None:
    log = (
        "time=2024-03-01T23:30:00-02:00 n=1\n"
        "time=2024-03-02T00:30:00+02:00 n=2\n"
        "time=2024-03-02 n=3\n"
    )
    result = logq("--bucket", "1d", "--format", "csv", write_log("d.log", log))
    assert result.stdout == "bucket,count\n2024-03-01T00:00:00Z,1\n2024-03-02T00:00:00Z,2\n"


@pytest.mark.functionality
def test_access_log_lines_are_bucketed_in_utc(logq: RunLogq, write_log: WriteLog) -> None:
    log = (
        '10.0.0.1 - - [01/Mar/2024:11:59:30 +0200] "GET / HTTP/1.1" 200 10\n'
        '10.0.0.2 - - [01/Mar/2024:10:01:00 +0000] "GET /x HTTP/1.1" 500 20\n'
        '10.0.0.3 - - [01/Mar/2024:05:00:59 -0500] "GET /y HTTP/1.1" 200 30\n'
    )
    result = logq("--bucket", "1h", "--agg", "sum:bytes", "--format", "csv",
                  write_log("access.log", log))
    assert result.stdout == "bucket,sum:bytes\n2024-03-01T09:00:00Z,10\n2024-03-01T10:00:00Z,50\n"


@pytest.mark.functionality
def test_bucket_without_timed_lines_prints_header(logq: RunLogq, write_log: WriteLog) -> None:
    name = write_log("n.log", "a=1\nts=soon\n")
    assert logq("--bucket", "1m", "--format", "csv", name).stdout == "bucket,count\n"
    assert json.loads(logq("--bucket", "1m", "--format", "json", name).stdout) == []


@pytest.mark.error
@pytest.mark.parametrize("duration", ["0m", "5x", "1.5h", "m", "-5m", "5", ""])
def test_invalid_bucket_is_usage_error(
    logq: RunLogq, write_log: WriteLog, duration: str
) -> None:
    result = logq("--bucket", duration, write_log("a.log", A_LOG))
    assert result.returncode == 2
    assert result.stdout == ""
    assert result.stderr.startswith("logq: error: ")


@pytest.mark.error
def test_empty_time_field_is_usage_error(logq: RunLogq, write_log: WriteLog) -> None:
    result = logq("--merge", "--time-field", "", write_log("a.log", A_LOG))
    assert result.returncode == 2
    assert result.stdout == ""


@pytest.mark.error
def test_merge_with_missing_file_prints_nothing(logq: RunLogq, write_log: WriteLog) -> None:
    result = logq("--merge", write_log("a.log", A_LOG), "gone.log")
    assert result.returncode == 2
    assert result.stdout == ""
    assert "gone.log" in result.stderr


@pytest.mark.error
def test_merge_reports_malformed_lines_of_every_input(
    logq: RunLogq, write_log: WriteLog
) -> None:
    bad_a = write_log("x.log", 'time=2024-01-01T00:00:02Z n=1\nmsg="open\n')
    bad_b = write_log("y.log", '{"time": 1\ntime=2024-01-01T00:00:01Z n=2\n')
    result = logq("--merge", bad_a, bad_b)
    assert result.returncode == 1
    assert result.stdout == "time=2024-01-01T00:00:01Z n=2\ntime=2024-01-01T00:00:02Z n=1\n"
    assert "x.log:2" in result.stderr and "y.log:1" in result.stderr
