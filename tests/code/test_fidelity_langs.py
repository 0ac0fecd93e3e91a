"""CC per function pinned to each language's anchor tool, on the committed golden fixtures.

`tests/code/fidelity/lang_anchors.json` is data: what ESLint's `complexity` rule (JavaScript,
TypeScript), gocyclo (Go), PMD's CYCLO (Java) and rust-code-analysis (Rust) report for
every function of `tests/code/golden/lang/<language>/`, written by
`benchmarks/lang_fidelity.py --fixtures` (which installs the anchors; not run here).
Every anchor function must be a callable starting on the same line with the same CC,
except the code paths that are not callables by definition (docs/languages.md): ESLint's
class-field initialisers and static blocks.
"""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path

import pytest

from slopmark.code.measure.measure_tree import MeasureOptions, measure_tree

HERE = Path(__file__).parent
ANCHORS = json.loads((HERE / "fidelity" / "lang_anchors.json").read_text(encoding="utf-8"))
NOT_CALLABLES = ("Class field initializer", "Class static block")


@pytest.mark.parametrize("language", sorted(ANCHORS))
def test_cc_equals_the_anchor_on_every_function(language: str) -> None:
    anchor = ANCHORS[language]
    assert anchor["parse_failures"] == []
    folder = HERE / "golden" / "lang" / language
    report = measure_tree(folder, MeasureOptions(languages=(language,)))
    ours = {
        (f.path, line): Counter(c.cc for c in f.callables if c.start == line)
        for f in report.files
        for line in {c.start for c in f.callables}
    }
    functions = [f for f in anchor["functions"] if f["name"] not in NOT_CALLABLES]
    assert len(functions) >= 8
    theirs: dict[tuple[str, int], Counter[int]] = {}
    for function in functions:
        theirs.setdefault((function["file"], function["line"]), Counter())[function["cc"]] += 1
    wrong = {key: (dict(cc), dict(ours.get(key, {}))) for key, cc in theirs.items()
             if ours.get(key) != cc}  # fmt: skip
    assert not wrong, f"{anchor['anchor']} vs slopmark, (file, line): (anchor, ours): {wrong}"
