r"""Macro redundancy as the release computes it (``Structure/macro_redund``, v4).

Units are the prose sentences of the abstract (the first ``abstract``
environment) and of the body's top-level sections, statement sections left out
(titles matching `_STATEMENT`), headings (of any level, and ``\paragraph``
titles) dropped, in source order. A sentence of at least eight tokens is
recycled when at least half of its tokens lie in 8-grams (lower-cased, none
holding a sentinel) whose first occurrence is an earlier sentence of another
section; the abstract counts as a section.
"""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass

from slopmark.paper.measures.base import Instance, MeasureResult
from slopmark.paper.reference.expand import RefSource
from slopmark.paper.reference.paper import RefPaper, clean_title
from slopmark.paper.reference.prose import SENTINELS, prose_view, sentences, shown_text, tokens

NAME = "macro_redundancy"
GRAM = 8
MIN_TOKENS = 8
SHARE = 0.5
_STATEMENT = re.compile(
    r"ethic|impact statement|broader impact|societal|reproducibility statement|checklist"
    r"|acknowledg",
    re.I,
)
_SUMMARY = re.compile(r"conclu|concluding|\bsummary\b|closing remarks|final remarks", re.I)
_RUN_IN = re.compile(
    r"\\(?:paragraph|subparagraph)\*?\s*(?:\[[^\]]*\])?\{((?:[^{}]|\{[^{}]*\})*)\}"
)


@dataclass(frozen=True)
class Unit:
    text: str
    start: int
    shown: int
    #: The top-level section index, or -1 for the abstract.
    section: int
    title: str
    words: tuple[str, ...]


def _heading_key(title: str) -> str:
    return clean_title(title).lower().rstrip(". ")


def _is_statement(title: str, role: str) -> bool:
    return role != "Abstract" and not _SUMMARY.search(title) and bool(_STATEMENT.search(title))


def units(paper: RefPaper) -> list[Unit]:
    """The release's unit sentences, in source order."""
    headings = {_heading_key(s.title) for s in paper.sections}
    headings |= {_heading_key(m.group(1)) for m in _RUN_IN.finditer(paper.tex)}
    headings.discard("")
    found = _abstract_units(paper)
    for section in paper.body():
        if _is_statement(section.title, section.role):
            continue
        view = prose_view(paper.tex[section.content : section.end], section.content)
        found += [
            _unit(s.text, s.start, s.shown, section.idx, section.title)
            for s in sentences(view)
            if s.text.lower().rstrip(". ") not in headings
        ]
    return sorted(found, key=lambda unit: unit.start)


def _abstract_units(paper: RefPaper) -> list[Unit]:
    """The abstract's sentences (the first abstract environment, preamble included)."""
    if not paper.abstract.strip():
        return []
    begin = paper.tex.find("\\begin{abstract}")
    base = begin + len("\\begin{abstract}") if begin >= 0 else 0
    view = prose_view(paper.abstract, base)
    return [_unit(s.text, s.start, s.shown, -1, "Abstract") for s in sentences(view)]


def _unit(text: str, start: int, shown: int, section: int, title: str) -> Unit:
    return Unit(text, start, shown, section, title, tuple(t.lower() for t in tokens(text)))


def _grams(words: tuple[str, ...]) -> list[tuple[str, ...]]:
    return [words[i : i + GRAM] for i in range(len(words) - GRAM + 1)]


def _first_homes(found: list[Unit]) -> dict[tuple[str, ...], int]:
    first: dict[tuple[str, ...], int] = {}
    for index, unit in enumerate(found):
        for gram in _grams(unit.words):
            if SENTINELS.isdisjoint(gram):
                first.setdefault(gram, index)
    return first


def _covered(index: int, found: list[Unit], first: dict[tuple[str, ...], int]) -> tuple[int, int]:
    """(covered tokens, the unit most of them were first seen in) of unit ``index``."""
    unit = found[index]
    covered: set[int] = set()
    sources: Counter[int] = Counter()
    for i, gram in enumerate(_grams(unit.words)):
        home = first.get(gram) if SENTINELS.isdisjoint(gram) else None
        if home is not None and home < index and found[home].section != unit.section:
            covered.update(range(i, i + GRAM))
            sources[home] += 1
    return len(covered), (sources.most_common(1)[0][0] if sources else -1)


def macro_redundancy(source: RefSource, paper: RefPaper) -> MeasureResult:
    found = units(paper)
    first = _first_homes(found)
    eligible = 0
    instances: list[Instance] = []
    for index, unit in enumerate(found):
        if len(unit.words) < MIN_TOKENS:
            continue
        eligible += 1
        covered, origin = _covered(index, found, first)
        if covered / len(unit.words) >= SHARE:
            instances.append(_instance(source, unit, found[origin].title))
    return MeasureResult.of(
        NAME, "STRUCTURE", len(instances), eligible, "sentences", instances=tuple(instances),
        detail={"profile": "reference", "sentences": len(found)},
    )  # fmt: skip


def _instance(source: RefSource, unit: Unit, first_seen: str) -> Instance:
    return Instance(NAME, source.span(unit.shown), unit.title, shown_text(unit.text),
                    f"say it once; point back to {first_seen} instead")  # fmt: skip
