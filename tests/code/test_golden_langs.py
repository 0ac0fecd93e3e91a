"""Golden tests for JavaScript, TypeScript, Go, Java and Rust: CC, SLOC, clones and hits.

Each fixture in ``tests/code/golden/lang/<language>/`` covers the constructs of its
language's CC table (`docs/languages.md`) and carries the expected values inline, in
comments worked out by hand from those definitions:

* line 1: ``expect-file: sloc=N callables=K`` (the file's SLOC and callables);
* on the first line of each callable: ``expect: cc=N sloc=M`` (once per callable that
  starts on the line); a line without it starts no callable;
* on the first line of each clone-group member: ``expect-clone: X`` (members of one
  group share the letter X; letters are unique across the folder);
* anywhere: ``expect-hit: FIRST-LAST RULE``, the exact set of rule hits of the file.

Beside each fixture, ``<fixture>.json`` holds the full output (callables with
qualified names and spans, SLOC, clone groups, hits). Set ``SLOPMARK_REGEN=1`` to
rewrite those files, then review the diff.
"""

from __future__ import annotations

import json
import os
import re
from collections import Counter
from pathlib import Path
from typing import Any

import pytest

from slopmark.code.measure.measure_tree import MeasureOptions, measure_tree
from slopmark.code.measure.metrics import Settings
from slopmark.code.measure.report import FileMetrics, TreeReport

GOLDEN = Path(__file__).parent / "golden" / "lang"
LANGUAGES = ("javascript", "typescript", "go", "java", "rust")
FIXTURES = sorted(p for p in GOLDEN.rglob("*") if p.is_file() and p.suffix != ".json")
REGEN = os.environ.get("SLOPMARK_REGEN") == "1"

_FILE = re.compile(r"expect-file: sloc=(\d+) callables=(\d+)")
_CALLABLE = re.compile(r"\bexpect: cc=(\d+) sloc=(\d+)")
_CLONE = re.compile(r"\bexpect-clone: ([A-Z])\b")
_HIT = re.compile(r"expect-hit: (\d+)-(\d+) ([a-z0-9-]+)")


@pytest.fixture(scope="module")
def report() -> TreeReport:
    """The fixtures measured with every rule (the pedantic set): they pin the engine's hits
    of the rules moved out of the default set too."""
    settings = Settings(rule_set="pedantic")
    return measure_tree(GOLDEN, MeasureOptions(languages=LANGUAGES, settings=settings))


def rel(fixture: Path) -> str:
    return fixture.relative_to(GOLDEN).as_posix()


def metrics(report: TreeReport, fixture: Path) -> FileMetrics:
    found = {f.path: f for f in report.files}
    assert rel(fixture) in found, f"{rel(fixture)} was not measured: {report.skipped}"
    return found[rel(fixture)]


def lines(fixture: Path) -> list[str]:
    return fixture.read_text(encoding="utf-8").splitlines()


fixtures = pytest.mark.parametrize("fixture", FIXTURES, ids=rel)


def test_every_language_has_fixtures() -> None:
    assert {p.parent.name for p in FIXTURES} == set(LANGUAGES)


def test_nothing_skipped_and_languages_reported(report: TreeReport) -> None:
    assert not report.skipped and not report.problems
    assert [row.language for row in report.languages()] == list(LANGUAGES)
    for f in report.files:
        assert f.path.split("/")[0] == f.language


@fixtures
def test_file_totals(report: TreeReport, fixture: Path) -> None:
    header = _FILE.search(lines(fixture)[0])
    assert header, f"{rel(fixture)}:1 must hold 'expect-file: sloc=N callables=K'"
    found = metrics(report, fixture)
    assert (found.sloc, len(found.callables)) == (int(header[1]), int(header[2]))


@fixtures
def test_callables(report: TreeReport, fixture: Path) -> None:
    expected = {
        number: Counter((int(cc), int(sloc)) for cc, sloc in _CALLABLE.findall(line))
        for number, line in enumerate(lines(fixture), 1)
        if _CALLABLE.search(line)
    }
    actual: dict[int, Counter[tuple[int, int]]] = {}
    for c in metrics(report, fixture).callables:
        actual.setdefault(c.start, Counter())[c.cc, c.sloc] += 1
    names = {c.start: c.qualname for c in metrics(report, fixture).callables}
    wrong = {
        line: f"{names.get(line, 'no callable')}: (cc, sloc) {dict(actual.get(line, {}))}, "
        f"expected {dict(expected.get(line, {}))}"
        for line in actual.keys() | expected.keys()
        if actual.get(line) != expected.get(line)
    }
    assert not wrong, f"{rel(fixture)}: {wrong}"


def test_clone_groups(report: TreeReport) -> None:
    expected: dict[str, set[tuple[str, int]]] = {}
    for fixture in FIXTURES:
        for number, line in enumerate(lines(fixture), 1):
            if found := _CLONE.search(line):
                expected.setdefault(found[1], set()).add((rel(fixture), number))
    actual = {frozenset((m.path, m.start) for m in g.members) for g in report.clone_groups}
    assert len(expected) >= len(LANGUAGES), "each language needs a clone group"
    assert actual == {frozenset(members) for members in expected.values()}


@fixtures
def test_rule_hits(report: TreeReport, fixture: Path) -> None:
    text = fixture.read_text(encoding="utf-8")
    expected = {(int(a), int(b), rule) for a, b, rule in _HIT.findall(text)}
    actual = {(h.start, h.end, h.rule) for h in metrics(report, fixture).hits}
    assert actual == expected


def golden_output(found: FileMetrics, report: TreeReport) -> dict[str, Any]:
    groups = [
        {"kind": g.kind, "members": [[m.start, m.end, m.sloc] for m in g.members]}
        for g in report.clone_groups
        if any(m.path == found.path for m in g.members)
    ]
    return {
        "language": found.language,
        "sloc": found.sloc,
        "callables": [[c.qualname, c.start, c.end, c.cc, c.sloc] for c in found.callables],
        "clone_groups": groups,
        "hits": [[h.rule, h.start, h.end] for h in found.hits],
    }


@fixtures
def test_golden_json(report: TreeReport, fixture: Path) -> None:
    output = golden_output(metrics(report, fixture), report)
    stored = fixture.with_name(fixture.name + ".json")
    if REGEN:
        stored.write_text(json.dumps(output, indent=1) + "\n", encoding="utf-8")
    assert stored.exists(), f"missing {stored.name}; run with SLOPMARK_REGEN=1 and review it"
    assert json.loads(stored.read_text(encoding="utf-8")) == output
