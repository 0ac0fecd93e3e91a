"""Checkpoint 1: set/get/del/list on a JSON store file, with exact exit codes."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

import pytest


def kv(argv: list[str], cwd: Path, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [*argv, "--db", "store.json", *args],
        cwd=cwd,
        capture_output=True,
        text=True,
        timeout=20,
    )


def assert_error(result: subprocess.CompletedProcess[str], code: int) -> None:
    assert result.returncode == code, result.stderr
    assert result.stdout == ""
    assert result.stderr.startswith("error: ")
    assert len(result.stderr.strip().splitlines()) == 1


def seed(tmp_path: Path, pairs: dict[str, str]) -> None:
    keys = {key: {"value": value} for key, value in pairs.items()}
    (tmp_path / "store.json").write_text(json.dumps({"kvstore": 1, "keys": keys}))


def test_set_then_get(entrypoint_argv: list[str], tmp_path: Path) -> None:
    first = kv(entrypoint_argv, tmp_path, "set", "greeting", "hello world")
    assert (first.returncode, first.stdout) == (0, "")
    result = kv(entrypoint_argv, tmp_path, "get", "greeting")
    assert (result.returncode, result.stdout) == (0, "hello world\n")


def test_set_overwrites(entrypoint_argv: list[str], tmp_path: Path) -> None:
    kv(entrypoint_argv, tmp_path, "set", "color", "red")
    kv(entrypoint_argv, tmp_path, "set", "color", "blue")
    assert kv(entrypoint_argv, tmp_path, "get", "color").stdout == "blue\n"


def test_list_sorted_with_prefix(entrypoint_argv: list[str], tmp_path: Path) -> None:
    for key in ["user:2", "greeting", "user:10", "user:1", "Zed"]:
        assert kv(entrypoint_argv, tmp_path, "set", key, "x").returncode == 0
    everything = kv(entrypoint_argv, tmp_path, "list")
    assert everything.stdout == "Zed\ngreeting\nuser:1\nuser:10\nuser:2\n"
    users = kv(entrypoint_argv, tmp_path, "list", "user:1")
    assert (users.returncode, users.stdout) == (0, "user:1\nuser:10\n")


def test_del_removes_key(entrypoint_argv: list[str], tmp_path: Path) -> None:
    kv(entrypoint_argv, tmp_path, "set", "a", "1")
    kv(entrypoint_argv, tmp_path, "set", "b", "2")
    deleted = kv(entrypoint_argv, tmp_path, "del", "a")
    assert (deleted.returncode, deleted.stdout) == (0, "")
    assert kv(entrypoint_argv, tmp_path, "list").stdout == "b\n"
    assert_error(kv(entrypoint_argv, tmp_path, "get", "a"), 1)


def test_file_written_in_documented_format(entrypoint_argv: list[str], tmp_path: Path) -> None:
    kv(entrypoint_argv, tmp_path, "set", "user:1", "alice")
    kv(entrypoint_argv, tmp_path, "set", "motto", "carpe diem")
    document = json.loads((tmp_path / "store.json").read_text(encoding="utf-8"))
    assert document["kvstore"] == 1
    assert document["keys"]["user:1"]["value"] == "alice"
    assert document["keys"]["motto"]["value"] == "carpe diem"


def test_reads_a_seeded_file(entrypoint_argv: list[str], tmp_path: Path) -> None:
    seed(tmp_path, {"b": "two", "a": "one"})
    assert kv(entrypoint_argv, tmp_path, "list").stdout == "a\nb\n"
    assert kv(entrypoint_argv, tmp_path, "get", "b").stdout == "two\n"


@pytest.mark.functionality
def test_empty_and_spaced_values(entrypoint_argv: list[str], tmp_path: Path) -> None:
    kv(entrypoint_argv, tmp_path, "set", "empty", "")
    kv(entrypoint_argv, tmp_path, "set", "spaced", "  two  spaces ")
    assert kv(entrypoint_argv, tmp_path, "get", "empty").stdout == "\n"
    assert kv(entrypoint_argv, tmp_path, "get", "spaced").stdout == "  two  spaces \n"


@pytest.mark.functionality
def test_list_on_missing_file_and_no_match(entrypoint_argv: list[str], tmp_path: Path) -> None:
    missing = kv(entrypoint_argv, tmp_path, "list")
    assert (missing.returncode, missing.stdout) == (0, "")
    kv(entrypoint_argv, tmp_path, "set", "alpha", "1")
    nothing = kv(entrypoint_argv, tmp_path, "list", "beta")
    assert (nothing.returncode, nothing.stdout) == (0, "")


@pytest.mark.functionality
def test_zero_byte_file_is_empty_store(entrypoint_argv: list[str], tmp_path: Path) -> None:
    (tmp_path / "store.json").write_bytes(b"")
    assert kv(entrypoint_argv, tmp_path, "list").stdout == ""
    assert kv(entrypoint_argv, tmp_path, "set", "k", "v").returncode == 0
    assert kv(entrypoint_argv, tmp_path, "get", "k").stdout == "v\n"


@pytest.mark.functionality
def test_db_equals_form_and_unknown_entry_members(
    entrypoint_argv: list[str], tmp_path: Path
) -> None:
    document = {"kvstore": 1, "comment": "hi", "keys": {"k": {"value": "v", "note": 1}}}
    (tmp_path / "other.json").write_text(json.dumps(document))
    result = subprocess.run(
        [*entrypoint_argv, "--db=other.json", "get", "k"],
        cwd=tmp_path, capture_output=True, text=True, timeout=20,
    )
    assert (result.returncode, result.stdout) == (0, "v\n")


@pytest.mark.functionality
def test_key_with_all_allowed_characters(entrypoint_argv: list[str], tmp_path: Path) -> None:
    key = "a-Z_0.9:/x" + "k" * 240
    assert kv(entrypoint_argv, tmp_path, "set", key, "ok").returncode == 0
    assert kv(entrypoint_argv, tmp_path, "get", key).stdout == "ok\n"


@pytest.mark.error
@pytest.mark.parametrize("command", ["get", "del"])
def test_missing_key_exits_1(entrypoint_argv: list[str], tmp_path: Path, command: str) -> None:
    kv(entrypoint_argv, tmp_path, "set", "present", "1")
    result = kv(entrypoint_argv, tmp_path, command, "absent")
    assert_error(result, 1)
    assert "absent" in result.stderr


@pytest.mark.error
@pytest.mark.parametrize(
    "args",
    [
        ["frobnicate"],
        ["get"],
        ["get", "a", "b"],
        ["set", "onlykey"],
        ["list", "a", "b"],
        ["set", "bad key", "x"],
        ["set", "", "x"],
        ["set", "star*", "x"],
        ["set", "k" * 251, "x"],
    ],
)
def test_usage_errors_exit_2(entrypoint_argv: list[str], tmp_path: Path, args: list[str]) -> None:
    assert_error(kv(entrypoint_argv, tmp_path, *args), 2)
    assert not (tmp_path / "store.json").exists()


@pytest.mark.error
def test_missing_db_option_exits_2(entrypoint_argv: list[str], tmp_path: Path) -> None:
    result = subprocess.run(
        [*entrypoint_argv, "get", "k"], cwd=tmp_path, capture_output=True, text=True, timeout=20
    )
    assert_error(result, 2)


@pytest.mark.error
@pytest.mark.parametrize(
    "content",
    [
        "not json",
        "[]",
        '{"keys": {}}',
        '{"kvstore": 2, "keys": {}}',
        '{"kvstore": 1, "keys": []}',
        '{"kvstore": 1, "keys": {"a": {"value": 5}}}',
        '{"kvstore": 1, "keys": {"a": "plain"}}',
    ],
)
def test_corrupt_store_exits_3_and_is_kept(
    entrypoint_argv: list[str], tmp_path: Path, content: str
) -> None:
    (tmp_path / "store.json").write_text(content)
    assert_error(kv(entrypoint_argv, tmp_path, "get", "a"), 3)
    assert_error(kv(entrypoint_argv, tmp_path, "set", "a", "b"), 3)
    assert (tmp_path / "store.json").read_text() == content


@pytest.mark.error
def test_unwritable_location_exits_3(entrypoint_argv: list[str], tmp_path: Path) -> None:
    result = subprocess.run(
        [*entrypoint_argv, "--db", "no/such/dir/s.json", "set", "k", "v"],
        cwd=tmp_path, capture_output=True, text=True, timeout=20,
    )
    assert_error(result, 3)
