"""Sentences and the two views of a scanned document, section by section.

Every section's content (from the end of its heading to the next heading) is
converted twice: in prose mode for sentences and the prose view, and in
structure mode for the structure view. Sentences are made for every section
except the references; the prose view holds the abstract and the body (the
paper's "views of this body"); the structure view holds every section.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from slopmark.paper.document import Citation, Reference, Section, Sentence, Span
from slopmark.paper.latex import sentences
from slopmark.paper.latex.convert import Converted, Lookup, convert

#: (section, content start, content end) for each section.
Bounds = tuple[Section, int, int]


@dataclass(frozen=True)
class Views:
    sentences: tuple[Sentence, ...]
    prose: str
    structure: str


def _paragraphs(text: str) -> str:
    kept = (" ".join(part.split()) for part in text.split("\n"))
    return "\n\n".join(part for part in kept if part)


def _sentences(
    section: Section, converted: Converted, text: str, end: int, span: Callable[[int], Span]
) -> list[Sentence]:
    found: list[Sentence] = []
    marks = converted.marks
    for start, stop in sentences.split(converted.text):
        src_start = converted.source_pos(start)
        src_end = min(end, converted.source_pos(stop)) if stop < len(converted.text) else end
        inside = [mark for offset, mark in marks if start <= offset < stop]
        found.append(
            Sentence(
                " ".join(converted.text[start:stop].split()), section.index, span(src_start),
                tuple(m for m in inside if isinstance(m, Citation)),
                tuple(m for m in inside if isinstance(m, Reference)),
                text[src_start:src_end].strip(),
            )
        )  # fmt: skip
    return found


def _heading_line(section: Section) -> str:
    number = f"{section.number} " if section.number else ""
    place = "body" if section.in_body else "appendix" if section.in_appendix else "back"
    where = f"{section.at.file}:{section.at.line}"
    return (
        f"{'#' * max(section.level, 1)} {number}{section.title}  [{section.role}, {place}, {where}]"
    )


def build_views(
    text: str, masked: str, bounds: Sequence[Bounds], lookup: Lookup, span: Callable[[int], Span]
) -> Views:
    """Sentences, prose view and structure view of every section."""
    found: list[Sentence] = []
    prose: list[str] = []
    structure: list[str] = []
    for section, start, end in bounds:
        shape = convert(text, masked, start, end, lookup, "structure")
        structure += [_heading_line(section), _paragraphs(shape.text)]
        if section.role == "references":
            continue
        converted = convert(text, masked, start, end, lookup, "prose")
        found += _sentences(section, converted, text, end, span)
        if section.in_body:
            prose += [section.title, _paragraphs(converted.text)]
    return Views(
        tuple(found),
        "\n\n".join(part for part in prose if part),
        "\n\n".join(part for part in structure if part),
    )
