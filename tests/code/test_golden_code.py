"""Golden tests for the code measures (CC, SLOC, clone groups).

Each fixture in ``tests/code/golden/code/`` carries its expected values inline, in
comments worked out by hand from the definitions in `native/src/lang/python.rs` (CC,
callables, SLOC) and `slopmark.code.measure.clones`:

* line 1: ``# expect-file: sloc=N callables=K`` (the file's SLOC and callables);
* on each callable's ``def`` line: ``# expect: cc=N sloc=M`` -- a def without
  it must not be a callable;
* on the first line of each clone candidate that belongs to a clone group:
  ``expect-clone: X``; members of one group share the letter X, candidates
  outside groups carry nothing.

Beside each fixture, ``<name>.json`` holds the full output (callables with
qualname, lines, CC, SLOC and mass; SLOC; clone groups). Set
``SLOPMARK_REGEN=1`` to rewrite those files, then review the diff.
"""

from __future__ import annotations

import json
import os
import re
from dataclasses import dataclass
from pathlib import Path

import pytest

from slopmark.code.measure.clones import clone_groups
from slopmark.code.measure.fileanalysis import FileAnalysis
from slopmark.code.measure.metrics import mass
from slopmark.code.measure.native import analyze_source

GOLDEN = Path(__file__).parent / "golden" / "code"
FIXTURES = sorted(GOLDEN.glob("*.py"))
REGEN = os.environ.get("SLOPMARK_REGEN") == "1"

_FILE = re.compile(r"^# expect-file: sloc=(\d+) callables=(\d+)\s*$")
_CALLABLE = re.compile(r"#.*\bexpect: cc=(\d+) sloc=(\d+)")
_CLONE = re.compile(r"#.*\bexpect-clone: ([A-Z])\b")


@dataclass(frozen=True)
class Expected:
    sloc: int
    callables: int
    per_callable: dict[int, tuple[int, int]]
    clone_letters: dict[int, str]


def read_expectations(path: Path) -> Expected:
    lines = path.read_text(encoding="utf-8").splitlines()
    header = _FILE.match(lines[0])
    assert header, f"{path.name}:1 must be '# expect-file: sloc=N callables=K'"
    per_callable: dict[int, tuple[int, int]] = {}
    clone_letters: dict[int, str] = {}
    for number, line in enumerate(lines, 1):
        if found := _CALLABLE.search(line):
            per_callable[number] = (int(found[1]), int(found[2]))
        if found := _CLONE.search(line):
            clone_letters[number] = found[1]
    return Expected(int(header[1]), int(header[2]), per_callable, clone_letters)


def analyse(path: Path) -> FileAnalysis:
    result = analyze_source(path.name, path.read_bytes())
    assert isinstance(result, FileAnalysis), f"{path.name} was skipped: {result}"
    return result


def partition(groups: dict[object, set[int]]) -> set[frozenset[int]]:
    return {frozenset(lines) for lines in groups.values()}


def golden_output(analysis: FileAnalysis) -> dict[str, object]:
    callables = [
        {
            "qualname": c.qualname,
            "start": c.start,
            "end": c.end,
            "cc": c.cc,
            "sloc": (n := analysis.sloc_between(c.start, c.end)),
            "mass": mass(c.cc, n),
        }
        for c in analysis.callables
    ]
    groups = [
        {
            "kind": g.kind,
            "members": [{"start": m.start, "end": m.end, "sloc": m.sloc} for m in g.members],
        }
        for g in clone_groups([analysis])
    ]
    return {"sloc": analysis.sloc_count, "callables": callables, "clone_groups": groups}


fixtures = pytest.mark.parametrize("fixture", FIXTURES, ids=lambda p: p.stem)


def test_fixtures_exist() -> None:
    assert len(FIXTURES) >= 6


@fixtures
def test_file_totals(fixture: Path) -> None:
    expected = read_expectations(fixture)
    analysis = analyse(fixture)
    actual = {"sloc": analysis.sloc_count, "callables": len(analysis.callables)}
    assert actual == {"sloc": expected.sloc, "callables": expected.callables}


@fixtures
def test_callables(fixture: Path) -> None:
    expected = read_expectations(fixture)
    analysis = analyse(fixture)
    actual = {c.start: (c.cc, analysis.sloc_between(c.start, c.end)) for c in analysis.callables}
    names = {c.start: c.qualname for c in analysis.callables}
    wrong = {
        line: f"{names.get(line, 'no callable')}: (cc, sloc) is {actual.get(line)}, "
        f"expected {expected.per_callable.get(line)}"
        for line in actual.keys() | expected.per_callable.keys()
        if actual.get(line) != expected.per_callable.get(line)
    }
    assert not wrong, f"{fixture.name}: {wrong}"


@fixtures
def test_clone_groups(fixture: Path) -> None:
    expected = read_expectations(fixture)
    by_letter: dict[object, set[int]] = {}
    for line, letter in expected.clone_letters.items():
        by_letter.setdefault(letter, set()).add(line)
    groups = clone_groups([analyse(fixture)])
    actual = {g.digest: {m.start for m in g.members} for g in groups}
    assert all(len(lines) >= 2 for lines in by_letter.values()), "a group needs two members"
    assert partition(actual) == partition(by_letter), f"{fixture.name}: {sorted(actual.values())}"


@fixtures
def test_golden_json(fixture: Path) -> None:
    output = golden_output(analyse(fixture))
    stored = fixture.with_suffix(".json")
    if REGEN:
        stored.write_text(json.dumps(output, indent=2) + "\n", encoding="utf-8")
    assert stored.exists(), f"missing {stored.name}; run with SLOPMARK_REGEN=1 and review it"
    assert json.loads(stored.read_text(encoding="utf-8")) == output
