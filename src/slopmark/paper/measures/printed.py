"""The names a paper prints for its objects ("Section 4", "Table 2", "Equation (3)").

Findings name an object as a reader sees it in the PDF, never by its label key.
A label's number comes from the LaTeX route's numbering (`Label.number`); a
float whose label has no number takes its position among the floats of its
kind (LaTeX numbers figures, tables and algorithms in document order).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable

from slopmark.paper.document import Document, Float

PRINTED_NAME = {
    "section": "Section {}", "figure": "Figure {}", "table": "Table {}",
    "equation": "Equation ({})", "algorithm": "Algorithm {}", "theorem": "Theorem {}",
}  # fmt: skip


def float_ordinals(floats: Iterable[Float]) -> dict[int, str]:
    """Each float's number by order of its kind (keyed by ``id``), for labels whose
    number is unknown."""
    counts: Counter[str] = Counter()
    ordinals: dict[int, str] = {}
    for held in floats:
        counts[held.kind] += 1
        ordinals[id(held)] = str(counts[held.kind])
    return ordinals


def printed_names(document: Document) -> dict[str, str]:
    """Every object label's printed name, where its number is known."""
    ordinals = float_ordinals(document.floats)
    floats = {key: f for f in document.floats for key in f.labels}
    names = {}
    for label in document.labels:
        held = floats.get(label.key)
        number = label.number or (ordinals[id(held)] if held else None)
        if number and label.kind in PRINTED_NAME:
            names[label.key] = PRINTED_NAME[label.kind].format(number)
    return names
