"""Citation isolation (plane ARGUMENT): prior work cited without saying how it relates to others.

Definition ("Science or Slop?", Section 3.1 and Appendix A, Eq. 6). The units
are the citing sentences (at least one citation command) of the introduction
and the related work of the body. A citing sentence ``u`` *weaves* when it

1. cites two or more works: two distinct keys, in one command or several;
2. names a second work outside a citation command: an author–year mention
   written in the text (``Smith et al.``, ``Smith and Jones (2020)``) that is
   not the cited work itself, or the name of another cited work (below); or
3. links two works by a cue from the frozen list of `cues` (contrast,
   extension, comparison), provided the sentence does not relate the work to
   the present paper ("unlike \\citet{x}, our method" does not weave);

and it is isolated otherwise::

    h(u) = 1[u does not weave]                                   (Eq. 6)
    s(p) = (1 / |U(p)|) * sum_u h(u)                             (Eq. 1)

Fewer than `WEAK_BELOW` citing sentences flags the score weak.

Names of cited works are learned conservatively from the paper itself: a
token with two capitals or a capital and a digit (``TabDDPM``, ``GPT-4``,
``(DDPM)``) written right before a one-key citation command, and the word
before the colon of a bibliography title (``Adam: A method ...``). A name
bound to two different works, or a generic family of models
(`cues.GENERIC_NAMES`), is not a name. A second work is named when one of
these names appears in a citing sentence that does not cite that work.
"""

from __future__ import annotations

import re
from collections import defaultdict
from collections.abc import Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Literal

from slopmark.paper.document import CITE_TOKEN, Document, Sentence
from slopmark.paper.measures.base import (
    DeclaredMeasure,
    Instance,
    MeasureResult,
    Plane,
    heading,
    register,
    shown,
)
from slopmark.paper.measures.cues import (
    GENERIC_NAMES,
    author_mentions,
    find_cue,
    mentions_present_paper,
)

if TYPE_CHECKING:
    from slopmark.paper.models import ModelSet

NAME = "citation_isolation"
PLANE: Plane = "ARGUMENT"
UNIT = "citing sentences"
#: Fewer citing sentences than this flags the score weak (Appendix A).
WEAK_BELOW = 8
SCOPE = ("introduction", "related_work")
REPAIR = "say how {work} relates to the other works it sits beside"

_TOKEN = re.compile(r"[A-Za-z][\w-]*[A-Za-z0-9]|[A-Z]")
_NAME_LIKE = re.compile(r"(?=(?:[^A-Z]*[A-Z]){2}|.*[A-Z].*\d|.*\d.*[A-Z])[A-Za-z][\w-]*")
_TITLE_FIELD = re.compile(r"\btitle\s*=\s*(.{1,300})", re.I | re.S)
_TITLE_NAME = re.compile(r"[\s\"]*([A-Z][\w-]*)\s*:")
_BOUND = re.compile(r"(?:\(([A-Za-z][\w-]*)\)|([A-Za-z][\w-]*))[\s(\[~,]*$")
_FOLLOWED_BY_CITE = re.compile(rf"^[\s.,;:'’s()\[\]~]*{CITE_TOKEN}\b")

WeaveKind = Literal["cites_two_works", "names_second_work", "cue"]


@dataclass(frozen=True)
class Weave:
    """Why a citing sentence weaves, with the words that show it."""

    kind: WeaveKind
    evidence: str


def citing_sentences(document: Document) -> tuple[Sentence, ...]:
    """Sentences with a citation command in the body's introduction and related work."""
    scope = {s.index for s in document.sections if s.role in SCOPE and s.in_body}
    return tuple(s for s in document.sentences_in(scope) if s.citations)


def cited_keys(sentence: Sentence) -> tuple[str, ...]:
    """The distinct keys a sentence cites, in order."""
    return tuple(dict.fromkeys(key for c in sentence.citations for key in c.keys))


def _bound_names(sentence: Sentence) -> list[tuple[str, str]]:
    """(name, key) for each name written right before a one-key citation command."""
    pieces = sentence.text.split(CITE_TOKEN)
    if len(pieces) - 1 != len(sentence.citations):
        return []
    bound = []
    for before, citation in zip(pieces, sentence.citations, strict=False):
        match = _BOUND.search(before)
        if match and len(set(citation.keys)) == 1:
            bound.append((match.group(1) or match.group(2), citation.keys[0]))
    return bound


def _title_name(entry: str) -> str | None:
    field = _TITLE_FIELD.search(entry)
    title = (field.group(1) if field else entry).replace("{", "").replace("}", "")
    match = _TITLE_NAME.match(title)
    return match.group(1) if match else None


def work_names(document: Document) -> dict[str, str]:
    """Names of cited works the paper itself makes known → the one key each names."""
    keys: dict[str, set[str]] = defaultdict(set)
    for sentence in document.sentences:
        for name, key in _bound_names(sentence):
            if _NAME_LIKE.fullmatch(name):
                keys[name].add(key)
    for key, entry in document.bibliography.items():
        if title := _title_name(entry):
            keys[title].add(key)
    return {n: next(iter(k)) for n, k in keys.items() if len(k) == 1 and n not in GENERIC_NAMES}


def _is_cited_author(surname: str, cited: tuple[str, ...], bibliography: Mapping[str, str]) -> bool:
    low = surname.lower()
    return any(low in key.lower() or low in bibliography.get(key, "").lower() for key in cited)


def _named_work(
    sentence: Sentence, names: Mapping[str, str], bibliography: Mapping[str, str]
) -> str | None:
    """A second work the sentence names outside its citation commands, or None."""
    cited = cited_keys(sentence)
    for surname, end in author_mentions(sentence.text):
        own = _FOLLOWED_BY_CITE.match(sentence.text[end:])
        if not own and not _is_cited_author(surname, cited, bibliography):
            return f"{surname} et al."
    for match in _TOKEN.finditer(sentence.text):
        key = names.get(match.group(0))
        if key is not None and key not in cited:
            return match.group(0)
    return None


def weave(
    sentence: Sentence, names: Mapping[str, str], bibliography: Mapping[str, str]
) -> Weave | None:
    """How the citing sentence relates its work to another work, or None when isolated."""
    cited = cited_keys(sentence)
    if len(cited) >= 2:
        return Weave("cites_two_works", ", ".join(cited))
    if named := _named_work(sentence, names, bibliography):
        return Weave("names_second_work", named)
    cue = find_cue(sentence.text)
    if cue and not mentions_present_paper(sentence.text):
        return Weave("cue", f"{cue[0]}: {cue[1]}")
    return None


def _instance(document: Document, sentence: Sentence) -> Instance:
    return Instance(
        measure=NAME,
        at=sentence.at,
        section=heading(document.section(sentence.section)),
        text=shown(document, sentence),
        repair=REPAIR.format(work=", ".join(cited_keys(sentence)) or "the cited work"),
    )


def _no_units_reason(document: Document) -> str:
    if not any(s.role in SCOPE and s.in_body for s in document.sections):
        return "no introduction or related-work section in the body"
    return "no citing sentences in the introduction or related work"


def citation_isolation(document: Document) -> MeasureResult:
    """Isolated / citing sentences of the introduction and related work (Eq. 6)."""
    units = citing_sentences(document)
    if not units:
        return MeasureResult.of(NAME, PLANE, 0, 0, UNIT, reason=_no_units_reason(document))
    names = work_names(document)
    woven: dict[str, int] = {"cites_two_works": 0, "names_second_work": 0, "cue": 0}
    isolated = []
    for sentence in units:
        found = weave(sentence, names, document.bibliography)
        if found:
            woven[found.kind] += 1
        else:
            isolated.append(_instance(document, sentence))
    weak = len(units) < WEAK_BELOW
    reason = f"only {len(units)} citing sentences (fewer than {WEAK_BELOW})" if weak else None
    detail = {"woven": woven, "work_names": sorted(names)}
    return MeasureResult.of(
        NAME, PLANE, len(isolated), len(units), UNIT,
        instances=tuple(isolated), weak=weak, reason=reason, detail=detail,
    )  # fmt: skip


@register(NAME)
class CitationIsolation(DeclaredMeasure):
    """Citation isolation as a registered measure (deterministic; see the module docstring)."""

    plane = PLANE
    summary = (
        "citing sentences of the introduction and related work that relate the cited "
        "work to no other work (Eq. 6)"
    )

    def measure(self, document: Document, models: ModelSet | None = None) -> MeasureResult:
        return citation_isolation(document)
