"""The ``reference`` profile: the four deterministic measures as the authors' release computes them.

"Science or Slop?" ships its own implementation (github.com/yerimoh/ScientificSlop,
commit b622df89e96a39ea85385645e2b4726dacb2f440, ``scislop/``). This package
re-implements its definitions (no code copied; the facts are cited in each
module) so that ``--profile reference`` gives the release's units, flagged
counts and scores: macro redundancy (``Structure/macro_redund``, v4),
cross-section references (``Structure/xsec_ref``, v3), citation isolation
(``Argument/citation``, layer M, v4) and evidence gap
(``Artifacts/evidence_gap``, v1). It reads its own expansion of the LaTeX
(`expand`), as the release does, not the `Document` the default profile reads.
docs/paper-definitions.md lists every point where the two profiles differ.
"""

from __future__ import annotations

from collections.abc import Callable

from slopmark.paper.measures.base import MeasureResult
from slopmark.paper.reference.citation import citation_isolation
from slopmark.paper.reference.evidence import evidence_gap
from slopmark.paper.reference.expand import RefSource, expand
from slopmark.paper.reference.macro import macro_redundancy
from slopmark.paper.reference.paper import RefPaper, read_paper
from slopmark.paper.reference.xsec import cross_section_references

__all__ = ["MEASURES", "RefSource", "expand", "reference_results"]

#: The measures the release computes deterministically, by name.
MEASURES: dict[str, Callable[[RefSource, RefPaper], MeasureResult]] = {
    "macro_redundancy": macro_redundancy,
    "cross_section_references": cross_section_references,
    "citation_isolation": citation_isolation,
    "evidence_gap": evidence_gap,
}


def reference_results(source: RefSource, names: list[str]) -> dict[str, MeasureResult]:
    """The release's result for each of ``names`` that it computes (others are left out)."""
    paper = read_paper(source.text)
    return {name: MEASURES[name](source, paper) for name in names if name in MEASURES}
