"""What `code bench validate` prints: verbatim test ids (piped or on a terminal), pins."""

from __future__ import annotations

import os
import pty
import re
import select
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from bench.scbenv import needs_bwrap, needs_scb_python
from clirun import run_cli

CONFORMANCE = Path(__file__).parent / "conformance"
VALIDATE = ("code", "bench", "validate", "--sandbox", "bwrap")
PARAM_ID = ".evaluation_tests/test_checkpoint_1.py::test_x[abc-1]"
ANSI = re.compile(r"\x1b\[[0-9;?]*[A-Za-z]")

pytestmark = [needs_bwrap, needs_scb_python, pytest.mark.slow]  # starts bench validate


def test_a_parametrized_id_is_printed_verbatim_when_piped() -> None:
    done = run_cli(*VALIDATE, "--problems", str(CONFORMANCE / "paramids"))
    assert done.returncode == 1
    lines = done.stdout.splitlines()
    assert (
        lines[0]
        == "[1/1] FAIL  paramids/checkpoint_1  2 tests: 1 passed, 1 failed — core 1/2 (1 failed)"
    )
    assert (
        lines[1]
        == f"      failed  core          {PARAM_ID}  AssertionError: assert '0\\n' == '5\\n'"
    )


def on_terminal(args: list[str], columns: int) -> str:
    """Run ``args`` with a pseudo-terminal of ``columns`` columns as stdout; what it printed."""
    leader, follower = pty.openpty()
    env = {**os.environ, "COLUMNS": str(columns), "TERM": "xterm"}
    process = subprocess.Popen(args, stdout=follower, stderr=subprocess.DEVNULL, env=env)
    os.close(follower)
    chunks = []
    while True:
        ready, _, _ = select.select([leader], [], [], 300)
        try:
            chunk = os.read(leader, 65536) if ready else b""
        except OSError:  # the terminal closed
            chunk = b""
        if not chunk:
            break
        chunks.append(chunk)
    process.wait(timeout=60)
    os.close(leader)
    return ANSI.sub("", b"".join(chunks).decode()).replace("\r\n", "\n")


def test_a_parametrized_id_is_printed_verbatim_on_a_narrow_terminal() -> None:
    args = [
        sys.executable,
        "-m",
        "slopmark",
        *VALIDATE,
        "--problems",
        str(CONFORMANCE / "paramids"),
    ]
    text = on_terminal(args, columns=40)
    failing = [line for line in text.splitlines() if "test_x[" in line]
    assert len(failing) == 1, text
    assert failing[0].startswith(f"      failed  core          {PARAM_ID}  AssertionError")


def break_paramids(root: Path) -> Path:
    """A copy of the paramids problem whose reference now fails abc-2 (and passes abc-1)."""
    shutil.copytree(CONFORMANCE / "paramids", root / "paramids")
    (root / "paramids" / "solutions" / "checkpoint_1" / "main.py").write_text(
        "import sys\n\nword = sys.argv[1]\nprint(len(word) if word != 'abc-2' else 0)\n"
    )
    shutil.copytree(CONFORMANCE / "badcollect", root / "badcollect")
    return root


def test_pinned_failures_give_a_green_validate_that_still_catches_new_breakage(
    tmp_path: Path,
) -> None:
    pins = tmp_path / "known-failures.txt"
    chosen = ["--problem", "paramids", "--problem", "badcollect"]
    wrote = run_cli(*VALIDATE, "--problems", str(CONFORMANCE), *chosen,
                    "--write-expect-failures", str(pins))  # fmt: skip
    assert wrote.returncode == 0, wrote.stdout + wrote.stderr
    keys = [line for line in pins.read_text().splitlines() if not line.startswith("#")]
    assert keys == [
        "badcollect/checkpoint_1",
        "paramids/checkpoint_1::test_checkpoint_1.py::test_x[abc-1]",
    ]
    assert "wrote 2 expected failures" in wrote.stdout
    assert (
        wrote.stdout.splitlines()[-1]
        == "2/2 reference checkpoints ok (2 with expected failures), 0 failed, 0 errored"
    )
    again = run_cli(
        *VALIDATE, "--problems", str(CONFORMANCE), *chosen, "--expect-failures", str(pins)
    )
    assert again.returncode == 0, again.stdout
    pinned = "2 tests: 1 passed, 1 failed — core 1/2 (1 failed) (1 expected failure)"
    assert f"] ok    paramids/checkpoint_1  {pinned}" in again.stdout
    assert "] ok    badcollect/checkpoint_1  collection error in" in again.stdout
    broken = run_cli(
        *VALIDATE, "--problems", str(break_paramids(tmp_path / "p")), "--expect-failures", str(pins)
    )
    assert broken.returncode == 1
    assert (
        "failed  core          .evaluation_tests/test_checkpoint_1.py::test_x[abc-2]"
        in broken.stdout
    )
    assert "test_x[abc-1]  " not in broken.stdout
    fixed = "paramids/checkpoint_1::test_checkpoint_1.py::test_x[abc-1]"
    assert f"now passes (drop it from the expected failures): {fixed}" in broken.stdout


def test_an_unreadable_expect_failures_file_is_bad_input(tmp_path: Path) -> None:
    done = run_cli(*VALIDATE, "--problems", str(CONFORMANCE / "paramids"),
                   "--expect-failures", str(tmp_path / "missing.txt"))  # fmt: skip
    assert done.returncode == 2
    assert done.stderr.count("\n") == 1 and "--expect-failures" in done.stderr


def test_a_missing_reference_is_said_as_such(tmp_path: Path) -> None:
    shutil.copytree(Path(__file__).parent / "data" / "wordcount", tmp_path / "wordcount")
    shutil.rmtree(tmp_path / "wordcount" / "solutions" / "checkpoint_2")
    done = run_cli(*VALIDATE, "--problems", str(tmp_path))
    assert done.returncode == 1
    lines = done.stdout.splitlines()
    assert lines[1] == (
        "[2/3] FAIL  wordcount/checkpoint_2  missing reference: problem 'wordcount' has no "
        "reference solution for checkpoint_2 (looked for solutions/checkpoint_2/)"
    )
    assert lines[2] == (
        "[3/3] FAIL  wordcount/checkpoint_3  not run (an earlier checkpoint's reference is missing)"
    )
