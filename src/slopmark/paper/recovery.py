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

`is_paper` refuses what is not a paper at all (a receipt, a letter, a poster):
no section heading, no reference list and fewer than `MIN_WORDS` words.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass
from typing import Any

from slopmark.paper.document import Document
from slopmark.plurals import count

MIN_SECTIONS = 3
MIN_WORDS = 400
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

    def as_dict(self) -> dict[str, Any]:
        return asdict(self)


def recovery(document: Document) -> Recovery:
    """What the document holds of a paper's structure (sections: titled body sections)."""
    words = sum(len(sentence.text.split()) for sentence in document.sentences)
    headed = [s for s in document.body_sections() if s.title]
    return Recovery(
        len(headed), len(document.floats), len(document.bibliography),
        len(document.citations), len(document.references), words,
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


def is_paper(found: Recovery) -> bool:
    """False for a PDF with no section heading, no reference list and few words."""
    return found.sections > 0 or found.bibliography > 0 or found.words >= MIN_WORDS
