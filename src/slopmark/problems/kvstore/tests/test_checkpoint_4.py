"""Checkpoint 4: no lost updates under concurrency, flock protocol, crash-safe writes."""

from __future__ import annotations

import fcntl
import json
import os
import subprocess
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest

LOCK_NAME = "store.json.lock"


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


def start(argv: list[str], cwd: Path, *args: str) -> subprocess.Popen[str]:
    return subprocess.Popen(
        [*argv, "--db", "store.json", *args],
        cwd=cwd,
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )


def finish(process: subprocess.Popen[str], stdin: str = "") -> tuple[int, str]:
    stdout, _ = process.communicate(stdin, timeout=30)
    return process.returncode, stdout


def assert_error(result: subprocess.CompletedProcess[str], code: int) -> None:
    assert result.returncode == code, result.stderr
    assert result.stdout == ""
    assert result.stderr.startswith("error: ")


@contextmanager
def held_lock(tmp_path: Path) -> Iterator[int]:
    descriptor = os.open(tmp_path / LOCK_NAME, os.O_RDWR | os.O_CREAT, 0o644)
    try:
        fcntl.flock(descriptor, fcntl.LOCK_EX)
        yield descriptor
    finally:
        os.close(descriptor)


def test_concurrent_incr_loses_nothing(entrypoint_argv: list[str], tmp_path: Path) -> None:
    processes = [start(entrypoint_argv, tmp_path, "incr", "counter") for _ in range(12)]
    results = [finish(process) for process in processes]
    assert all(code == 0 for code, _ in results)
    assert sorted(int(stdout) for _, stdout in results) == list(range(1, 13))
    assert kv(entrypoint_argv, tmp_path, "get", "counter").stdout == "12\n"


def test_concurrent_batches_do_not_interleave(entrypoint_argv: list[str], tmp_path: Path) -> None:
    script = "incr c\n" * 40
    processes = [start(entrypoint_argv, tmp_path, "batch") for _ in range(4)]
    for process in processes:
        assert process.stdin is not None
        process.stdin.write(script)
        process.stdin.close()
    runs = []
    for process in processes:
        assert process.stdout is not None and process.stderr is not None
        stdout, stderr = process.stdout.read(), process.stderr.read()
        process.stdout.close()
        process.stderr.close()
        assert process.wait(timeout=30) == 0, stderr
        runs.append([int(line) for line in stdout.split()])
    for numbers in runs:
        assert numbers == list(range(numbers[0], numbers[0] + 40))
    assert sorted(numbers[0] for numbers in runs) == [1, 41, 81, 121]
    assert kv(entrypoint_argv, tmp_path, "get", "c").stdout == "160\n"


def test_concurrent_appends_all_kept(entrypoint_argv: list[str], tmp_path: Path) -> None:
    processes = [start(entrypoint_argv, tmp_path, "append", "log", f"p{n}") for n in range(8)]
    lengths = sorted(int(finish(process)[1]) for process in processes)
    assert lengths == list(range(1, 9))
    items = json.loads(kv(entrypoint_argv, tmp_path, "get", "log").stdout)
    assert sorted(items) == [f"p{n}" for n in range(8)]


def test_store_is_replaced_not_rewritten(entrypoint_argv: list[str], tmp_path: Path) -> None:
    kv(entrypoint_argv, tmp_path, "set", "k", "old value")
    with (tmp_path / "store.json").open(encoding="utf-8") as reader:
        assert kv(entrypoint_argv, tmp_path, "set", "k", "new").returncode == 0
        old = json.loads(reader.read())
    assert old["keys"]["k"]["value"] == "old value"
    assert kv(entrypoint_argv, tmp_path, "get", "k").stdout == "new\n"


def test_killed_writers_never_corrupt_the_store(
    entrypoint_argv: list[str], tmp_path: Path
) -> None:
    filler = "x" * 60
    seed = "".join(f"set key{n} {filler}{n}\n" for n in range(3000))
    assert kv(entrypoint_argv, tmp_path, "batch", stdin=seed).returncode == 0
    for attempt in range(10):
        process = start(entrypoint_argv, tmp_path, "incr", "counter")
        time.sleep(0.03 + 0.03 * attempt)
        process.kill()
        process.communicate(timeout=30)
        document = json.loads((tmp_path / "store.json").read_text(encoding="utf-8"))
        assert len(document["keys"]) in (3000, 3001)
    counter = kv(entrypoint_argv, tmp_path, "incr", "counter")
    assert counter.returncode == 0, counter.stderr
    assert 1 <= int(counter.stdout) <= 11
    assert kv(entrypoint_argv, tmp_path, "get", "key2999").stdout == f"{filler}2999\n"


@pytest.mark.functionality
def test_waits_for_the_lock_holder(entrypoint_argv: list[str], tmp_path: Path) -> None:
    with held_lock(tmp_path):
        process = start(entrypoint_argv, tmp_path, "--lock-timeout", "15", "incr", "c")
        time.sleep(0.8)
        assert process.poll() is None
        assert not (tmp_path / "store.json").exists()
    assert finish(process) == (0, "1\n")


@pytest.mark.functionality
def test_existing_lock_file_is_not_a_held_lock(entrypoint_argv: list[str], tmp_path: Path) -> None:
    (tmp_path / LOCK_NAME).write_text("12345\n")
    started = time.monotonic()
    # A program that took the file for a held lock would wait out the 20 s timeout; one
    # that does not answers far sooner, even on a loaded machine.
    result = kv(entrypoint_argv, tmp_path, "--lock-timeout", "20", "set", "k", "v")
    assert result.returncode == 0, result.stderr
    assert time.monotonic() - started < 12
    assert kv(entrypoint_argv, tmp_path, "--lock-timeout=0", "get", "k").stdout == "v\n"


@pytest.mark.functionality
def test_leaves_only_store_and_lock_file(entrypoint_argv: list[str], tmp_path: Path) -> None:
    kv(entrypoint_argv, tmp_path, "set", "a", "1")
    kv(entrypoint_argv, tmp_path, "incr", "a")
    kv(entrypoint_argv, tmp_path, "batch", stdin="set b 2\nBEGIN\nset c 3\n")
    kv(entrypoint_argv, tmp_path, "--now", "5", "get", "missing")
    assert sorted(path.name for path in tmp_path.iterdir()) == ["store.json", LOCK_NAME]


@pytest.mark.error
def test_lock_timeout_exits_6(entrypoint_argv: list[str], tmp_path: Path) -> None:
    kv(entrypoint_argv, tmp_path, "set", "k", "v")
    before = (tmp_path / "store.json").read_text()
    with held_lock(tmp_path):
        started = time.monotonic()
        result = kv(entrypoint_argv, tmp_path, "--lock-timeout", "0.4", "set", "k", "changed")
        elapsed = time.monotonic() - started
    assert_error(result, 6)
    assert "locked" in result.stderr
    assert 0.3 <= elapsed < 10
    assert (tmp_path / "store.json").read_text() == before


@pytest.mark.error
def test_lock_timeout_applies_to_reads_and_batches(
    entrypoint_argv: list[str], tmp_path: Path
) -> None:
    kv(entrypoint_argv, tmp_path, "set", "k", "v")
    with held_lock(tmp_path):
        assert_error(kv(entrypoint_argv, tmp_path, "--lock-timeout", "0", "get", "k"), 6)
        batch = kv(entrypoint_argv, tmp_path, "--lock-timeout=0.2", "batch", stdin="set k w\n")
        assert_error(batch, 6)
    assert kv(entrypoint_argv, tmp_path, "get", "k").stdout == "v\n"


@pytest.mark.error
@pytest.mark.parametrize("value", ["-1", "soon", "nan", ""])
def test_bad_lock_timeout_exits_2(entrypoint_argv: list[str], tmp_path: Path, value: str) -> None:
    assert_error(kv(entrypoint_argv, tmp_path, "--lock-timeout", value, "set", "k", "v"), 2)
    assert not (tmp_path / "store.json").exists()
