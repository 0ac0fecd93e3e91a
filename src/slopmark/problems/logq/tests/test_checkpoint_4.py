"""Checkpoint 4: JSON lines and access logs, detected per line or forced."""

from __future__ import annotations

import json
from typing import TYPE_CHECKING

import pytest

if TYPE_CHECKING:
    from conftest import RunLogq, WriteLog

JSON_LINE = (
    '{"time": "2024-03-01T10:00:00Z", "level": "info", "http": {"status": 200, "path": "/a"},'
    ' "ms": 12}'
)
ACCESS_GET = '10.0.0.1 - - [01/Mar/2024:10:00:03 +0000] "GET /b HTTP/1.1" 500 12 "-" "curl/8.0"'
LOGFMT_LINE = "level=info http.status=404 http.path=/c ms=7"
ACCESS_POST = (
    '10.0.0.2 - alice [01/Mar/2024:11:00:04 +0100] "POST /a HTTP/1.1" 201 - "-" "curl/8.0"'
)
BROKEN_JSON = '{"level": "info", "ms": [1, 2'
MIXED_LOG = "\n".join([JSON_LINE, ACCESS_GET, LOGFMT_LINE, ACCESS_POST, BROKEN_JSON]) + "\n"
APACHE = (
    '127.0.0.1 - frank [10/Oct/2000:13:55:36 -0700] "GET /apache_pb.gif HTTP/1.0" 200 2326'
    ' "http://www.example.com/start.html" "Mozilla/4.08 [en] (Win98; I ;Nav)"'
)


def test_query_spans_json_access_and_logfmt(logq: RunLogq, write_log: WriteLog) -> None:
    result = logq("-q", "http.status >= 400 OR status >= 400", write_log("mixed.log", MIXED_LOG))
    assert result.returncode == 1
    assert result.stdout == f"{ACCESS_GET}\n{LOGFMT_LINE}\n"
    warnings = [line for line in result.stderr.splitlines() if "mixed.log:" in line]
    assert len(warnings) == 1
    assert "mixed.log:5" in warnings[0] and "json" in warnings[0]


def test_forced_access_format_groups_by_method(logq: RunLogq, write_log: WriteLog) -> None:
    result = logq(
        "--input-format", "access", "--group-by", "method", "--agg", "count",
        write_log("mixed.log", MIXED_LOG),
    )
    assert result.returncode == 1
    assert result.stdout == "method  count\n------  -----\nGET         1\nPOST        1\n"
    for lineno in (1, 3, 5):
        assert f"mixed.log:{lineno}" in result.stderr
    assert "mixed.log:2" not in result.stderr and "mixed.log:4" not in result.stderr


def test_access_time_compares_as_instant(logq: RunLogq, write_log: WriteLog) -> None:
    result = logq("-q", "time > 2024-03-01T10:00:02Z", write_log("mixed.log", MIXED_LOG))
    assert result.stdout == f"{ACCESS_GET}\n{ACCESS_POST}\n"


def test_combined_access_log_fields(logq: RunLogq, write_log: WriteLog) -> None:
    expression = (
        'remote_addr = "127.0.0.1" AND user = frank AND method = GET AND path = "/apache_pb.gif"'
        ' AND protocol = "HTTP/1.0" AND status = 200 AND bytes = 2326'
        ' AND referer = "http://www.example.com/start.html" AND user_agent ~ "^Mozilla.*Nav\\)$"'
        ' AND request = "GET /apache_pb.gif HTTP/1.0" AND time = 2000-10-10T20:55:36Z'
    )
    result = logq("-q", expression, write_log("access.log", APACHE + "\n"))
    assert (result.returncode, result.stdout) == (0, APACHE + "\n")


def test_access_time_field_keeps_its_offset(logq: RunLogq, write_log: WriteLog) -> None:
    result = logq(
        "--where", "time=2000-10-10T13:55:36-07:00", write_log("access.log", APACHE + "\n")
    )
    assert result.stdout == APACHE + "\n"


def test_nested_json_fields_are_flattened(logq: RunLogq, write_log: WriteLog) -> None:
    log = (
        '{"svc": "api", "http": {"req": {"method": "GET"}, "status": 503}}\n'
        '{"svc": "api", "http": {"req": {"method": "PUT"}, "status": 201}}\n'
    )
    result = logq("-q", "http.req.method = GET AND http.status >= 500", write_log("j.log", log))
    assert result.stdout == log.splitlines()[0] + "\n"


def test_json_and_logfmt_lines_behave_alike(logq: RunLogq, write_log: WriteLog) -> None:
    log = '{"status": 500, "service": "api"}\nstatus=500 service=api\nstatus=200 service=api\n'
    result = logq("-q", "status >= 500 AND service = api", write_log("a.log", log))
    assert result.stdout == '{"status": 500, "service": "api"}\nstatus=500 service=api\n'


def test_common_log_format_without_referer(logq: RunLogq, write_log: WriteLog) -> None:
    common = '192.168.1.9 - bob [05/Jan/2024:08:00:00 +0000] "DELETE /items/7 HTTP/2.0" 404 0'
    log = f"{common}\n{APACHE}\n"
    result = logq("-q", "status = 404 AND method = DELETE", write_log("c.log", log))
    assert result.stdout == f"{common}\n"
    result = logq("-q", 'referer ~ ""', "c.log")
    assert result.stdout == f"{APACHE}\n"


@pytest.mark.functionality
def test_json_numbers_keep_their_text(logq: RunLogq, write_log: WriteLog) -> None:
    log = '{"v": 1.50}\n{"v": -3}\n{"v": 1e3}\n{"v": "2.5"}\n'
    result = logq(
        "--group-by", "v", "--agg", "sum:v", "--format", "json", write_log("n.log", log)
    )
    assert json.loads(result.stdout) == [
        {"v": "1.50", "sum:v": 1.5},
        {"v": "-3", "sum:v": -3},
        {"v": "1e3", "sum:v": None},
        {"v": "2.5", "sum:v": 2.5},
    ]


@pytest.mark.functionality
def test_json_null_booleans_and_arrays(logq: RunLogq, write_log: WriteLog) -> None:
    log = (
        '{"n": 1, "user": null, "ok": true, "tags": ["a", "b"]}\n'
        '{"n": 2, "user": "", "ok": false, "tags": [1, {"k": null}]}\n'
    )
    name = write_log("j.log", log)
    first, second = log.splitlines()
    assert logq("-q", 'user ~ ""', name).stdout == f"{second}\n"
    assert logq("--where", "ok=true", name).stdout == f"{first}\n"
    assert logq("--where", 'tags=["a","b"]', name).stdout == f"{first}\n"
    assert logq("--where", 'tags=[1,{"k":null}]', name).stdout == f"{second}\n"


@pytest.mark.functionality
def test_dash_parts_are_absent_and_quotes_unescaped(logq: RunLogq, write_log: WriteLog) -> None:
    line_1 = '10.1.1.1 - - [01/Mar/2024:10:00:00 +0000] "GET /x HTTP/1.1" 200 - "-" "a \\"b\\" c"'
    line_2 = '10.1.1.2 - carol [01/Mar/2024:10:00:01 +0000] "GET /y HTTP/1.1" 200 30 "-" "z"'
    name = write_log("a.log", f"{line_1}\n{line_2}\n")
    result = logq("--group-by", "user", "--agg", "count", "--agg", "sum:bytes", "--format", "csv",
                  name)
    assert result.stdout == "user,count,sum:bytes\n,1,\ncarol,1,30\n"
    assert logq("--where", 'user_agent=a "b" c', name).stdout == f"{line_1}\n"
    assert logq("-q", 'referer ~ ""', name).stdout == ""


@pytest.mark.functionality
def test_aggregates_mix_formats(logq: RunLogq, write_log: WriteLog) -> None:
    result = logq("--group-by", "level", "--agg", "avg:ms", "--format", "csv",
                  write_log("mixed.log", MIXED_LOG))
    assert result.stdout == "level,avg:ms\ninfo,9.5\n,\n"


@pytest.mark.functionality
def test_invalid_access_date_is_not_an_access_line(logq: RunLogq, write_log: WriteLog) -> None:
    bad_date = '10.0.0.1 - - [32/Mar/2024:10:00:00 +0000] "GET / HTTP/1.1" 200 5'
    good = '10.0.0.1 - - [31/Mar/2024:10:00:00 +0000] "GET / HTTP/1.1" 200 5'
    result = logq("--where", "status=200", write_log("a.log", f"{bad_date}\n{good}\n"))
    assert result.returncode == 1
    assert result.stdout == f"{good}\n"
    warning = next(line for line in result.stderr.splitlines() if "a.log:1" in line)
    assert "logfmt" in warning


@pytest.mark.error
def test_forced_json_rejects_non_objects(logq: RunLogq, write_log: WriteLog) -> None:
    log = '[1, 2]\n42\n{"a": 1}\n{"a": NaN}\n{"a": 1} trailing\na=1\n'
    result = logq("--input-format", "json", write_log("j.log", log))
    assert result.returncode == 1
    assert result.stdout == '{"a": 1}\n'
    for lineno in (1, 2, 4, 5, 6):
        assert f"j.log:{lineno}" in result.stderr
    assert "j.log:3" not in result.stderr


@pytest.mark.error
def test_auto_brace_line_is_never_retried_as_logfmt(logq: RunLogq, write_log: WriteLog) -> None:
    result = logq(write_log("a.log", "{oops=1}\nok=1\n"))
    assert result.returncode == 1
    assert result.stdout == "ok=1\n"
    assert "a.log:1" in result.stderr and "json" in result.stderr


@pytest.mark.error
def test_forced_logfmt_rejects_json_lines(logq: RunLogq, write_log: WriteLog) -> None:
    result = logq("--input-format", "logfmt", write_log("a.log", '{"a": 1}\na=1\n'))
    assert result.returncode == 1
    assert result.stdout == "a=1\n"
    assert "a.log:1" in result.stderr and "logfmt" in result.stderr


@pytest.mark.error
def test_unknown_input_format_is_usage_error(logq: RunLogq, write_log: WriteLog) -> None:
    result = logq("--input-format", "syslog", write_log("a.log", "a=1\n"))
    assert result.returncode == 2
    assert result.stdout == ""
    assert result.stderr.startswith("logq: error: ")
