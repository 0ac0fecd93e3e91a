"""File-by-file agreement of slopmark's native core with the paper's reference tool.

For every `*.py` file slopmark measures under a tree, compare what the core reports
with what scb-check 0.1.0 computes on the same file (its own functions, run in its
Python 3.12 venv): whether the file is measured at all, the set of SLOC lines, every
callable (line, name, CC, SLOC) and the clone groups (members with the same normal form).

    .venv/bin/python benchmarks/reference_diff.py TREE [--show N] [--json OUT] [--keep FILE]
    .venv/bin/python benchmarks/reference_diff.py TREE --skip scb-check  # slopmark's side only

The scb-check venv is the one `benchmarks/code_measure.py` installs in
`benchmarks/.cache/scb-venv`. Exit status: 0 when everything agrees, 1 when anything
differs (the differences are printed), 2 when the comparison cannot run. With
``--skip scb-check`` only slopmark's side is read and summed up (exit status 0).
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import tempfile
from collections import defaultdict
from pathlib import Path
from typing import Any

from slopmark import _core
from slopmark.code.measure.discovery import discover

HERE = Path(__file__).resolve().parent
SCB_PYTHON = HERE / ".cache" / "scb-venv" / "bin" / "python"

#: Runs inside scb-check's venv: its per-file results for the paths read from stdin.
REFERENCE_SCRIPT = """
import json, sys
from pathlib import Path
from scb_check.analysis import clones, loc, parse, symbols
out = {}
for name in json.load(sys.stdin):
    path = Path(name)
    try:
        source, tree = parse.parse_file(path)
    except parse.ParseError:
        out[name] = "not parsed"
        continue
    try:
        sloc = loc.sloc_line_numbers(source, tree)
        found = symbols.extract_functions(path, tree, sloc)
        candidates = clones._iter_clone_candidates(path, source, tree, 3)
    except RecursionError:
        out[name] = "RecursionError"
        continue
    out[name] = {
        "sloc": sorted(sloc),
        "callables": [[s.start[0], s.name, s.cyc_complexity, s.sloc] for s in found],
        "clones": [[c.start_line, c.end_line, c.group_hash] for c in candidates],
    }
Path(sys.argv[1]).write_text(json.dumps(out), encoding="utf-8")
"""

Files = dict[str, Any]


def reference(paths: list[str]) -> Files:
    if not SCB_PYTHON.exists():
        raise SystemExit(f"{SCB_PYTHON}: missing; run benchmarks/code_measure.py once to install")
    with tempfile.TemporaryDirectory(prefix="slopmark-refdiff-") as folder:
        output = Path(folder) / "reference.json"
        done = subprocess.run(
            [str(SCB_PYTHON), "-c", REFERENCE_SCRIPT, str(output)],
            input=json.dumps(paths),
            capture_output=True,
            text=True,
            check=False,
        )
        if done.returncode != 0:
            raise SystemExit(f"scb-check failed: {done.stderr.strip().splitlines()[-1:]}")
        result: Files = json.loads(output.read_text(encoding="utf-8"))
    return result


def records(stream: _core.Stream) -> list[_core.Record]:
    """Every record of a core stream, in input order."""
    found: dict[int, _core.Record] = {}
    while batch := stream.next(len(stream)):
        found.update(batch)
    return [found[index] for index in range(len(stream))]


def ours(paths: list[str]) -> Files:
    """The core's records, with undecodable files read as scb-check reads them."""
    out: Files = {}
    for path, record in zip(paths, records(_core.stream("python", paths)), strict=True):
        if isinstance(record, _core.Failed) and record.kind == "not-utf8":
            text = Path(path).read_bytes().decode("utf-8", errors="replace")
            record = records(_core.stream("python", [text.encode("utf-8")]))[0]
        if isinstance(record, _core.Failed):
            out[path] = f"{record.kind}: {record.message}"
            continue
        out[path] = {
            "sloc": [n for n, mark in enumerate(record.sloc) if mark],
            "callables": [
                [start, q.rsplit(".", 1)[-1], cc, n] for q, start, _, cc, n in record.callables
            ],
            "clones": [[start, end, digest.hex()] for _, start, end, digest in record.clones],
        }
    return out


def clone_groups(files: Files) -> set[frozenset[tuple[str, int, int]]]:
    groups: dict[str, set[tuple[str, int, int]]] = defaultdict(set)
    for path, found in files.items():
        if isinstance(found, dict):
            for start, end, digest in found["clones"]:
                groups[digest].add((path, start, end))
    return {frozenset(members) for members in groups.values() if len(members) > 1}


def clone_lines(files: Files, groups: set[frozenset[tuple[str, int, int]]]) -> int:
    lines: dict[str, set[int]] = defaultdict(set)
    for members in groups:
        for path, start, end in members:
            sloc = set(files[path]["sloc"])
            lines[path].update(n for n in range(start, end + 1) if n in sloc)
    return sum(len(found) for found in lines.values())


def compare(mine: Files, theirs: Files, show: int) -> dict[str, Any]:
    measured = {p for p, f in mine.items() if isinstance(f, dict)}
    reference_measured = {p for p, f in theirs.items() if isinstance(f, dict)}
    both = sorted(measured & reference_measured)
    differences: list[str] = []
    for path in sorted(measured ^ reference_measured):
        ours_, reference_ = _state(mine[path]), _state(theirs[path])
        differences.append(f"{path}: slopmark {ours_}, scb-check {reference_}")
    sloc_files = callable_diffs = callables = 0
    for path in both:
        a, b = mine[path], theirs[path]
        if a["sloc"] != b["sloc"]:
            sloc_files += 1
            only_a, only_b = set(a["sloc"]) - set(b["sloc"]), set(b["sloc"]) - set(a["sloc"])
            differences.append(f"{path}: SLOC lines only here {sorted(only_a)[:8]}, "
                               f"only in scb-check {sorted(only_b)[:8]}")
        callables += len(b["callables"])
        wrong = sorted(map(tuple, a["callables"])) != sorted(map(tuple, b["callables"]))
        if wrong:
            extra = sorted(set(map(tuple, a["callables"])) ^ set(map(tuple, b["callables"])))
            callable_diffs += len(extra)
            differences.append(f"{path}: callables differ: {extra[:6]}")
    ours_groups = clone_groups({p: mine[p] for p in both})
    their_groups = clone_groups({p: theirs[p] for p in both})
    for line in differences[:show]:
        print(line)
    if len(differences) > show:
        print(f"... and {len(differences) - show} more")
    return {
        "files": len(mine),
        "measured": len(measured),
        "reference_measured": len(reference_measured),
        "measured_differently": len(measured ^ reference_measured),
        "files_with_sloc_differences": sloc_files,
        "callables_compared": callables,
        "callable_differences": callable_diffs,
        "clone_groups": len(ours_groups),
        "reference_clone_groups": len(their_groups),
        "clone_groups_differing": len(ours_groups ^ their_groups),
        "clone_lines": clone_lines(mine, ours_groups),
        "reference_clone_lines": clone_lines(theirs, their_groups),
    }


def own_summary(mine: Files) -> dict[str, Any]:
    """slopmark's side alone (``--skip scb-check``): what a comparison would compare."""
    measured = {p: f for p, f in mine.items() if isinstance(f, dict)}
    groups = clone_groups(measured)
    return {
        "files": len(mine),
        "measured": len(measured),
        "sloc_lines": sum(len(f["sloc"]) for f in measured.values()),
        "callables": sum(len(f["callables"]) for f in measured.values()),
        "clone_groups": len(groups),
        "clone_lines": clone_lines(mine, groups),
        "reference": "skipped (--skip scb-check)",
    }


def _state(found: Any) -> str:
    return "measured" if isinstance(found, dict) else f"not measured ({found})"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("tree", type=Path)
    parser.add_argument("--show", type=int, default=20, help="differences printed (default 20)")
    parser.add_argument("--json", type=Path, metavar="OUT", help="also save the summary here")
    parser.add_argument(
        "--keep", type=Path, metavar="FILE",
        help="reuse scb-check's results from FILE when it exists, else save them there",
    )  # fmt: skip
    parser.add_argument(
        "--skip", action="append", default=[], choices=("scb-check",),
        help="leave scb-check out: sum up slopmark's side only",
    )  # fmt: skip
    args = parser.parse_args(argv)
    if not args.tree.is_dir():
        print(f"reference_diff.py: {args.tree}: not a folder", file=sys.stderr)
        return 2
    paths = [f.location for f in discover(args.tree.resolve()).files]
    if "scb-check" in args.skip:
        emit(own_summary(ours(paths)), args.json)
        return 0
    if args.keep and args.keep.exists():
        theirs = json.loads(args.keep.read_text(encoding="utf-8"))
    else:
        theirs = reference(paths)
        if args.keep:
            args.keep.write_text(json.dumps(theirs), encoding="utf-8")
    summary = compare(ours(paths), theirs, args.show)
    agree = (
        summary["measured_differently"] == summary["files_with_sloc_differences"] == 0
        and summary["callable_differences"] == summary["clone_groups_differing"] == 0
    )
    emit(summary, args.json)
    return 0 if agree else 1


def emit(summary: dict[str, Any], out: Path | None) -> None:
    """Print ``summary`` (and save it to ``out``)."""
    print(json.dumps(summary, indent=1))
    if out:
        out.write_text(json.dumps(summary, indent=1) + "\n", encoding="utf-8")


if __name__ == "__main__":
    sys.exit(main())
