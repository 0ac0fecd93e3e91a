"""Checkpoint 2: typed values, incr/append, batch scripts with nested transactions."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

import pytest


def kv(
    argv: list[str], cwd: Path, *args: str, stdin: str | None = None
) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [*argv, "--db", "store.json", *args],
        cwd=cwd,
        input=stdin,
        capture_output=True,
        text=True,
        timeout=20,
    )


def batch(argv: list[str], cwd: Path, script: str) -> subprocess.CompletedProcess[str]:
    return kv(argv, cwd, "batch", stdin=script)


def assert_error(result: subprocess.CompletedProcess[str], code: int) -> None:
    assert result.returncode == code, result.stderr
    assert result.stdout == ""
    assert result.stderr.startswith("error: ")


def stored(tmp_path: Path) -> dict[str, dict[str, object]]:
    document = json.loads((tmp_path / "store.json").read_text(encoding="utf-8"))
    return document["keys"]


@pytest.mark.parametrize(
    ("kind", "text", "printed"),
    [
        ("int", "41", "41"),
        ("int", "-007", "-7"),
        ("float", "2", "2.0"),
        ("float", "0.1", "0.1"),
        ("float", "1e20", "1e+20"),
        ("list", '["a", "b c"]', '["a", "b c"]'),
        ("list", "[]", "[]"),
        ("string", "42", "42"),
    ],
)
def test_typed_set_get_and_type(
    entrypoint_argv: list[str], tmp_path: Path, kind: str, text: str, printed: str
) -> None:
    assert kv(entrypoint_argv, tmp_path, "set", "k", text, "--type", kind).returncode == 0
    assert kv(entrypoint_argv, tmp_path, "get", "k").stdout == printed + "\n"
    assert kv(entrypoint_argv, tmp_path, "type", "k").stdout == kind + "\n"


def test_incr_int_then_float(entrypoint_argv: list[str], tmp_path: Path) -> None:
    assert kv(entrypoint_argv, tmp_path, "incr", "hits").stdout == "1\n"
    assert kv(entrypoint_argv, tmp_path, "incr", "hits", "40").stdout == "41\n"
    assert kv(entrypoint_argv, tmp_path, "incr", "hits", "-50").stdout == "-9\n"
    assert kv(entrypoint_argv, tmp_path, "type", "hits").stdout == "int\n"
    assert kv(entrypoint_argv, tmp_path, "incr", "hits", "0.5").stdout == "-8.5\n"
    assert kv(entrypoint_argv, tmp_path, "type", "hits").stdout == "float\n"


def test_append_builds_a_list(entrypoint_argv: list[str], tmp_path: Path) -> None:
    assert kv(entrypoint_argv, tmp_path, "append", "tags", "red").stdout == "1\n"
    assert kv(entrypoint_argv, tmp_path, "append", "tags", "green", "light blue").stdout == "3\n"
    assert kv(entrypoint_argv, tmp_path, "get", "tags").stdout == '["red", "green", "light blue"]\n'


def test_file_records_types(entrypoint_argv: list[str], tmp_path: Path) -> None:
    kv(entrypoint_argv, tmp_path, "set", "n", "3", "--type", "int")
    kv(entrypoint_argv, tmp_path, "set", "r", "0.25", "--type", "float")
    kv(entrypoint_argv, tmp_path, "append", "l", "x")
    kv(entrypoint_argv, tmp_path, "set", "s", "3")
    keys = stored(tmp_path)
    assert keys["n"]["type"] == "int" and keys["n"]["value"] == 3
    assert keys["r"]["type"] == "float" and keys["r"]["value"] == 0.25
    assert keys["l"]["type"] == "list" and keys["l"]["value"] == ["x"]
    assert keys["s"].get("type", "string") == "string" and keys["s"]["value"] == "3"


def test_batch_nested_transactions(entrypoint_argv: list[str], tmp_path: Path) -> None:
    script = (
        "set a 1 --type int\nBEGIN\nincr a 10\nBEGIN\nset b inner\nROLLBACK\n"
        "get a\nCOMMIT\nlist\n"
    )
    result = batch(entrypoint_argv, tmp_path, script)
    assert (result.returncode, result.stdout) == (0, "11\n11\na\n")
    assert kv(entrypoint_argv, tmp_path, "get", "a").stdout == "11\n"


def test_inner_commit_undone_by_outer_rollback(entrypoint_argv: list[str], tmp_path: Path) -> None:
    script = "set keep 1\nBEGIN\nBEGIN\nset lost 1\nCOMMIT\nget lost\nROLLBACK\nlist\n"
    result = batch(entrypoint_argv, tmp_path, script)
    assert (result.returncode, result.stdout) == (0, "1\nkeep\n")
    assert kv(entrypoint_argv, tmp_path, "list").stdout == "keep\n"


def test_failing_script_keeps_autocommitted_changes(
    entrypoint_argv: list[str], tmp_path: Path
) -> None:
    script = "set x 1 --type int\nBEGIN\nset y 2\nincr x\nget nope\nset z 3\n"
    result = batch(entrypoint_argv, tmp_path, script)
    assert result.returncode == 1
    assert result.stdout == "2\n"
    assert result.stderr.startswith("error: line 5:")
    assert kv(entrypoint_argv, tmp_path, "list").stdout == "x\n"
    assert kv(entrypoint_argv, tmp_path, "get", "x").stdout == "1\n"


@pytest.mark.functionality
def test_batch_quoting_comments_and_case(entrypoint_argv: list[str], tmp_path: Path) -> None:
    script = (
        "# a comment\n\n   \nSET motto \"carpe diem\"\n  # indented comment\n"
        "Get motto\nset odd -- --type\nget odd\nAPPEND l 'x y' z\nget l\n"
    )
    result = batch(entrypoint_argv, tmp_path, script)
    assert result.returncode == 0, result.stderr
    assert result.stdout == 'carpe diem\n--type\n2\n["x y", "z"]\n'


@pytest.mark.functionality
def test_option_forms_and_negative_numbers(entrypoint_argv: list[str], tmp_path: Path) -> None:
    assert kv(entrypoint_argv, tmp_path, "set", "--type=float", "f", "-2.5").returncode == 0
    assert kv(entrypoint_argv, tmp_path, "incr", "f", "-1").stdout == "-3.5\n"
    assert kv(entrypoint_argv, tmp_path, "set", "s", "--", "--type").returncode == 0
    assert kv(entrypoint_argv, tmp_path, "get", "s").stdout == "--type\n"


@pytest.mark.functionality
def test_checkpoint1_file_and_float_written_as_integer(
    entrypoint_argv: list[str], tmp_path: Path
) -> None:
    keys = {"old": {"value": "plain"}, "f": {"type": "float", "value": 2}}
    (tmp_path / "store.json").write_text(json.dumps({"kvstore": 1, "keys": keys}))
    assert kv(entrypoint_argv, tmp_path, "type", "old").stdout == "string\n"
    assert kv(entrypoint_argv, tmp_path, "get", "f").stdout == "2.0\n"
    assert kv(entrypoint_argv, tmp_path, "incr", "f", "1").stdout == "3.0\n"


@pytest.mark.functionality
def test_batch_writes_only_at_the_end_and_empty_script(
    entrypoint_argv: list[str], tmp_path: Path
) -> None:
    empty = batch(entrypoint_argv, tmp_path, "# nothing\n\n")
    assert (empty.returncode, empty.stdout) == (0, "")
    result = batch(entrypoint_argv, tmp_path, "incr c\nincr c\nincr c 2.5\nget c\n")
    assert result.stdout == "1\n2\n4.5\n4.5\n"
    assert stored(tmp_path)["c"] == {"type": "float", "value": 4.5}


@pytest.mark.error
@pytest.mark.parametrize(
    "args",
    [
        ["set", "k", "1.5", "--type", "int"],
        ["set", "k", "", "--type", "int"],
        ["set", "k", "nan", "--type", "float"],
        ["set", "k", "-Infinity", "--type", "float"],
        ["set", "k", '["a", 1]', "--type", "list"],
        ["set", "k", "a,b", "--type", "list"],
        ["set", "k", "v", "--type", "bytes"],
        ["set", "k", "v", "--colour", "red"],
        ["set", "k", "v", "--type", "int", "--type", "int"],
        ["set", "k", "v", "--type"],
        ["get", "k", "--type", "int"],
        ["incr", "k", "lots"],
        ["append", "k"],
        ["type"],
        ["BEGIN"],
        ["commit"],
        ["batch", "extra"],
    ],
)
def test_bad_arguments_exit_2(entrypoint_argv: list[str], tmp_path: Path, args: list[str]) -> None:
    assert_error(kv(entrypoint_argv, tmp_path, *args), 2)
    assert not (tmp_path / "store.json").exists()


@pytest.mark.error
@pytest.mark.parametrize(
    ("setup", "args"),
    [
        (["set", "k", "text"], ["incr", "k"]),
        (["append", "k", "a"], ["incr", "k", "2"]),
        (["set", "k", "text"], ["append", "k", "x"]),
        (["set", "k", "5", "--type", "int"], ["append", "k", "x"]),
    ],
)
def test_wrong_type_exits_4(
    entrypoint_argv: list[str], tmp_path: Path, setup: list[str], args: list[str]
) -> None:
    kv(entrypoint_argv, tmp_path, *setup)
    before = (tmp_path / "store.json").read_text()
    assert_error(kv(entrypoint_argv, tmp_path, *args), 4)
    assert (tmp_path / "store.json").read_text() == before


@pytest.mark.error
@pytest.mark.parametrize(
    ("script", "line"),
    [
        ("set a 1\nCOMMIT\n", 2),
        ("BEGIN\nCOMMIT\nROLLBACK\n", 3),
    ],
)
def test_unmatched_commit_or_rollback_exits_5(
    entrypoint_argv: list[str], tmp_path: Path, script: str, line: int
) -> None:
    result = batch(entrypoint_argv, tmp_path, script)
    assert result.returncode == 5
    assert result.stderr.startswith(f"error: line {line}:")


@pytest.mark.error
def test_unclosed_transaction_rolled_back_exits_5(
    entrypoint_argv: list[str], tmp_path: Path
) -> None:
    result = batch(entrypoint_argv, tmp_path, "set kept 1\nBEGIN\nset lost 2\nget lost\n")
    assert result.returncode == 5
    assert result.stdout == "2\n"
    assert result.stderr.startswith("error: ")
    assert kv(entrypoint_argv, tmp_path, "list").stdout == "kept\n"


@pytest.mark.error
@pytest.mark.parametrize(
    ("script", "code", "line"),
    [
        ("set a 1\nset b 'open quote\n", 2, 2),
        ("set a 1\nbatch\n", 2, 2),
        ("set a 1\n--db other.json get a\n", 2, 2),
        ("set a x\n\n# c\nincr a\n", 4, 4),
        ("set a 1\nfrobnicate\n", 2, 2),
    ],
)
def test_script_errors_name_the_line(
    entrypoint_argv: list[str], tmp_path: Path, script: str, code: int, line: int
) -> None:
    result = batch(entrypoint_argv, tmp_path, script)
    assert result.returncode == code
    assert result.stderr.startswith(f"error: line {line}:")
    assert kv(entrypoint_argv, tmp_path, "list").stdout == "a\n"


@pytest.mark.error
@pytest.mark.parametrize(
    "entry",
    [
        {"type": "int", "value": "5"},
        {"type": "int", "value": 2.5},
        {"type": "int", "value": True},
        {"type": "list", "value": ["a", 2]},
        {"type": "float", "value": "1.0"},
        {"type": "set", "value": "x"},
    ],
)
def test_mistyped_entry_is_corrupt(
    entrypoint_argv: list[str], tmp_path: Path, entry: dict[str, object]
) -> None:
    (tmp_path / "store.json").write_text(json.dumps({"kvstore": 1, "keys": {"k": entry}}))
    assert_error(kv(entrypoint_argv, tmp_path, "get", "k"), 3)
