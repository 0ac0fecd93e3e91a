"""Pointers between the parts of a paper: "Table 2", "§3", "\\ref{eq:loss}", "the next section".

A *printed pointer* names an object by kind and printed number: ``Section 4``,
``Sec. 3.2``, ``§3``, ``Fig. 3``, ``Tables 2 and 3``, ``Eq. (2)``,
``Algorithm 1``, ``Lemma 2``, ``Appendix B``. Keywords match in any case;
numbers are digits with dotted parts (``3.2``), optionally led by a capital
(``A.1``, ``S2``), or a bare capital after section and appendix keywords
(``Section A``); equation numbers may sit in parentheses. Lists (``,``,
``and``, ``or``, ``&``) give one pointer per number, and integer ranges
(``Sections 3-5``, ``3 to 5``) are expanded up to 20 items. ``\\S`` in the
LaTeX source reads as ``§``.

A *named pointer* names a section by position (``the previous section``,
``the following section`` → ``previous`` / ``next``), by a phrase before
``section`` (``the related work section`` → ``related work``), or points at the
appendix (``the appendix``, ``the supplementary material`` → ``appendix``).

What can be pointed at are the *declared objects* (`declared_objects`): the
top-level body sections and the figures, tables, equations, algorithms and
theorems labelled in them. A `Resolver` turns reference commands, printed and
named pointers into those objects, or marks them as pointing into the appendix.
"""

from __future__ import annotations

import re
import string
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Literal

from slopmark.paper.document import (
    Document,
    Float,
    LabelKind,
    Reference,
    Role,
    Section,
    Sentence,
    Span,
)
from slopmark.paper.measures.base import shown_caption
from slopmark.paper.measures.printed import PRINTED_NAME, float_ordinals

PointerKind = Literal["section", "figure", "table", "equation", "algorithm", "theorem", "appendix"]

_KEYWORDS: dict[PointerKind, str] = {
    "section": r"sections?|secs?\.|sects?\.|§§?|chapters?",
    "appendix": r"appendix|appendices|apps?\.",
    "figure": r"figures?|figs?\.",
    "table": r"tables?|tabs?\.",
    "equation": r"equations?|eqs?\.|eqns?\.",
    "algorithm": r"algorithms?|algs?\.",
    "theorem": (
        r"theorems?|thms?\.|lemmas?|lemmata|propositions?|props?\.|corollary|corollaries"
        r"|cor\.|definitions?|defs?\."
    ),
}
_KIND_OF_GROUP = {f"k{i}": kind for i, kind in enumerate(_KEYWORDS)}
_KEYWORD = "|".join(f"(?P<k{i}>{words})" for i, words in enumerate(_KEYWORDS.values()))
_NUMBER = r"(?:[A-Z]?\d+(?:\.\d+)*|[A-Z](?:\.\d+)+)"
_ITEM = rf"\(?{_NUMBER}\)?"
_SEPARATOR = r"(?:\s*,\s*(?:and\s+|or\s+)?|\s+(?:and|or|to)\s+|\s*(?:&|--?|–|—)\s*)"
_PRINTED = re.compile(
    rf"(?<![\w\\])(?i:{_KEYWORD})[\s~]*"
    rf"(?P<numbers>{_ITEM}(?:{_SEPARATOR}{_ITEM})*|[A-Z]\b)"
)
_NUMBER_OR_RANGE = re.compile(rf"(?P<number>{_NUMBER}|[A-Z]\b)|(?P<range>--?|–|—|\bto\b)")
_LATEX_SECTION_SIGN = re.compile(r"\\S(?![A-Za-z])\s*~?\s*")
_MAX_RANGE = 20
_DIGIT_OR_SIGN = re.compile(r"[\d§]")
_WORD = re.compile(r"[^\W_]+")
#: Lowercases ASCII letters only, so positions in the lowered text match the original.
_ASCII_LOWER = str.maketrans(string.ascii_uppercase, string.ascii_lowercase)
#: Where a printed pointer can start, in the lowered text (a fast scan before `_PRINTED`).
_KEYWORD_START = re.compile(
    r"(?<![\w\\])(?:sec|chap|app|fig|tab|eq|alg|thm|theor|lem|prop|cor|def)|§"
)

#: Starts with the literal "the" (fast to search), its word boundary checked behind it.
_NAMED = re.compile(
    r"the(?<=\bthe)\s+(?:"
    r"(?P<word>previous|preceding|prior|last|next|following|subsequent)\s+sections?\b"
    r"|sections?\s+(?P<after>above|below)\b"
    r"|(?P<appendix>appendix|appendices|supplementary\s+(?:materials?|information)|supplement)\b"
    r"|(?P<phrase>(?:[a-z]+\s+){0,2}?[a-z]+)\s+sections?\b(?![\s~]*(?:[0-9(]|[a-z]\b)))"
)
_NAMED_WORDS = ("section", "appendi", "supplement")
#: "the method and Section 3": a phrase holding these is no section name.
_FUNCTION_WORDS = {"and", "or", "of", "in", "on", "to", "for", "with", "from", "by", "as", "at"}
_PREVIOUS = {"previous", "preceding", "prior", "last", "above"}
#: "the appendix B": a printed pointer, not a named one.
_NUMBER_AFTER = re.compile(r"\s*[A-Z0-9]")


@dataclass(frozen=True)
class PrintedPointer:
    """``Table 2`` → kind ``table``, number ``2``; ``text`` is the whole match as written."""

    kind: PointerKind
    number: str
    text: str


@dataclass(frozen=True)
class NamedPointer:
    """``previous`` / ``next`` / ``appendix``, or the phrase of "the <phrase> section"."""

    name: str
    text: str


def printed_pointers(text: str) -> tuple[PrintedPointer, ...]:
    """Every printed pointer in ``text`` (prose or LaTeX), one per number, in order."""
    if not _may_print(text):
        return ()
    if "\\S" in text:
        text = _LATEX_SECTION_SIGN.sub("§", text)
    found: list[PrintedPointer] = []
    end = 0
    for start in _KEYWORD_START.finditer(_lowered(text)):
        match = _PRINTED.match(text, start.start()) if start.start() >= end else None
        if match:
            found += _read_printed(match)
            end = match.end()
    return tuple(found)


def _may_print(text: str) -> bool:
    """A cheap exact pre-check: every printed pointer holds a digit, a § or a section word."""
    if _DIGIT_OR_SIGN.search(text):
        return True
    lowered = text.lower()
    return any(stem in lowered for stem in ("sec", "chap", "app", "\\s"))


def _lowered(text: str) -> str:
    """``text`` in lowercase, position for position."""
    lowered = text.lower()
    return lowered if len(lowered) == len(text) else text.translate(_ASCII_LOWER)


def _read_printed(match: re.Match[str]) -> list[PrintedPointer]:
    kind = next(kind for group, kind in _KIND_OF_GROUP.items() if match.group(group))
    numbers = match.group("numbers")
    if kind not in ("section", "appendix") and numbers.isalpha():
        return []
    return [PrintedPointer(kind, n, match.group(0)) for n in _numbers(numbers)]


def _numbers(listed: str) -> list[str]:
    """``"2, 3 and 5"`` → 2, 3, 5; ``"(3)-(5)"`` → 3, 4, 5 (integer ranges only)."""
    numbers: list[str] = []
    pending_range = False
    for token in _NUMBER_OR_RANGE.finditer(listed):
        if token.group("range"):
            pending_range = bool(numbers)
            continue
        number = token.group("number")
        if pending_range:
            numbers.extend(_range_between(numbers[-1], number))
        numbers.append(number)
        pending_range = False
    return numbers


def _range_between(first: str, last: str) -> list[str]:
    """The integers strictly between ``first`` and ``last`` (empty unless both are integers)."""
    if not (first.isdigit() and last.isdigit()) or int(last) - int(first) > _MAX_RANGE:
        return []
    return [str(n) for n in range(int(first) + 1, int(last))]


def named_pointers(text: str) -> tuple[NamedPointer, ...]:
    """Position, phrase and appendix pointers in ``text``, in order of appearance."""
    lowered = _lowered(text)
    if not any(word in lowered for word in _NAMED_WORDS):
        return ()
    found = (_read_named(match, text) for match in _NAMED.finditer(lowered))
    return tuple(pointer for pointer in found if pointer is not None)


def _read_named(match: re.Match[str], text: str) -> NamedPointer | None:
    written = text[match.start() : match.end()]
    word = match.group("word") or match.group("after")
    if word:
        return NamedPointer("previous" if word in _PREVIOUS else "next", written)
    if match.group("appendix"):
        printed = _NUMBER_AFTER.match(text, match.end())
        return None if printed else NamedPointer("appendix", written)
    words = match.group("phrase").split()
    if _FUNCTION_WORDS.intersection(words):
        return None
    return NamedPointer(" ".join(words), written)


# --- What can be pointed at ---------------------------------------------------------------

#: Label kinds that make a declared object (sections are objects by themselves).
OBJECT_KINDS: tuple[LabelKind, ...] = ("figure", "table", "equation", "algorithm", "theorem")
#: Body sections that are not objects (nobody is expected to point at them).
_NOT_OBJECT_ROLES = {"abstract", "statement", "acknowledgements", "references", "appendix"}
_DESCRIPTION_CHARS = 80
#: Dropped from an environment's source when it describes the object: its wrapper and labels.
_BOOKKEEPING = re.compile(
    r"\\(?:begin|end)\s*\{[^{}]*\}|\\label\s*\{[^{}]*\}|\\(?:nonumber|notag)\b"
)
#: The target of a pointer into the appendix.
APPENDIX = "@appendix"


@dataclass(frozen=True)
class DeclaredObject:
    """A body section, or a labelled figure/table/equation/algorithm/theorem in one."""

    #: ``section:<index>`` for a section, else the object's first label key.
    id: str
    kind: str
    #: As printed: "Section 4", "Table 2", "Equation (3)" (the label key when unnumbered).
    name: str
    #: Index of the top-level section holding it (a section object is its own home).
    home: int
    at: Span
    #: The heading, or the start of the caption or environment.
    description: str
    keys: tuple[str, ...] = ()
    number: str | None = None


def section_objects(document: Document) -> tuple[Section, ...]:
    """The top-level body sections that are objects, in reading order."""
    return tuple(s for s in document.body_sections() if s.role not in _NOT_OBJECT_ROLES)


def declared_objects(document: Document) -> tuple[DeclaredObject, ...]:
    """Section objects and the objects labelled in them, in reading order."""
    sections = section_objects(document)
    found = [_section_object(s) for s in sections]
    found += _labelled_objects(document, {s.index for s in sections})
    return tuple(sorted(found, key=lambda o: (o.home, o.kind != "section")))


def _section_object(section: Section) -> DeclaredObject:
    name = PRINTED_NAME["section"].format(section.number) if section.number else section.title
    return DeclaredObject(
        f"section:{section.index}", "section", name, section.index, section.at, section.title,
        number=section.number,
    )  # fmt: skip


def _labelled_objects(document: Document, homes: set[int]) -> list[DeclaredObject]:
    floats = {key: f for f in document.floats for key in f.labels}
    ordinals = float_ordinals(document.floats)
    seen: set[str] = set()
    found: list[DeclaredObject] = []
    for label in document.labels:
        home = document.section(label.section).top
        if label.kind not in OBJECT_KINDS or label.key in seen or home not in homes:
            continue
        held = floats.get(label.key)
        keys = held.labels if held else (label.key,)
        seen.update(keys)
        number = label.number or (ordinals[id(held)] if held else None)
        found.append(DeclaredObject(
            label.key, label.kind, PRINTED_NAME[label.kind].format(number or label.key), home,
            label.at, _describe(document, label.key, held), keys, number,
        ))  # fmt: skip
    return found


def _describe(document: Document, key: str, held: Float | None) -> str:
    if held is not None:
        return _shorten(shown_caption(document, held))
    marker = f"\\label{{{key}}}"
    source = next((e.source for e in document.environments if marker in e.source), "")
    return _shorten(_BOOKKEEPING.sub(" ", source))


def _shorten(text: str) -> str:
    text = " ".join(text.split())
    if len(text) <= _DESCRIPTION_CHARS:
        return text
    return text[:_DESCRIPTION_CHARS].rsplit(" ", 1)[0] + " …"


# --- Resolving pointers ---------------------------------------------------------------------

_GENERIC_WORDS = {
    "same", "this", "that", "each", "every", "current", "present", "whole", "entire", "first",
    "second", "third", "final", "other", "corresponding", "respective", "a", "an", "one", "two",
    "three", "new", "main", "above", "below",
}  # fmt: skip
_ROLE_WORDS: dict[str, Role] = {
    "introduction": "introduction", "intro": "introduction", "related work": "related_work",
    "prior work": "related_work", "related": "related_work", "method": "method",
    "methods": "method", "methodology": "method", "approach": "method", "model": "method",
    "experiments": "experiments", "experiment": "experiments", "experimental": "experiments",
    "evaluation": "experiments", "results": "experiments", "experimental results": "experiments",
    "conclusion": "conclusion", "conclusions": "conclusion",
}  # fmt: skip


@dataclass(frozen=True)
class Pointer:
    """One pointer written in section ``source`` (a top-level index), resolved."""

    source: int
    at: Span
    #: The id of the object pointed at; None when unresolved or into the appendix.
    target: str | None
    appendix: bool
    text: str


@dataclass(frozen=True)
class Resolver:
    """Turns reference commands, printed and named pointers into declared objects."""

    document: Document
    #: Section objects' indices, in reading order.
    order: tuple[int, ...]
    by_key: dict[str, str]
    by_number: dict[tuple[str, str], str]
    #: Each section object's heading words, stemmed (for "the <phrase> section").
    titles: tuple[tuple[int, frozenset[str]], ...]

    @classmethod
    def of(cls, document: Document, objects: Iterable[DeclaredObject]) -> Resolver:
        objects = tuple(objects)
        order = tuple(o.home for o in objects if o.kind == "section")
        by_key = _key_targets(document, objects, set(order))
        by_number = _number_targets(document, objects, set(order))
        titles = tuple((i, _stems(document.section(i).title)) for i in order)
        return cls(document, order, by_key, by_number, titles)

    def counts_as_source(self, section: int) -> bool:
        """Pointers written in this section (or its top-level section) can count."""
        return self.document.section(section).top in self.order

    def introduction(self) -> int | None:
        """The section with role introduction, else the first section object."""
        roles = [i for i in self.order if self.document.section(i).role == "introduction"]
        candidates = roles or list(self.order)
        return candidates[0] if candidates else None

    def points_forward(self, pointer: Pointer, intro: int) -> bool:
        """Into the appendix, or to a section object after ``intro``."""
        target = pointer.target or ""
        return pointer.appendix or (target.startswith("section:") and int(target[8:]) > intro)

    def sentence_pointers(self, sentence: Sentence) -> tuple[Pointer, ...]:
        """The commands, printed and named pointers of one prose sentence."""
        source = self.document.section(sentence.section).top
        found = [self._command(source, ref, key) for ref in sentence.references for key in ref.keys]
        printed = list(printed_pointers(sentence.text))
        if "\\S" in sentence.source:
            printed += [p for p in printed_pointers(sentence.source) if p.text.startswith("§")]
        found += [self._pointer(source, sentence.at, self._printed(p), p.text) for p in printed]
        found += self._named_all(source, sentence.at, sentence.text)
        return tuple(found)

    def outside_sentences(self) -> list[Pointer]:
        """Reference commands outside the prose (captions, ...) and pointers in captions."""
        in_prose = {ref for s in self.document.sentences for ref in s.references}
        found = [
            self._command(self.document.section(ref.section).top, ref, key)
            for ref in self.document.references
            if ref not in in_prose and self.counts_as_source(ref.section)
            for key in ref.keys
        ]
        for held in self.document.floats:
            if self.counts_as_source(held.section):
                top = self.document.section(held.section).top
                found += [
                    self._pointer(top, held.at, self._printed(p), p.text)
                    for p in printed_pointers(held.caption)
                ]
                found += self._named_all(top, held.at, held.caption)
        return found

    def _command(self, source: int, ref: Reference, key: str) -> Pointer:
        return self._pointer(source, ref.at, self.by_key.get(key), f"\\{ref.command}{{{key}}}")

    def _named_all(self, source: int, at: Span, text: str) -> list[Pointer]:
        return [
            self._pointer(source, at, self._named(p.name, source), p.text)
            for p in named_pointers(text)
        ]

    def _pointer(self, source: int, at: Span, target: str | None, text: str) -> Pointer:
        if target == APPENDIX:
            return Pointer(source, at, None, True, text)
        return Pointer(source, at, target, False, text)

    def _printed(self, pointer: PrintedPointer) -> str | None:
        if pointer.kind == "appendix":
            return APPENDIX
        target = self.by_number.get((pointer.kind, pointer.number))
        if target is None and pointer.kind == "section":
            top_number = pointer.number.split(".")[0]
            fallback = APPENDIX if top_number.isalpha() else None
            return self.by_number.get(("section", top_number), fallback)
        return target

    def _named(self, name: str, source: int) -> str | None:
        if name == "appendix":
            return APPENDIX
        if name in ("previous", "next"):
            return self._neighbour(source, -1 if name == "previous" else 1)
        found = self._by_heading(name) or self._by_role(name)
        return f"section:{found}" if found is not None else None

    def _neighbour(self, source: int, step: int) -> str | None:
        if source not in self.order:
            return None
        position = self.order.index(source) + step
        return f"section:{self.order[position]}" if 0 <= position < len(self.order) else None

    def _by_heading(self, phrase: str) -> int | None:
        words = _stems(" ".join(w for w in phrase.split() if w not in _GENERIC_WORDS))
        return next((i for i, title in self.titles if words and words <= title), None)

    def _by_role(self, phrase: str) -> int | None:
        role = _ROLE_WORDS.get(phrase) or _ROLE_WORDS.get(phrase.split()[-1])
        roles = [i for i in self.order if role and self.document.section(i).role == role]
        return roles[0] if roles else None


def _key_targets(
    document: Document, objects: Sequence[DeclaredObject], homes: set[int]
) -> dict[str, str]:
    """Label key → object id (or `APPENDIX`); a section label names its top-level section."""
    targets = {key: o.id for o in objects for key in o.keys}
    for label in document.labels:
        section = document.section(label.section)
        if section.in_appendix:
            targets.setdefault(label.key, APPENDIX)
        elif label.kind == "section" and section.top in homes:
            targets.setdefault(label.key, f"section:{section.top}")
    return targets


def _number_targets(
    document: Document, objects: Sequence[DeclaredObject], homes: set[int]
) -> dict[tuple[str, str], str]:
    """(kind, printed number) → object id (or `APPENDIX`); "3.2" names its top section."""
    targets = {(o.kind, o.number): o.id for o in objects if o.number}
    for label in document.labels:
        if label.number and document.section(label.section).in_appendix:
            targets.setdefault((label.kind, label.number), APPENDIX)
    for section in document.sections:
        target = _section_target(section, homes)
        if section.number and target:
            targets.setdefault(("section", section.number), target)
    return targets


def _section_target(section: Section, homes: set[int]) -> str | None:
    """What a pointer to ``section`` reaches: the appendix, its section object, or nothing."""
    if section.in_appendix:
        return APPENDIX
    return f"section:{section.top}" if section.top in homes else None


def _stems(text: str) -> frozenset[str]:
    return frozenset(map(_stem, _WORD.findall(text.lower())))


def _stem(word: str) -> str:
    """Plural and adjective endings off: "methods" → "method", "experimental" → "experiment"."""
    for ending in ("al", "s"):
        if word.endswith(ending) and len(word) > len(ending) + 3:
            return word[: -len(ending)]
    return word
