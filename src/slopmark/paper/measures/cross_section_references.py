"""Cross-section references (STRUCTURE): declared objects no other section points to.

Definition ("Science or Slop?", Appendix A, Eq. 3). Every body section, and
every figure, table, equation, algorithm or theorem labelled inside one, is an
object o. R(o) collects the body sections other than o's home that point to o
through a reference command, a printed number, or a named reference, and

    h(o) = 1[ R(o) = ∅ ]

with the score the share of isolated objects (Eq. 1). Pointers from o's own
home section count neither way. Pointers into the appendix, and the roadmap of
the introduction, are recorded apart (in ``detail``) and never count.

Choices made here, so that the count is reproducible:

- Section objects are the top-level body sections (``Document.body_sections``)
  except statement, acknowledgements and reference sections. Subsections are
  not objects of their own: a pointer to a subsection (``\\ref`` to its label,
  ``Section 3.2``) points at its top-level section, and a pointer written in a
  subsection comes from its top-level section.
- Labelled objects are labels of kind figure, table, equation, algorithm or
  theorem whose top-level section is a section object; the labels of one float
  (a figure with subfigures) form one object.
- A pointer is a reference command (any key of ``\\ref``, ``\\cref``, ...), a
  printed pointer (``Table 2``, ``Sec. 3.2``, ``§3``, ``Eq. (2)``) resolved by
  printed numbers, or a named pointer (``the previous section`` and ``the next
  section`` by position among the section objects; ``the related work
  section`` by heading words, then by role). Pointers are read in the prose
  sentences and in captions; only pointers written in section objects count.
- The roadmap is the longest run of consecutive sentences of the introduction
  (the section with role introduction, else the first body section) that each
  point forward: to a later section object or into the appendix; on a tie the
  last run wins. It is a roadmap only if it points forward to at least two
  places (the appendix counting as one): a lone "(see Section 3)" in the
  introduction is a pointer, not a roadmap. Every pointer in the roadmap's
  sentences, forward or not, is recorded apart.
"""

from __future__ import annotations

from collections import Counter, defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from slopmark.paper.document import Document
from slopmark.paper.measures.base import (
    DeclaredMeasure,
    Instance,
    MeasureResult,
    heading,
    register,
)
from slopmark.paper.measures.pointers import DeclaredObject, Pointer, Resolver, declared_objects

if TYPE_CHECKING:
    from slopmark.paper.models import ModelSet

NAME = "cross_section_references"
#: A roadmap points forward to at least this many places.
ROADMAP_PLACES = 2

#: What another section does when it uses an object of each kind.
_USES = {
    "section": "builds on {name}",
    "figure": "discusses what {name} shows",
    "table": "discusses the result in {name}",
    "equation": "uses {name}",
    "algorithm": "runs or analyses {name}",
    "theorem": "relies on {name}",
}


def repair_text(kind: str, name: str, home: str) -> str:
    """The repair of an isolated object: a pointer from a body section other than its
    home, where that section uses it. Pointers from the home itself, the introduction's
    roadmap and the appendix are not counted (Appendix A), so the text says so."""
    use = _USES.get(kind, "uses {name}").format(name=name)
    where = "another body section" if kind == "section" else f"a body section other than {home}"
    return (f"if {where} {use}, point to {name} from there (a pointer from {home} itself, from "
            "the introduction's roadmap or from the appendix is not counted)")  # fmt: skip


@dataclass(frozen=True)
class Reading:
    """Every pointer of a document, sorted into what counts and what is set apart."""

    counted: tuple[Pointer, ...]
    roadmap: tuple[Pointer, ...]
    appendix: tuple[Pointer, ...]
    home: tuple[Pointer, ...]
    unresolved: tuple[Pointer, ...]


def read_pointers(document: Document, objects: Sequence[DeclaredObject]) -> Reading:
    """Find, resolve and sort every pointer written in a section object."""
    resolver = Resolver.of(document, objects)
    by_sentence = [
        (document.section(sentence.section).top, resolver.sentence_pointers(sentence))
        for sentence in document.sentences
        if resolver.counts_as_source(sentence.section)
    ]
    intro = resolver.introduction()
    roadmap = _roadmap(resolver, by_sentence, intro) if intro is not None else []
    rest = [p for _, found in by_sentence for p in found] + resolver.outside_sentences()
    return _sorted(rest, roadmap, {o.id: o.home for o in objects})


def _sorted(pointers: list[Pointer], roadmap: list[Pointer], homes: dict[str, int]) -> Reading:
    groups: dict[str, list[Pointer]] = {"counted": [], "appendix": [], "home": [], "unresolved": []}
    taken = set(roadmap)
    for pointer in pointers:
        if pointer not in taken:
            groups[_fate(pointer, homes)].append(pointer)
    return Reading(
        counted=tuple(groups["counted"]),
        roadmap=tuple(roadmap),
        appendix=tuple(groups["appendix"]),
        home=tuple(groups["home"]),
        unresolved=tuple(groups["unresolved"]),
    )


def _fate(pointer: Pointer, homes: dict[str, int]) -> str:
    if pointer.appendix:
        return "appendix"
    if pointer.target is None:
        return "unresolved"
    return "home" if homes[pointer.target] == pointer.source else "counted"


def _roadmap(
    resolver: Resolver, by_sentence: list[tuple[int, tuple[Pointer, ...]]], intro: int
) -> list[Pointer]:
    """The pointers of the introduction's longest run of forward-pointing sentences.

    The run is a roadmap only when it points forward to at least two places (two later
    sections, or a later section and the appendix); a lone forward pointer is a pointer.
    """
    in_intro = [found for top, found in by_sentence if top == intro]
    forward = [any(resolver.points_forward(p, intro) for p in found) for found in in_intro]
    start, length = longest_run(forward)
    run = [p for found in in_intro[start : start + length] for p in found]
    places = {(p.target, p.appendix) for p in run if resolver.points_forward(p, intro)}
    return run if len(places) >= ROADMAP_PLACES else []


def longest_run(flags: Sequence[bool]) -> tuple[int, int]:
    """(start, length) of the longest run of True; the last one on a tie; (0, 0) if none."""
    best = (0, 0)
    run = 0
    for position, flag in enumerate(flags):
        run = run + 1 if flag else 0
        if run and run >= best[1]:
            best = (position - run + 1, run)
    return best


@register(NAME)
class CrossSectionReferences(DeclaredMeasure):
    """Cross-section references, Eq. 3 of "Science or Slop?" (Appendix A).

    Objects o are the body sections and the figures, tables, equations,
    algorithms and theorems labelled in them; h(o) = 1[R(o) = ∅] where R(o) is
    the set of other body sections pointing to o (reference command, printed
    number or named reference), roadmap and appendix pointers set apart;
    score = mean h(o).
    """

    plane = "STRUCTURE"
    summary = "sections and labelled objects that no other section points to (Eq. 3)"

    def measure(self, document: Document, models: ModelSet | None = None) -> MeasureResult:
        objects = declared_objects(document)
        reading = read_pointers(document, objects)
        pointed: dict[str, set[int]] = defaultdict(set)
        for pointer in reading.counted:
            pointed[str(pointer.target)].add(pointer.source)
        isolated = [o for o in objects if not pointed[o.id]]
        return MeasureResult.of(
            NAME, self.plane, len(isolated), len(objects), "objects",
            instances=tuple(_instance(document, o) for o in isolated),
            detail=_detail(document, objects, reading, pointed),
        )  # fmt: skip


def _instance(document: Document, obj: DeclaredObject) -> Instance:
    return Instance(
        measure=NAME,
        at=obj.at,
        section=heading(document.section(obj.home)),
        text=f"{obj.name}: {obj.description}" if obj.description else obj.name,
        repair=repair_text(obj.kind, obj.name, heading(document.section(obj.home))),
    )


def _detail(
    document: Document,
    objects: Sequence[DeclaredObject],
    reading: Reading,
    pointed: dict[str, set[int]],
) -> dict[str, object]:
    return {
        "objects": dict(Counter(o.kind for o in objects)),
        "roadmap": _listed(document, reading.roadmap),
        "appendix_pointers": _listed(document, reading.appendix),
        "home_pointers": len(reading.home),
        "unresolved_pointers": len(reading.unresolved),
        "pointed_from": {
            o.name: [heading(document.section(i)) for i in sorted(pointed[o.id])] for o in objects
        },
    }


def _listed(document: Document, pointers: Iterable[Pointer]) -> list[dict[str, object]]:
    return [
        {
            "file": p.at.file,
            "line": p.at.line,
            "section": heading(document.section(p.source)),
            "text": p.text,
            "target": p.target,
        }
        for p in pointers
    ]


def cross_section_references(document: Document) -> MeasureResult:
    """The measure on an already parsed paper (the `CrossSectionReferences` entry point)."""
    return CrossSectionReferences().measure(document)
