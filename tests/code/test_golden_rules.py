"""Golden rule hits: the whole pack over realistic code, hits written inline.

`golden/rules/mixed.py` ends with ``# expect-hit: FIRST-LAST RULE`` lines: the
exact set of hits the pack must produce there (suppressions included).
`golden/rules/clean.py` is idiomatic code on which no rule may fire.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from slopmark.code.measure.measure_tree import MeasureOptions, measure_tree
from slopmark.code.measure.metrics import Settings

RULES = Path(__file__).parent / "golden" / "rules"
_EXPECT = re.compile(r"^# expect-hit: (\d+)-(\d+) ([a-z0-9-]+)$", re.MULTILINE)


@pytest.fixture(scope="module")
def hits() -> dict[str, set[tuple[int, int, str]]]:
    """Every rule runs (the pedantic set): the file pins the rules moved out of the default
    set too."""
    report = measure_tree(RULES, MeasureOptions(settings=Settings(rule_set="pedantic")))
    assert not report.problems and not report.skipped
    return {f.path: {(h.start, h.end, h.rule) for h in f.hits} for f in report.files}


def test_mixed_file_hits_exactly_what_is_written(hits) -> None:
    text = (RULES / "mixed.py").read_text()
    expected = {(int(a), int(b), rule) for a, b, rule in _EXPECT.findall(text)}
    assert len(expected) >= 8
    assert hits["mixed.py"] == expected


def test_clean_file_has_no_hits(hits) -> None:
    assert hits["clean.py"] == set()
