"""How much of a paper's structure the PDF route recovered, and what it is too poor for.

A PDF has no sections, labels or citation commands: the PDF route rebuilds them
from fonts, numbering and printed pointers. `Recovery` counts what came back
(body sections, floats, bibliography entries, citation and reference commands)
and `gaps` names the measures it is too poor to measure, with the reason, so
that they are reported as not applicable instead of a misleading score:

- fewer than `MIN_SECTIONS` body sections: macro redundancy, cross-section
  references, citation isolation and the argument graph (each reads sections:
  "an earlier section", "another section", the introduction and related work);
- no bibliography entry: citation isolation (no citation can be told apart).

`refusal` refuses what is not a paper at all, by its content: fewer than
`MIN_PROSE` words of running text (sentences of `PROSE_SENTENCE` words or more; a
figure's axis labels, legend and tick marks are not prose, nor is a one-page diagram
or plot), or no paper structure at all (no abstract, no section heading and no
reference list: a receipt, a letter).

`renumbered` counts the printed section numbers LaTeX would number differently (the
rebuild's notes): a disagreement between the printed numbering and the recovered
sections, to be checked by a reader before trusting the sectioned measures.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass
from typing import Any

from slopmark.paper.document import Document
from slopmark.plurals import count

MIN_SECTIONS = 3
MIN_PROSE = 150
PROSE_SENTENCE = 5
#: The rebuild's note on a printed number LaTeX would not give (see `pdf.rebuild`).
NUMBERING_NOTE = "where LaTeX would number it"
SECTIONED = ("macro_redundancy", "cross_section_references", "citation_isolation",
             "argument_graph")  # fmt: skip


@dataclass(frozen=True)
class Recovery:
    sections: int
    floats: int
    bibliography: int
    citations: int
    references: int
    words: int
    #: Words in sentences of `PROSE_SENTENCE` words or more.
    prose_words: int = 0
    #: 1 when an abstract was recovered.
    abstract: int = 0
    #: Printed section numbers that disagree with the recovered sections' numbering.
    renumbered: int = 0

    def as_dict(self) -> dict[str, Any]:
        return asdict(self)


def recovery(document: Document) -> Recovery:
    """What the document holds of a paper's structure (sections: titled body sections)."""
    lengths = [len(sentence.text.split()) for sentence in document.sentences]
    headed = [s for s in document.body_sections() if s.title]
    abstract = int(any(s.role == "abstract" for s in document.sections))
    renumbered = sum(NUMBERING_NOTE in note.message for note in document.notes)
    return Recovery(
        len(headed), len(document.floats), len(document.bibliography),
        len(document.citations), len(document.references), sum(lengths),
        sum(n for n in lengths if n >= PROSE_SENTENCE), abstract, renumbered,
    )  # fmt: skip


def gaps(found: Recovery) -> dict[str, str]:
    """Measure → why the recovered structure is too poor for it (empty when it is enough)."""
    reasons: dict[str, str] = {}
    if found.sections < MIN_SECTIONS:
        why = (f"the PDF route recovered {count(found.sections, 'body section')}, fewer than "
               f"{MIN_SECTIONS}: too few to measure")  # fmt: skip
        reasons.update(dict.fromkeys(SECTIONED, why))
    if found.bibliography == 0:
        reasons.setdefault(
            "citation_isolation", "the PDF route recovered no bibliography: citations cannot "
            "be told apart",
        )  # fmt: skip
    return reasons


def refusal(found: Recovery) -> str | None:
    """Why the PDF is not a paper (too little running text, no paper structure), or None."""
    problems = []
    if found.prose_words < MIN_PROSE:
        problems.append(f"{count(found.prose_words, 'word')} of running text where a paper "
                        f"has {MIN_PROSE} or more: labels, not prose")  # fmt: skip
    if not (found.abstract or found.sections or found.bibliography):
        problems.append("no abstract, no section heading, no reference list")
    return "; ".join(problems) or None
