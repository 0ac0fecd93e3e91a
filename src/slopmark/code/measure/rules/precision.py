"""Each rule's measured precision: how often a reviewer agrees with its hits.

``precision.json`` beside this module is written by `benchmarks/rule_precision.py
--write` from hits on real packages that reviewers labelled one by one (true positive:
a reviewer would clearly flag the line): per rule its sample size ``n``, true positives
``tp``, precision tp/n with its 95% Wilson interval (``low``, ``high``) and its hits on the
packages. A rule with no labelled hit is not measured: precision None with n = 0, never 0.
The frozen ``paper`` set's rules are older versions, so their precision is not measured.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from functools import cache
from pathlib import Path

from slopmark.code.measure.rules.catalog import Rule

PRECISION_FILE = Path(__file__).parent / "precision.json"


@dataclass(frozen=True, slots=True)
class Precision:
    """A rule's labelled sample: ``n`` hits read, ``tp`` a reviewer would flag."""

    n: int = 0
    tp: int = 0
    precision: float | None = None
    low: float | None = None
    high: float | None = None
    #: the rule's hits on the labelled packages (None: not measured)
    hits: int | None = None

    def line(self) -> str:
        """``86% [72–94%], n=20`` or ``not measured``."""
        if self.precision is None or self.low is None or self.high is None:
            return "not measured"
        return f"{self.precision:.0%} [{self.low:.0%}–{self.high:.0%}], n={self.n}"


NOT_MEASURED = Precision()


@cache
def measured() -> dict[str, Precision]:
    """Every measured rule's precision, by id (the shipped file)."""
    found = json.loads(PRECISION_FILE.read_text(encoding="utf-8"))
    return {rule_id: Precision(**values) for rule_id, values in found.items()}


def precision_of(rule: Rule) -> Precision:
    """``rule``'s measured precision (`NOT_MEASURED` for the paper set's frozen rules)."""
    if rule.rule_set == "paper":
        return NOT_MEASURED
    return measured().get(rule.id, NOT_MEASURED)
