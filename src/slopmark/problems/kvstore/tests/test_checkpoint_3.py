"""Checkpoint 3: a logical clock, expiring keys, expire/ttl/persist/tick/time."""

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


def at(argv: list[str], cwd: Path, now: int, *args: str) -> subprocess.CompletedProcess[str]:
    return kv(argv, cwd, "--now", str(now), *args)


def out(result: subprocess.CompletedProcess[str]) -> tuple[int, str]:
    return result.returncode, result.stdout


def assert_error(result: subprocess.CompletedProcess[str], code: int) -> None:
    assert result.returncode == code, result.stderr
    assert result.stdout == ""
    assert result.stderr.startswith("error: ")


def document(tmp_path: Path) -> dict[str, object]:
    loaded: dict[str, object] = json.loads((tmp_path / "store.json").read_text(encoding="utf-8"))
    return loaded


def test_clock_starts_at_zero_and_ticks(entrypoint_argv: list[str], tmp_path: Path) -> None:
    assert out(kv(entrypoint_argv, tmp_path, "time")) == (0, "0\n")
    assert out(kv(entrypoint_argv, tmp_path, "tick")) == (0, "1\n")
    assert out(kv(entrypoint_argv, tmp_path, "tick", "9")) == (0, "10\n")
    assert out(kv(entrypoint_argv, tmp_path, "time")) == (0, "10\n")
    assert out(at(entrypoint_argv, tmp_path, 25, "time")) == (0, "25\n")
    assert out(kv(entrypoint_argv, tmp_path, "time")) == (0, "25\n")


def test_key_expires_when_clock_reaches_expiry(entrypoint_argv: list[str], tmp_path: Path) -> None:
    assert at(entrypoint_argv, tmp_path, 10, "set", "session", "abc", "--ttl", "5").returncode == 0
    assert out(kv(entrypoint_argv, tmp_path, "ttl", "session")) == (0, "5\n")
    assert out(at(entrypoint_argv, tmp_path, 14, "get", "session")) == (0, "abc\n")
    assert out(kv(entrypoint_argv, tmp_path, "ttl", "session")) == (0, "1\n")
    assert out(kv(entrypoint_argv, tmp_path, "tick")) == (0, "15\n")
    assert_error(kv(entrypoint_argv, tmp_path, "get", "session"), 1)
    assert out(kv(entrypoint_argv, tmp_path, "list")) == (0, "")


def test_expire_ttl_persist(entrypoint_argv: list[str], tmp_path: Path) -> None:
    kv(entrypoint_argv, tmp_path, "set", "counter", "5", "--type", "int")
    assert out(kv(entrypoint_argv, tmp_path, "ttl", "counter")) == (0, "-1\n")
    assert out(kv(entrypoint_argv, tmp_path, "expire", "counter", "10")) == (0, "")
    assert out(kv(entrypoint_argv, tmp_path, "incr", "counter")) == (0, "6\n")
    assert out(kv(entrypoint_argv, tmp_path, "ttl", "counter")) == (0, "10\n")
    assert out(kv(entrypoint_argv, tmp_path, "persist", "counter")) == (0, "")
    assert out(kv(entrypoint_argv, tmp_path, "ttl", "counter")) == (0, "-1\n")
    assert out(at(entrypoint_argv, tmp_path, 1000, "get", "counter")) == (0, "6\n")


def test_set_without_ttl_clears_expiry(entrypoint_argv: list[str], tmp_path: Path) -> None:
    kv(entrypoint_argv, tmp_path, "set", "k", "old", "--ttl", "3")
    kv(entrypoint_argv, tmp_path, "set", "k", "new")
    assert out(kv(entrypoint_argv, tmp_path, "ttl", "k")) == (0, "-1\n")
    assert out(at(entrypoint_argv, tmp_path, 50, "get", "k")) == (0, "new\n")


def test_list_hides_expired_keys(entrypoint_argv: list[str], tmp_path: Path) -> None:
    kv(entrypoint_argv, tmp_path, "set", "a", "1", "--ttl", "2")
    kv(entrypoint_argv, tmp_path, "set", "b", "1", "--ttl", "4")
    kv(entrypoint_argv, tmp_path, "set", "c", "1")
    assert kv(entrypoint_argv, tmp_path, "list").stdout == "a\nb\nc\n"
    assert at(entrypoint_argv, tmp_path, 2, "list").stdout == "b\nc\n"
    assert at(entrypoint_argv, tmp_path, 4, "list").stdout == "c\n"


def test_expired_key_starts_fresh(entrypoint_argv: list[str], tmp_path: Path) -> None:
    kv(entrypoint_argv, tmp_path, "set", "n", "40", "--type", "int", "--ttl", "1")
    kv(entrypoint_argv, tmp_path, "append", "l", "x")
    kv(entrypoint_argv, tmp_path, "expire", "l", "1")
    assert out(at(entrypoint_argv, tmp_path, 1, "incr", "n")) == (0, "1\n")
    assert out(kv(entrypoint_argv, tmp_path, "ttl", "n")) == (0, "-1\n")
    assert out(kv(entrypoint_argv, tmp_path, "append", "l", "y")) == (0, "1\n")


def test_batch_expiry_is_transactional(entrypoint_argv: list[str], tmp_path: Path) -> None:
    at(entrypoint_argv, tmp_path, 15, "time")
    script = "set a 1 --ttl 3\nBEGIN\npersist a\nROLLBACK\nttl a\ntick 3\nget a\n"
    result = kv(entrypoint_argv, tmp_path, "batch", stdin=script)
    assert result.returncode == 1
    assert result.stdout == "3\n18\n"
    assert result.stderr.startswith("error: line 7:")
    assert out(kv(entrypoint_argv, tmp_path, "time")) == (0, "18\n")


@pytest.mark.functionality
def test_clock_and_expiry_in_file(entrypoint_argv: list[str], tmp_path: Path) -> None:
    at(entrypoint_argv, tmp_path, 12, "set", "session", "abc", "--ttl", "8")
    saved = document(tmp_path)
    assert saved["clock"] == 12
    assert saved["keys"]["session"]["expires_at"] == 20  # type: ignore[index]


@pytest.mark.functionality
def test_seeded_clock_and_expiry(entrypoint_argv: list[str], tmp_path: Path) -> None:
    keys = {
        "live": {"type": "string", "value": "yes", "expires_at": 20},
        "dead": {"type": "string", "value": "no", "expires_at": 12},
        "old": {"value": "plain"},
    }
    (tmp_path / "store.json").write_text(json.dumps({"kvstore": 1, "clock": 12, "keys": keys}))
    assert out(kv(entrypoint_argv, tmp_path, "list")) == (0, "live\nold\n")
    assert out(kv(entrypoint_argv, tmp_path, "ttl", "live")) == (0, "8\n")
    assert_error(kv(entrypoint_argv, tmp_path, "get", "dead"), 1)


@pytest.mark.functionality
def test_expire_zero_removes_and_now_equal_is_fine(
    entrypoint_argv: list[str], tmp_path: Path
) -> None:
    at(entrypoint_argv, tmp_path, 7, "set", "k", "v")
    assert out(at(entrypoint_argv, tmp_path, 7, "expire", "k", "0")) == (0, "")
    assert_error(kv(entrypoint_argv, tmp_path, "get", "k"), 1)
    assert out(kv(entrypoint_argv, tmp_path, "tick", "0")) == (0, "7\n")


@pytest.mark.functionality
def test_tick_outside_transactions_in_batch(entrypoint_argv: list[str], tmp_path: Path) -> None:
    script = "set a x --ttl 2\ntick\nttl a\nBEGIN\nexpire a 5\nCOMMIT\ntick 4\nttl a\ntime\n"
    result = kv(entrypoint_argv, tmp_path, "--now", "3", "batch", stdin=script)
    assert out(result) == (0, "4\n1\n8\n1\n8\n")


@pytest.mark.functionality
def test_failed_command_still_saves_now(entrypoint_argv: list[str], tmp_path: Path) -> None:
    assert_error(at(entrypoint_argv, tmp_path, 30, "get", "missing"), 1)
    assert out(kv(entrypoint_argv, tmp_path, "time")) == (0, "30\n")


@pytest.mark.error
def test_now_before_clock_exits_2(entrypoint_argv: list[str], tmp_path: Path) -> None:
    at(entrypoint_argv, tmp_path, 15, "set", "k", "v")
    assert_error(at(entrypoint_argv, tmp_path, 3, "set", "k", "changed"), 2)
    assert out(kv(entrypoint_argv, tmp_path, "get", "k")) == (0, "v\n")
    assert out(kv(entrypoint_argv, tmp_path, "time")) == (0, "15\n")


@pytest.mark.error
@pytest.mark.parametrize("command", ["ttl", "persist", "expire"])
def test_expiry_commands_on_missing_key_exit_1(
    entrypoint_argv: list[str], tmp_path: Path, command: str
) -> None:
    kv(entrypoint_argv, tmp_path, "set", "gone", "v", "--ttl", "1")
    kv(entrypoint_argv, tmp_path, "tick")
    args = ["gone", "5"] if command == "expire" else ["gone"]
    assert_error(kv(entrypoint_argv, tmp_path, command, *args), 1)


@pytest.mark.error
@pytest.mark.parametrize(
    "args",
    [
        ["set", "k", "v", "--ttl", "0"],
        ["set", "k", "v", "--ttl", "-3"],
        ["set", "k", "v", "--ttl", "1.5"],
        ["expire", "k", "-1"],
        ["expire", "k"],
        ["tick", "-2"],
        ["tick", "soon"],
        ["time", "now"],
        ["--now", "-1", "time"],
        ["--now", "later", "time"],
    ],
)
def test_bad_times_exit_2(entrypoint_argv: list[str], tmp_path: Path, args: list[str]) -> None:
    kv(entrypoint_argv, tmp_path, "set", "k", "v")
    before = (tmp_path / "store.json").read_text()
    assert_error(kv(entrypoint_argv, tmp_path, *args), 2)
    assert (tmp_path / "store.json").read_text() == before


@pytest.mark.error
def test_tick_inside_transaction_exits_5(entrypoint_argv: list[str], tmp_path: Path) -> None:
    script = "tick 2\nBEGIN\nset a 1\ntick\nCOMMIT\n"
    result = kv(entrypoint_argv, tmp_path, "batch", stdin=script)
    assert result.returncode == 5
    assert result.stdout == "2\n"
    assert result.stderr.startswith("error: line 4:")
    assert out(kv(entrypoint_argv, tmp_path, "time")) == (0, "2\n")
    assert out(kv(entrypoint_argv, tmp_path, "list")) == (0, "")


@pytest.mark.error
@pytest.mark.parametrize(
    "top",
    [
        {"clock": "5"},
        {"clock": -1},
        {"clock": 1.5},
        {"keys": {"k": {"value": "v", "expires_at": "9"}}},
    ],
)
def test_bad_clock_or_expiry_in_file_is_corrupt(
    entrypoint_argv: list[str], tmp_path: Path, top: dict[str, object]
) -> None:
    content = {"kvstore": 1, "keys": {}, **top}
    (tmp_path / "store.json").write_text(json.dumps(content))
    assert_error(kv(entrypoint_argv, tmp_path, "list"), 3)
