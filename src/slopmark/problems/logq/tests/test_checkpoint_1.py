"""Checkpoint 1: filter logfmt lines with --where KEY=VALUE."""

from __future__ import annotations

from typing import TYPE_CHECKING

import pytest

if TYPE_CHECKING:
    from conftest import RunLogq, WriteLog

APP_LOG = (
    'time=2024-03-01T10:00:00Z level=info service=api msg="request done" status=200\n'
    'time=2024-03-01T10:00:01Z level=error service=api msg="db timeout" status=500\n'
    "\n"
    "time=2024-03-01T10:00:02Z level=info service=worker msg=started debug\n"
)
LINE_1, LINE_2, _, LINE_4 = APP_LOG.splitlines()


def test_single_where_prints_matching_lines_verbatim(logq: RunLogq, write_log: WriteLog) -> None:
    result = logq("--where", "level=info", write_log("app.log", APP_LOG))
    assert result.returncode == 0
    assert result.stdout == f"{LINE_1}\n{LINE_4}\n"


def test_repeated_where_must_all_hold(logq: RunLogq, write_log: WriteLog) -> None:
    result = logq("--where", "service=api", "--where", "status=500", write_log("a.log", APP_LOG))
    assert result.returncode == 0
    assert result.stdout == f"{LINE_2}\n"


def test_without_where_prints_every_non_blank_line(logq: RunLogq, write_log: WriteLog) -> None:
    result = logq(write_log("app.log", APP_LOG))
    assert result.returncode == 0
    assert result.stdout == f"{LINE_1}\n{LINE_2}\n{LINE_4}\n"


def test_quoted_value_is_compared_unquoted(logq: RunLogq, write_log: WriteLog) -> None:
    result = logq("--where", "msg=request done", write_log("app.log", APP_LOG))
    assert result.stdout == f"{LINE_1}\n"


def test_flag_field_has_value_true(logq: RunLogq, write_log: WriteLog) -> None:
    result = logq("--where", "debug=true", write_log("app.log", APP_LOG))
    assert result.stdout == f"{LINE_4}\n"


def test_reads_stdin_without_files(logq: RunLogq) -> None:
    result = logq("--where", "level=error", stdin=APP_LOG)
    assert result.returncode == 0
    assert result.stdout == f"{LINE_2}\n"


def test_files_are_read_in_command_line_order(logq: RunLogq, write_log: WriteLog) -> None:
    first = write_log("first.log", "n=1 keep=yes\nn=2 keep=no\n")
    second = write_log("second.log", "n=3 keep=yes\n")
    result = logq("--where", "keep=yes", second, first)
    assert result.stdout == "n=3 keep=yes\nn=1 keep=yes\n"


def test_dash_reads_stdin_between_files(logq: RunLogq, write_log: WriteLog) -> None:
    first = write_log("first.log", "src=file1\n")
    second = write_log("second.log", "src=file2\n")
    result = logq(first, "-", second, stdin="src=stdin\n")
    assert result.stdout == "src=file1\nsrc=stdin\nsrc=file2\n"


@pytest.mark.functionality
def test_where_splits_at_first_equals(logq: RunLogq, write_log: WriteLog) -> None:
    log = write_log("q.log", "query=a=b n=1\nquery=a n=2\nquery=\"a=b\" n=3\n")
    result = logq("--where", "query=a=b", log)
    assert result.stdout == 'query=a=b n=1\nquery="a=b" n=3\n'


@pytest.mark.functionality
def test_empty_value_matches_bare_and_quoted_empty(logq: RunLogq, write_log: WriteLog) -> None:
    log = write_log("e.log", 'n=1 msg=\nn=2 msg=""\nn=3 msg=x\nn=4\n')
    result = logq("--where", "msg=", log)
    assert result.stdout == 'n=1 msg=\nn=2 msg=""\n'


@pytest.mark.functionality
def test_escapes_inside_quoted_values(logq: RunLogq, write_log: WriteLog) -> None:
    log = write_log("esc.log", 'n=1 msg="say \\"hi\\" \\\\ bye"\nn=2 msg="say hi"\n')
    result = logq("--where", 'msg=say "hi" \\ bye', log)
    assert result.stdout == 'n=1 msg="say \\"hi\\" \\\\ bye"\n'


@pytest.mark.functionality
def test_last_duplicate_key_wins(logq: RunLogq, write_log: WriteLog) -> None:
    log = write_log("dup.log", "level=info level=error n=1\nlevel=error level=info n=2\n")
    result = logq("--where", "level=error", log)
    assert result.stdout == "level=info level=error n=1\n"


@pytest.mark.functionality
def test_tabs_and_spacing_are_preserved(logq: RunLogq, write_log: WriteLog) -> None:
    log = write_log("tabs.log", "  a=1\t\tb=2   \nb=3 a=1\n")
    result = logq("--where", "b=2", log)
    assert result.stdout == "  a=1\t\tb=2   \n"


@pytest.mark.functionality
def test_crlf_line_endings_are_not_reproduced(logq: RunLogq, write_log: WriteLog) -> None:
    log = write_log("crlf.log", "a=1 b=x\r\na=2 b=y\r\n")
    result = logq("--where", "b=y", log)
    assert result.stdout == "a=2 b=y\n"


@pytest.mark.functionality
def test_no_match_is_success_with_empty_output(logq: RunLogq, write_log: WriteLog) -> None:
    result = logq("--where", "level=debug", write_log("app.log", APP_LOG))
    assert (result.returncode, result.stdout) == (0, "")


@pytest.mark.error
@pytest.mark.parametrize(
    "bad_line",
    ["=5 level=info", 'level=info msg="oops', 'level=info a"b=1', 'level=info msg=he"llo',
     'level=info msg="a"b'],
)
def test_malformed_line_is_skipped_with_warning(
    logq: RunLogq, write_log: WriteLog, bad_line: str
) -> None:
    log = write_log("bad.log", f"level=info n=1\n{bad_line}\nlevel=info n=3\n")
    result = logq("--where", "level=info", log)
    assert result.returncode == 1
    assert result.stdout == "level=info n=1\nlevel=info n=3\n"
    assert "bad.log:2" in result.stderr
    assert "bad.log:1" not in result.stderr and "bad.log:3" not in result.stderr


@pytest.mark.error
def test_malformed_stdin_line_names_stdin(logq: RunLogq) -> None:
    result = logq(stdin="a=1\n\nb=\"x\n")
    assert result.returncode == 1
    assert result.stdout == "a=1\n"
    assert "<stdin>:3" in result.stderr


@pytest.mark.error
def test_missing_file_is_usage_error(logq: RunLogq, write_log: WriteLog) -> None:
    result = logq(write_log("ok.log", "a=1\n"), "missing.log")
    assert result.returncode == 2
    assert result.stdout == ""
    assert result.stderr.startswith("logq: error: ")
    assert "missing.log" in result.stderr


@pytest.mark.error
@pytest.mark.parametrize("argument", ["level", "=x"])
def test_invalid_where_is_usage_error(logq: RunLogq, write_log: WriteLog, argument: str) -> None:
    result = logq("--where", argument, write_log("app.log", APP_LOG))
    assert result.returncode == 2
    assert result.stdout == ""
    assert result.stderr.startswith("logq: error: ")


@pytest.mark.error
def test_unknown_option_is_usage_error(logq: RunLogq, write_log: WriteLog) -> None:
    result = logq("--colour", write_log("app.log", APP_LOG))
    assert result.returncode == 2
    assert result.stdout == ""
    assert "error" in result.stderr
