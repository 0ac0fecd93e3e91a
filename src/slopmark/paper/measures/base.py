"""What every paper measure returns, and the registry of measures.

A measure reads a `Document` (and, for the model-based ones, a `ModelSet`)
and returns a `MeasureResult`: the share of its units that show the pattern
(Eq. 1 of "Science or Slop?"), the units and flagged counts behind it, and
every flagged instance located in the source. It never prints and never
raises for what the paper contains: a measure that cannot apply says so
(status ``not_applicable``), a model-based measure without a model says
``not_run``. Never a silent zero.

A measure is declared once, on its class (`DeclaredMeasure`): its plane, unit,
summary and the model roles it needs; ``@register("name")`` on the class names it
and makes the registry's `MeasureSpec` from it. A measure needing models subclasses
`ModelMeasure`, whose one guard reports it ``not_run`` (saying why) when a
model is missing or fails, and otherwise calls its ``measured``.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, ClassVar, Literal, Protocol

from slopmark.paper.document import Document, Float, Section, Sentence, Span
from slopmark.paper.latex.readable import caption_latex, readable
from slopmark.paper.models import ModelCallFailed
from slopmark.registry import Registry

if TYPE_CHECKING:
    from slopmark.paper.models import ModelRole, ModelSet

Plane = Literal["STRUCTURE", "ARGUMENT", "ARTIFACTS"]
PLANES: tuple[Plane, ...] = ("STRUCTURE", "ARGUMENT", "ARTIFACTS")
Status = Literal["ok", "not_applicable", "not_run"]


@dataclass(frozen=True)
class Instance:
    """One located occurrence of a pattern (what `SLOP_FINDINGS.md` lists)."""

    measure: str
    at: Span
    #: The section title holding it ("4 Experiments"), for people.
    section: str
    #: The offending sentence, object ("Table 2: ..."), or citation, as written.
    text: str
    #: What a repair would connect (e.g. "point to Table 2 from Section 5 where it is discussed").
    repair: str


def heading(section: Section) -> str:
    """A section as people name it: ``"4 Experiments"``, or the bare title when unnumbered."""
    return f"{section.number} {section.title}" if section.number else section.title


def shown(document: Document, sentence: Sentence) -> str:
    """A sentence as a person reads it (no raw LaTeX; label numbers printed), for findings."""
    if not sentence.source:
        return sentence.text
    return readable(sentence.source, {label.key: label.number for label in document.labels})


def shown_caption(document: Document, held: Float) -> str:
    """A float's caption as a person reads it (symbols kept, references as printed
    numbers, citations as their keys), for findings; the plain caption when its LaTeX
    cannot be found (a caption rebuilt from a PDF)."""
    source = caption_latex(held.source, held.caption)
    if source is None:
        return held.caption
    return readable(source, {label.key: label.number for label in document.labels})


@dataclass(frozen=True)
class MeasureResult:
    measure: str
    plane: Plane
    status: Status
    #: flagged / units; None unless status is "ok".
    score: float | None
    flagged: int
    units: int
    #: What a unit is, plural ("sentences", "objects", "citing sentences", "papers", ...).
    unit_name: str
    instances: tuple[Instance, ...] = ()
    weak: bool = False
    #: Why the result is weak, not applicable or not run.
    reason: str | None = None
    #: Measure-specific extras (roadmap pointers, appendix pointers, acknowledged gap, ...).
    detail: dict[str, Any] = field(default_factory=dict)

    @classmethod
    def of(
        cls, measure: str, plane: Plane, flagged: int, units: int, unit_name: str, **rest: Any
    ) -> MeasureResult:
        """An "ok" result with score = flagged / units (not applicable when there are no units)."""
        if units == 0:
            reason = rest.pop("reason", None) or f"no {unit_name} to measure"
            status: Status = "not_applicable"
            return cls(measure, plane, status, None, 0, 0, unit_name, reason=reason, **rest)
        return cls(measure, plane, "ok", flagged / units, flagged, units, unit_name, **rest)


class Measure(Protocol):
    name: str
    plane: Plane

    def measure(self, document: Document, models: ModelSet | None) -> MeasureResult: ...


class DeclaredMeasure:
    """A measure's one declaration: set these on the class, implement `measure`."""

    name: ClassVar[str]
    plane: ClassVar[Plane]
    #: One line for listings.
    summary: ClassVar[str]
    #: What a unit is, plural, as in `MeasureResult.unit_name`.
    unit_name: ClassVar[str]
    #: The model roles the measure needs (none for a deterministic measure).
    models: ClassVar[tuple[ModelRole, ...]] = ()

    def measure(self, document: Document, models: ModelSet | None = None) -> MeasureResult:
        raise NotImplementedError

    def not_run(self, reason: str) -> MeasureResult:
        return MeasureResult(
            self.name, self.plane, "not_run", None, 0, 0, self.unit_name, reason=reason
        )


class ModelMeasure(DeclaredMeasure):
    """A measure that asks models: not run when one is missing or a call fails.

    ``not_run_on`` lists further errors of ``measured`` that mean "could not run".
    """

    not_run_on: ClassVar[tuple[type[Exception], ...]] = ()

    def measure(self, document: Document, models: ModelSet | None = None) -> MeasureResult:
        if models is None:
            wanted = " and a ".join(self.models)
            return self.not_run(f"needs a {wanted} model: pass --model-config FILE")
        missing = models.missing(*self.models)
        if missing is not None:
            return self.not_run(missing)
        failures: tuple[type[Exception], ...] = (ModelCallFailed, *self.not_run_on)
        try:
            return self.measured(document, models)
        except failures as error:
            return self.not_run(str(error))

    def measured(self, document: Document, models: ModelSet) -> MeasureResult:
        """The result, with every model in ``self.models`` configured."""
        raise NotImplementedError


@dataclass(frozen=True)
class MeasureSpec:
    """What the registry holds of a measure: its class, whose attributes declare it."""

    build: type[DeclaredMeasure]

    @property
    def name(self) -> str:
        return self.build.name

    @property
    def plane(self) -> Plane:
        return self.build.plane

    @property
    def summary(self) -> str:
        return self.build.summary

    @property
    def models(self) -> tuple[ModelRole, ...]:
        return self.build.models

    @property
    def needs_model(self) -> bool:
        return bool(self.build.models)


def _spec(name: str, measure: type[DeclaredMeasure]) -> MeasureSpec:
    """The spec of the measure class ``measure``, named ``name``."""
    measure.name = name
    return MeasureSpec(measure)


#: Every measure by name: the modules of this package, then the entry points of
#: ``slopmark.measures``.
MEASURES: Registry[MeasureSpec] = Registry("measure", "slopmark.paper.measures", declare=_spec)
#: Class decorator: ``@register("name")`` names the measure and makes it available.
register = MEASURES.register

#: The order measures are reported in (the paper's Table 1).
ORDER = (
    "macro_redundancy", "cross_section_references", "citation_isolation", "evidence_gap",
    "argument_graph", "figure_exposition",
)  # fmt: skip


def measure_specs() -> dict[str, MeasureSpec]:
    """Every measure, the paper's in `ORDER`, then the others by name."""
    found = MEASURES.items()
    known = [name for name in ORDER if name in found] + sorted(set(found) - set(ORDER))
    return {name: found[name] for name in known}


def choose_measures(selection: str) -> list[MeasureSpec]:
    """``all``, ``deterministic`` or a comma list of names → the specs, in report order."""
    specs = measure_specs()
    if selection == "all":
        return list(specs.values())
    if selection == "deterministic":
        return [spec for spec in specs.values() if not spec.needs_model]
    names = [part.strip() for part in selection.split(",") if part.strip()]
    for name in names:
        if name not in specs:
            raise MEASURES.unknown(name, specs, option="--measures", extra="or all, deterministic")
    return [specs[name] for name in names]
