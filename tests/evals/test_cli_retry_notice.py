"""``slopmark eval run`` against an endpoint nobody listens on says at once, on stderr, that
it is retrying, long before the final error: the real CLI in a subprocess, stderr read
line by line as it comes."""

from __future__ import annotations

import os
import re
import socket
import subprocess
import sys
import time
from pathlib import Path

import pytest

pytestmark = pytest.mark.slow  # starts python


def _closed_url() -> str:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return f"http://127.0.0.1:{probe.getsockname()[1]}/v1"


def _timed_stderr(args: list[str]) -> tuple[int, list[tuple[float, str]]]:
    """The exit code, and each stderr line with the seconds since the process started."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("SLOPMARK_")}
    started = time.monotonic()
    command = [sys.executable, "-m", "slopmark", *args]
    with subprocess.Popen(command, stderr=subprocess.PIPE, text=True, env=env) as process:
        assert process.stderr is not None
        lines = [(time.monotonic() - started, line.rstrip("\n")) for line in process.stderr]
        return process.wait(timeout=60), lines


def test_an_unreachable_endpoint_is_said_at_once_while_it_is_retried(tmp_path: Path) -> None:
    url = _closed_url()
    args = ["eval", "run", "--model", "openai-compat:m", "--domain", "math", "--base-url", url]
    args += ["--db", f"sqlite:///{tmp_path / 'runs.db'}", "--retries", "3"]
    args += ["--limit", "4", "--concurrency", "4"]  # four tasks fail alike: one line a round
    code, lines = _timed_stderr(args)
    assert code == 2, lines
    *notes, (ended, error) = lines
    assert error.startswith(f"slopmark: error: cannot reach {url}: ")
    assert "(gave up after 4 attempts)" in error
    said = rf"slopmark: cannot reach {re.escape(url)}: .+; attempt (\d) of 4 failed, retrying in "
    numbers = [re.match(said, text) for _, text in notes]
    assert [number.group(1) if number else None for number in numbers] == ["1", "2", "3"], lines
    # the waits between the 4 attempts are at least 0.25 + 0.5 + 1.0 s: the first
    # notice comes before all of them
    assert ended - notes[0][0] >= 1.5, lines
