"""Macro redundancy (STRUCTURE): sentences that restate what an earlier section said.

Definition ("Science or Slop?", Appendix A, Eq. 2). Over the prose view of the
abstract and the body sections, for a sentence u of at least eight tokens, with
C(u) the tokens of u that lie in an 8-gram first seen in an earlier sentence of
a different section,

    h(u) = 1[ |C(u)| / |u| >= 0.5 ]

and the score is the share of such sentences with h(u) = 1 (Eq. 1).

Choices made here, so that the count is reproducible:

- Tokens, as in the authors' release: a letter followed by letters, hyphens and
  apostrophes (``state-of-the-art`` and ``model's`` are one token each), or a
  number with its decimal part (``0.5``); lower-cased; other punctuation
  dropped. Letters are Unicode letters (the release reads ASCII only). The
  prose view's sentinels (``zzmath``, ``zzcite``, ``zzref``) are tokens, but an
  8-gram holding one never counts: a shared skeleton of placeholders is not
  repeated text (the release skips them too).
- A "section" is the top-level section a sentence belongs to (a subsection
  belongs to its section); the abstract is a section of its own.
- Units are the sentences of the abstract and of body sections, minus
  statement sections: sections whose role is ``statement`` or
  ``acknowledgements``, or whose own heading names ethics, broader impact,
  reproducibility, a checklist, limitations or acknowledgements. Headings are
  not sentences of the prose view.
- Each 8-gram remembers the first unit sentence it occurred in; only those
  sentences feed the memory, so statement sections neither flag nor get flagged.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from slopmark.paper.document import (
    CITE_TOKEN,
    MATH_TOKEN,
    REF_TOKEN,
    Document,
    Section,
    Sentence,
)
from slopmark.paper.measures.base import (
    DeclaredMeasure,
    Instance,
    MeasureResult,
    heading,
    register,
    shown,
)

if TYPE_CHECKING:
    from slopmark.paper.models import ModelSet

NAME = "macro_redundancy"
#: n of the n-grams, minimum tokens of a unit sentence, and the recycled share.
GRAM = 8
MIN_TOKENS = 8
THRESHOLD = 0.5

_WORD = re.compile(r"[^\W\d_](?:[^\W\d_]|[-'])*|\d+(?:\.\d+)?")
_SENTINELS = frozenset({MATH_TOKEN, CITE_TOKEN, REF_TOKEN})
_STATEMENT_TITLE = re.compile(
    r"\b(?:ethic|broader\s+impact|societal\s+impact|impact\s+statement|reproducibility"
    r"|checklist|acknowledg|limitations?\s+statement|funding|author\s+contribution)",
    re.IGNORECASE,
)
_STATEMENT_ROLES = {"statement", "acknowledgements"}


def tokens(text: str) -> tuple[str, ...]:
    """The lowercased words and numbers of ``text`` (sentinels included)."""
    return tuple(_WORD.findall(text.lower()))


@dataclass(frozen=True)
class Recycled:
    """A unit sentence judged recycled: its position among the units and its covered share."""

    unit: int
    covered: int
    length: int
    #: The section each covered 8-gram was first seen in, most frequent first.
    sources: tuple[int, ...]


def recycled_units(units: Sequence[tuple[tuple[str, ...], int]]) -> tuple[Recycled, ...]:
    """Apply Eq. 2 to ``(tokens, section)`` pairs given in reading order.

    Every pair feeds the 8-gram memory; callers pass only unit sentences (of
    any length) so that short sentences can still be the first home of a phrase.
    """
    first_seen: dict[tuple[str, ...], int] = {}
    found: list[Recycled] = []
    for position, (words, section) in enumerate(units):
        grams = list(zip(*(words[i:] for i in range(GRAM)), strict=False))
        plain = [_SENTINELS.isdisjoint(gram) for gram in grams]
        if len(words) >= MIN_TOKENS:
            homes = [
                first_seen.get(g, section) if p else section
                for g, p in zip(grams, plain, strict=True)
            ]
            found += _judge(position, len(words), homes, section)
        for gram, counted in zip(grams, plain, strict=True):
            if counted:
                first_seen.setdefault(gram, section)
    return tuple(found)


def _judge(position: int, length: int, homes: list[int], section: int) -> list[Recycled]:
    """``homes[i]``: where the 8-gram at token i was first seen (``section`` if nowhere)."""
    covered = reach = 0
    sources: Counter[int] = Counter()
    for start, home in enumerate(homes):
        if home != section:
            covered += start + GRAM - max(start, reach)
            reach = start + GRAM
            sources[home] += 1
    if covered / length < THRESHOLD:
        return []
    return [Recycled(position, covered, length, tuple(s for s, _ in sources.most_common()))]


def is_statement(section: Section) -> bool:
    """Ethics, broader impact, reproducibility, checklist or acknowledgements sections."""
    return section.role in _STATEMENT_ROLES or bool(_STATEMENT_TITLE.search(section.title))


def unit_sentences(document: Document) -> tuple[Sentence, ...]:
    """The prose sentences of the abstract and the body, statement sections left out."""
    read = {s.index for s in document.sections if _read(document, s)}
    return tuple(s for s in document.sentences if s.section in read)


def _read(document: Document, section: Section) -> bool:
    top = document.section(section.top)
    if section.role == "abstract" or top.role == "abstract":
        return True
    return section.in_body and not (is_statement(section) or is_statement(top))


@register(NAME)
class MacroRedundancy(DeclaredMeasure):
    """Macro redundancy, Eq. 2 of "Science or Slop?" (Appendix A).

    h(u) = 1[|C(u)| / |u| >= 0.5] for each prose sentence u (>= 8 tokens) of the
    abstract and body sections, C(u) being the tokens of u inside 8-grams first
    seen in an earlier sentence of a different section; score = mean h(u).
    """

    plane = "STRUCTURE"
    summary = "sentences whose 8-grams mostly repeat an earlier section (Eq. 2)"

    def measure(self, document: Document, models: ModelSet | None = None) -> MeasureResult:
        sentences = unit_sentences(document)
        pairs = [(tokens(s.text), document.section(s.section).top) for s in sentences]
        found = recycled_units(pairs)
        units = sum(len(words) >= MIN_TOKENS for words, _ in pairs)
        instances = tuple(_instance(document, sentences[r.unit], r) for r in found)
        return MeasureResult.of(
            NAME, self.plane, len(found), units, "sentences", instances=instances,
            detail={
                "short_sentences": len(pairs) - units,
                "recycled": [_detail(document, sentences[r.unit], r) for r in found],
            },
        )  # fmt: skip


def _instance(document: Document, sentence: Sentence, found: Recycled) -> Instance:
    first = heading(document.section(found.sources[0]))
    return Instance(
        measure=NAME,
        at=sentence.at,
        section=heading(document.section(document.section(sentence.section).top)),
        text=shown(document, sentence),
        repair=f"say it once; point back to {first} instead",
    )


def _detail(document: Document, sentence: Sentence, found: Recycled) -> dict[str, object]:
    return {
        "line": sentence.at.line,
        "file": sentence.at.file,
        "covered": found.covered,
        "tokens": found.length,
        "first_seen_in": _headings(document, found.sources),
    }


def _headings(document: Document, indices: Iterable[int]) -> list[str]:
    return [heading(document.section(i)) for i in indices]


def macro_redundancy(document: Document) -> MeasureResult:
    """The measure on an already parsed paper (the `MacroRedundancy` entry point)."""
    return MacroRedundancy().measure(document)
