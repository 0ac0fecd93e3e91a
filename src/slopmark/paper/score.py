"""A paper's scores: run the chosen measures, then the aggregate S(p) (Eq. 7).

S(p) averages the applicable items within each plane (STRUCTURE, ARGUMENT,
ARTIFACTS), then averages over the planes with at least one applicable item
("Science or Slop?", Appendix A, Eq. 7). A measure that did not apply or did
not run is left out and named; when no item applies, S(p) is undefined (None).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from statistics import fmean
from typing import TYPE_CHECKING

from slopmark.paper.document import Document
from slopmark.paper.measures.base import PLANES, MeasureResult, MeasureSpec, Plane

if TYPE_CHECKING:
    from slopmark.paper.models import ModelSet


@dataclass(frozen=True)
class PaperScore:
    results: tuple[MeasureResult, ...]
    #: Mean of the applicable items of each plane (None when none applied).
    planes: dict[Plane, float | None]
    aggregate: float | None

    @property
    def covered(self) -> tuple[Plane, ...]:
        return tuple(plane for plane, value in self.planes.items() if value is not None)

    def result(self, measure: str) -> MeasureResult | None:
        return next((r for r in self.results if r.measure == measure), None)

    def applied(self) -> tuple[str, ...]:
        return tuple(r.measure for r in self.results if r.status == "ok")


def aggregate(results: Sequence[MeasureResult]) -> PaperScore:
    """Eq. 7 over the results that applied."""
    planes: dict[Plane, float | None] = {}
    for plane in PLANES:
        scores = [r.score for r in results if r.plane == plane and r.score is not None]
        planes[plane] = fmean(scores) if scores else None
    defined = [value for value in planes.values() if value is not None]
    return PaperScore(tuple(results), planes, fmean(defined) if defined else None)


def score_paper(
    document: Document, specs: Sequence[MeasureSpec], models: ModelSet | None = None
) -> PaperScore:
    """Run every measure of ``specs`` on ``document`` and aggregate them."""
    return aggregate([spec.build().measure(document, models) for spec in specs])
