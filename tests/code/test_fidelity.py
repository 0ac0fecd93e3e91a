"""slopmark's code measures pinned to the paper's reference tool, scb-check 0.1.0.

The reference numbers are data, produced by `tests/code/fidelity/make_reference.py`
(which needs scb-check==0.1.0 on Python 3.12 and is not run here):

* ``reference_fixture.json``: every callable of ``reference_fixture/`` (a small
  order-processing app) with its CC and SLOC, and the tree's totals;
* ``flask_3_1_3.json``: every callable of flask 3.1.3 as the reference tool
  measured it, and the paper's Table 2 values for flask.

CC, SLOC and the callables themselves must agree exactly. Clone lines may
differ a little: our normal form is built from Python's syntax tree, which
has no trailing commas or redundant parentheses, while the reference's
tree-sitter form keeps both, so blocks that differ only in those are clones
for us and not for it.
"""

from __future__ import annotations

import json
import math
from pathlib import Path
from typing import Any

import pytest

from slopmark.code.measure.measure_tree import measure_tree
from slopmark.code.measure.metrics import erosion, mass
from slopmark.code.measure.report import TreeReport

FIDELITY = Path(__file__).parent / "fidelity"
REFERENCE = json.loads((FIDELITY / "reference_fixture.json").read_text(encoding="utf-8"))
FLASK = json.loads((FIDELITY / "flask_3_1_3.json").read_text(encoding="utf-8"))

#: How far our clone lines may be from the reference's (relative).
CLONE_TOLERANCE = 0.10
EROSION_TOLERANCE = 0.002


@pytest.fixture(scope="module")
def report() -> TreeReport:
    return measure_tree(FIDELITY / "reference_fixture")


def ours(report: TreeReport) -> dict[tuple[str, int], dict[str, Any]]:
    return {
        (c.path, c.start): {"name": c.qualname.rsplit(".", 1)[-1], "cc": c.cc, "sloc": c.sloc}
        for c in report.callables
    }


def test_same_callables(report: TreeReport) -> None:
    expected = {(row["file"], row["line"]) for row in REFERENCE["callables"]}
    assert set(ours(report)) == expected


@pytest.mark.parametrize(
    "row", REFERENCE["callables"], ids=lambda row: f"{row['file']}:{row['line']}:{row['name']}"
)
def test_callable_matches_reference(report: TreeReport, row: dict[str, Any]) -> None:
    found = ours(report).get((row["file"], row["line"]))
    assert found == {"name": row["name"], "cc": row["cc"], "sloc": row["sloc"]}


def test_total_sloc(report: TreeReport) -> None:
    assert report.sloc == REFERENCE["totals"]["total_loc"]


def test_erosion(report: TreeReport) -> None:
    assert report.erosion is not None
    assert abs(report.erosion - REFERENCE["totals"]["erosion"]) <= EROSION_TOLERANCE


def test_clone_lines(report: TreeReport) -> None:
    expected = REFERENCE["totals"]["clone_loc"]
    assert expected > 0, "the fixture should hold duplicated blocks"
    assert math.isclose(report.clone_lines, expected, rel_tol=CLONE_TOLERANCE)


def test_fixture_exercises_erosion() -> None:
    """The fixture has complex callables, or erosion would be trivially 0."""
    assert any(row["cc"] > 10 for row in REFERENCE["callables"])


def test_flask_erosion_matches_table_2() -> None:
    """Our erosion formula over the reference's flask 3.1.3 callables gives the paper's value."""
    columns = FLASK["columns"]
    rows = [dict(zip(columns, row, strict=True)) for row in FLASK["callables"]]
    pairs = [(row["cc"], mass(row["cc"], row["sloc"])) for row in rows]
    value = erosion(pairs)
    assert value is not None
    assert abs(value - FLASK["table_2"]["erosion"]) <= EROSION_TOLERANCE
