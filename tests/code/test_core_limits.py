"""The core's limits per file: regular files only, at most `MAX_FILE_BYTES`, a budget of
parse steps and nesting past the parser, each a record of its own, given promptly: never a
hang, an unbounded read or gigabytes of memory."""

from __future__ import annotations

import json
import os
import stat
import subprocess
import sys
from pathlib import Path

import pytest

from clirun import cli_json
from slopmark import _core
from slopmark.code.measure.discovery import MAX_FILE_BYTES

pytestmark = pytest.mark.slow  # starts python

#: Seconds within which the core answers for files it refuses (a hang fails the test).
PROMPT = 60
#: Bytes of each minified file (just under discovery's 10 MiB limit).
MINIFIED_BYTES = 9_900_000
#: README.md's bound on a file stopped at the parse budget, about 0.5 GiB per file in
#: flight (MiB, with a margin), and the memory of the rest of a run (Python, the rules).
STOPPED_MIB = 600
REST_MIB = 150

_READ = """
import json, sys
from slopmark import _core
stream = _core.stream("python", sys.argv[1:], jobs=1)
found = []
while batch := stream.next(len(stream)):
    found.extend(batch)
print(json.dumps([
    ["error", r.kind, r.message, r.line, r.column] if isinstance(r, _core.Failed) else ["ok"]
    for _, r in sorted(found, key=lambda item: item[0])
]))
"""

_PEAK = """
import resource, subprocess, sys, time
started = time.perf_counter()
done = subprocess.run(sys.argv[1:], capture_output=True, text=True)
seconds = time.perf_counter() - started
peak = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss // 1024
print(done.returncode, peak, round(seconds, 1))
print(done.stdout)
"""


def _records(paths: list[Path]) -> list[list[object]]:
    """The core's records of files handed to it by path, read in a child process that is
    stopped if it does not answer within `PROMPT` seconds."""
    done = subprocess.run(
        [sys.executable, "-c", _READ, *map(str, paths)],
        capture_output=True,
        text=True,
        timeout=PROMPT,
    )
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)


def test_the_core_refuses_what_discovery_refuses_by_size() -> None:
    assert _core.MAX_FILE_BYTES == MAX_FILE_BYTES


def test_pipes_devices_and_oversized_files_are_refused_unread(tmp_path: Path) -> None:
    pipe = tmp_path / "pipe.py"
    os.mkfifo(pipe)
    device = tmp_path / "zero.py"
    os.mknod(device, stat.S_IFCHR | 0o600, os.makedev(1, 5))
    big = tmp_path / "big.py"
    with big.open("wb") as handle:
        handle.truncate(MAX_FILE_BYTES + 1)
    small = tmp_path / "small.py"
    small.write_text("x = 1\n", encoding="utf-8")
    records = _records([pipe, device, Path("/dev/zero"), tmp_path, big, small])
    kinds = ["a named pipe", "a character device", "a character device", "a folder"]
    assert records[:4] == [
        ["error", "unreadable", f"not a regular file ({kind})", 0, 0] for kind in kinds
    ]
    assert records[4] == [
        "error",
        "too-big",
        "10.0 MiB is over the 10 MiB limit (generated?)",
        0,
        0,
    ]
    assert records[5] == ["ok"]


def _nested_ifs(levels: int) -> str:
    lines = [" " * level + "if x:\n" for level in range(levels)]
    return "".join(lines) + " " * levels + "pass\n"


def test_nesting_past_the_parser_is_too_deep_with_its_line(make_tree) -> None:
    root = make_tree(
        {
            "ifs.py": _nested_ifs(3000),
            "brackets.js": "var x = " + "[" * 3000 + "1" + "]" * 3000 + ";\n",
            "good.py": "def f(x):\n    return x\n",
        }
    )
    report = cli_json("code", "measure", str(root), "--no-cache")
    skipped = {s["path"]: s["reason"] for s in report["skipped"]}
    assert skipped["ifs.py"].startswith(
        "nesting too deep to parse at line 513: over 511 indented blocks, the most "
        "tree-sitter's Python grammar follows;"
    )
    assert skipped["brackets.js"].startswith("nesting is over 1000 levels at line 1")
    assert report["files_measured"] == 1


def _minified(unit: str, head: str = "", tail: str = "") -> str:
    """One line of about `MINIFIED_BYTES`: ``head``, ``unit`` (formatted with its index)
    repeated, ``tail``."""
    parts, size, index = [head], len(head) + len(tail) + 1, 0
    while size < MINIFIED_BYTES:
        part = unit.format(index)
        parts.append(part)
        size += len(part)
        index += 1
    return "".join(parts) + tail + "\n"


def test_minified_files_are_refused_within_the_memory_bound(tmp_path: Path) -> None:
    """Four 9.9 MB one-line scripts of the shapes minifiers write: each stopped at the parse
    budget and skipped, the run within README.md's bound, in seconds."""
    folder = tmp_path / "dist"
    folder.mkdir()
    shapes = {
        "statements.js": _minified("var a{0}=function(b){{return b+1}};"),
        "declarators.js": _minified("a{0}=function(b){{return b+1}},", "var ", "z=0;"),
        "nested.js": _minified("{{a:[1,{{b:[2,{{c:[3,{{d:[4]}}]}}]}}]}},", "x=[", "0];"),
        "chain.js": _minified("a{0}+", "x=", "0;"),
    }
    for name, text in shapes.items():
        (folder / name).write_text(text, encoding="utf-8")
    command = [sys.executable, "-m", "slopmark", "code", "measure", str(folder), "--json"]
    done = subprocess.run(
        [sys.executable, "-c", _PEAK, *command, "--no-cache"],
        capture_output=True,
        text=True,
        timeout=300,
    )
    status, report = done.stdout.split("\n", 1)
    code, peak, seconds = status.split()
    assert code == "0", done.stderr
    skipped = {s["path"]: s["reason"] for s in json.loads(report)["skipped"]}
    assert sorted(skipped) == sorted(shapes)
    for reason in skipped.values():
        assert reason.startswith("9.4 MiB on 1 line (minified?): over the limit of ")
    in_flight = min(len(shapes), os.cpu_count() or 1)
    assert int(peak) <= REST_MIB + in_flight * STOPPED_MIB, peak
    assert float(seconds) < PROMPT, seconds
