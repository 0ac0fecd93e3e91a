"""The program must print ok; the test shows its output when it does not."""

from __future__ import annotations

import subprocess


def test_prints_ok(entrypoint_argv: list[str]) -> None:
    done = subprocess.run(entrypoint_argv, capture_output=True, text=True)
    assert done.stdout == "ok\n", done.stderr
