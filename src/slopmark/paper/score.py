"""A paper's scores: run the chosen measures, then the aggregate S(p) (Eq. 7).

S(p) averages the applicable items within each plane (STRUCTURE, ARGUMENT,
ARTIFACTS), then averages over the planes with at least one applicable item
("Science or Slop?", Appendix A, Eq. 7). A measure that did not apply or did
not run is left out and named; when no item applies, S(p) is undefined (None).

What each plane rests on is stated (`rests_on`): the measures that applied, a
measure of one unit per paper marked ``(0/1)`` — its score can only be 0 or 1.
Without the model measures the ARTIFACTS plane is evidence gap alone, so one
0/1 flag carries a third of S(p); `flag_planes` names such planes and
`without_planes` gives S(p) with them left out, so a benchmark can show both.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, replace
from statistics import fmean
from typing import TYPE_CHECKING, Any, Literal, Protocol

from slopmark.errors import BadInput
from slopmark.paper.document import Document
from slopmark.paper.measures.base import PLANES, MeasureResult, MeasureSpec, Plane
from slopmark.paper.measures.printed import printed_names
from slopmark.paper.recovery import gaps, recovery

if TYPE_CHECKING:
    from slopmark.paper.models import ModelSet
    from slopmark.paper.reference import RefSource

#: ``default``: slopmark's definitions; ``reference``: the authors' release for the four
#: deterministic measures (docs/paper-definitions.md lists every difference).
Profile = Literal["default", "reference"]
PROFILES: tuple[Profile, ...] = ("default", "reference")


def choose_profile(name: str) -> Profile:
    """``default`` or ``reference``; BadInput naming the option otherwise."""
    for profile in PROFILES:
        if name == profile:
            return profile
    raise BadInput(f"--profile: unknown profile '{name}' (profiles: default, reference)")


@dataclass(frozen=True)
class PaperScore:
    results: tuple[MeasureResult, ...]
    #: Mean of the applicable items of each plane (None when none applied).
    planes: dict[Plane, float | None]
    aggregate: float | None
    #: For a PDF: what the PDF route recovered of the paper's structure.
    recovery: dict[str, Any] | None = None

    @property
    def covered(self) -> tuple[Plane, ...]:
        return tuple(plane for plane, value in self.planes.items() if value is not None)

    def result(self, measure: str) -> MeasureResult | None:
        return next((r for r in self.results if r.measure == measure), None)

    def applied(self) -> tuple[str, ...]:
        return tuple(r.measure for r in self.results if r.status == "ok")

    @property
    def rests_on(self) -> dict[str, list[str]]:
        return rests_on(self.results)

    @property
    def flag_planes(self) -> tuple[str, ...]:
        return flag_planes(self.results)


class Counted(Protocol):
    """A measure's result as a stored row or a `MeasureResult` holds it."""

    @property
    def measure(self) -> str: ...
    @property
    def plane(self) -> str: ...
    @property
    def status(self) -> str: ...
    @property
    def units(self) -> int: ...


def _basis(result: Counted) -> str:
    """``evidence_gap (0/1)`` for a measure of one unit (its score is 0 or 1), else the name."""
    return f"{result.measure} (0/1)" if result.units == 1 else result.measure


def rests_on(results: Iterable[Counted]) -> dict[str, list[str]]:
    """Per plane, the measures its value averages (those that applied), in result order;
    an empty list for a plane nothing applied to."""
    found: dict[str, list[str]] = {plane: [] for plane in PLANES}
    for result in results:
        if result.status == "ok":
            found.setdefault(result.plane, []).append(_basis(result))
    return found


def flag_planes(results: Iterable[Counted]) -> tuple[str, ...]:
    """The planes resting on a single 0/1 measure: one flag decides the whole plane."""
    return tuple(plane for plane, basis in rests_on(results).items()
                 if len(basis) == 1 and basis[0].endswith(" (0/1)"))  # fmt: skip


def without_planes(score: PaperScore, left_out: Iterable[str]) -> float | None:
    """S(p) averaged over the planes not in ``left_out`` (None when none of them applies)."""
    skip = set(left_out)
    kept = [value for plane, value in score.planes.items()
            if plane not in skip and value is not None]  # fmt: skip
    return fmean(kept) if kept else None


def aggregate(results: Sequence[MeasureResult]) -> PaperScore:
    """Eq. 7 over the results that applied."""
    planes: dict[Plane, float | None] = {}
    for plane in PLANES:
        scores = [r.score for r in results if r.plane == plane and r.score is not None]
        planes[plane] = fmean(scores) if scores else None
    defined = [value for value in planes.values() if value is not None]
    return PaperScore(tuple(results), planes, fmean(defined) if defined else None)


def score_paper(
    document: Document,
    specs: Sequence[MeasureSpec],
    models: ModelSet | None = None,
    reference: RefSource | None = None,
) -> PaperScore:
    """Run every measure of ``specs`` on ``document`` and aggregate them.

    With ``reference`` (the ``reference`` profile), the measures the authors' release
    computes deterministically run on that source, as the release does.
    """
    found = recovery(document) if document.origin == "pdf" else None
    poor = gaps(found) if found is not None else {}
    released: dict[str, MeasureResult] = {}
    if reference is not None:
        from slopmark.paper.reference import reference_results

        wanted = [spec.name for spec in specs if spec.name not in poor]
        released = reference_results(replace(reference, printed=printed_names(document)), wanted)
    results = [
        _not_measured(spec, poor[spec.name]) if spec.name in poor
        else released.get(spec.name) or spec.build().measure(document, models)
        for spec in specs
    ]  # fmt: skip
    score = aggregate(results)
    return replace(score, recovery=found.as_dict()) if found is not None else score


def _not_measured(spec: MeasureSpec, reason: str) -> MeasureResult:
    return MeasureResult(spec.name, spec.plane, "not_applicable", None, 0, 0, "units",
                         reason=reason)  # fmt: skip
