r"""Cross-section references as the release computes them (``Structure/xsec_ref``, v3).

Objects: every top-level body section, and every label (first definition) whose
home is a body section. A label in a heading zone (right after a heading, at
most 120 characters later with no ``\begin`` or other label between, or right
before one with only white space between) names that heading: on a
``\section`` it is another name of the section object; on a subsection it is
an object of its own ("subsection"). Other labels are objects of their kind
("figure", "table", "equation", "algorithm", "theorem"; "other" for a stray
label). Each label inside a float is its own object.

Pointers: (K1) every command whose name holds "ref", each key of each braced
argument, the key taken as written (a wrapper like ``\figref{x}`` that adds
``fig:`` inside points at the undefined label ``x``); (K2) printed section
numbers (``Section 3``, ``Sec. 3.2`` → section 3, ``Appendix B``); (K3) "the
previous/next section" by position, "in the <name> section" by role word or
title words, "in the appendix". Only pointers from body sections count.

The roadmap: in the first body section, the pointers to later sections in
source order; the longest run whose targets strictly increase, if at least two
long, is set apart. An object is isolated when no other section points to it
outside the roadmap.
"""

from __future__ import annotations

import re
from collections import defaultdict
from dataclasses import dataclass

from slopmark.paper.measures.base import Instance, MeasureResult
from slopmark.paper.measures.cross_section_references import repair_text
from slopmark.paper.reference.expand import RefSource
from slopmark.paper.reference.paper import RefLabel, RefPaper, clean_title
from slopmark.paper.reference.prose import NOT_A_REF, REF_COMMAND, prose_view, sentences, tokens

NAME = "cross_section_references"
#: An object id: ("S", section index) or ("L", label key).
ObjectId = tuple[str, int | str]
Target = ObjectId | str | None

_HEADING = re.compile(r"\\(?:sub)*section\*?\s*(?:\[[^\]]*\])?\{(?:[^{}]|\{[^{}]*\})*\}")
_LABEL = re.compile(r"\\label\{([^}]+)\}")
_SUBS = re.compile(r"\\((?:sub)*)")
_NUMBER = r"([A-Z]?\d+(?:\.\d+)*|[A-Z])"
_PRINTED = re.compile(
    rf"\b(?:Sections?|Secs?\.|Appendices|Appendix|App\.|§)\s*~?\s*{_NUMBER}"
    rf"(?:\s*(?:,|and|&|-|–|to)\s*~?\s*{_NUMBER})?"
)
_BACKWARD = ("previous", "preceding", "prior", "last")
_DEICTIC = re.compile(
    r"\bthe\s+(previous|preceding|prior|last|next|following|subsequent)\s+(?:sub)?section\b", re.I
)
_NAMED = re.compile(
    r"\b(?:in|see|of|from|described in|discussed in|presented in|introduced in|defined in)\s+"
    r"(?:the\s+)?([A-Za-z][A-Za-z\- ]{2,40}?)\s+(?:sub)?section\b",
    re.I,
)
_APPENDIX_WORDS = re.compile(
    r"\b(?:in|see|to|defer\w*\s+to|provided in|reported in)\s+(?:the\s+)?appendix\b", re.I
)
_ROLE_WORDS = {
    "introduction": "Intro", "intro": "Intro", "related work": "Related", "background": "Related",
    "method": "Method", "methods": "Method", "methodology": "Method", "approach": "Method",
    "experiment": "Experiments", "experiments": "Experiments", "experimental": "Experiments",
    "results": "Experiments", "evaluation": "Experiments", "discussion": "Conclusion",
    "conclusion": "Conclusion", "conclusions": "Conclusion",
}  # fmt: skip
_STOP = (
    "the a an of and or to in on for with by is are was were be been being this that these "
    "those we our it its as at from than then thus which such can may also more most other "
    "each both same very using used use no not all any into over under between within across "
    "per via i e g"
)
STOP_WORDS = frozenset(_STOP.split())


@dataclass(frozen=True)
class RefObject:
    kind: str
    home: int
    title: str
    offset: int


@dataclass(frozen=True)
class Event:
    source: int
    offset: int
    target: Target


def _heading_level(command: str) -> int:
    """1 for ``\\section``, 2 for ``\\subsection``, 3 for ``\\subsubsection``."""
    prefix = _SUBS.match(command)
    return len(prefix.group(1)) // 3 + 1 if prefix else 1


def _alias_candidates(paper: RefPaper, heads: list[re.Match[str]], label: re.Match[str]
                      ) -> list[tuple[int, int, int]]:  # fmt: skip
    """(gap length, heading start, heading level) of the headings a label may belong to."""
    found: list[tuple[int, int, int]] = []
    before = [h for h in heads if h.end() <= label.start()]
    if before and _after_heading(paper.tex[before[-1].end() : label.start()]):
        gap = label.start() - before[-1].end()
        found.append((gap, before[-1].start(), _heading_level(before[-1].group(0))))
    after = [h for h in heads if h.start() >= label.end()]
    if after and not paper.tex[label.end() : after[0].start()].strip():
        gap = after[0].start() - label.end()
        found.append((gap, after[0].start(), _heading_level(after[0].group(0))))
    return found


def _after_heading(gap: str) -> bool:
    """A label this far after a heading still names it: ≤ 120 characters, no environment
    or other label between."""
    return "\\begin{" not in gap and "\\label{" not in gap and len(gap) <= 120


def heading_labels(paper: RefPaper) -> dict[str, tuple[int, int]]:
    """Label → (top-level section index, heading level) for labels in a heading zone."""
    heads = [m for m in _HEADING.finditer(paper.tex) if paper.start <= m.start() < paper.end]
    aliases: dict[str, tuple[int, int]] = {}
    for label in _LABEL.finditer(paper.tex):
        if not paper.start <= label.start() < paper.end:
            continue
        candidates = _alias_candidates(paper, heads, label)
        if not candidates:
            continue
        _, start, level = min(candidates)
        index = paper.top_of(start)
        if index is not None:
            aliases[label.group(1).strip()] = (index, level)
    return aliases


def objects(paper: RefPaper) -> tuple[dict[ObjectId, RefObject], dict[str, ObjectId]]:
    """The declared objects and the object each label names."""
    body = {s.idx for s in paper.body()}
    aliases = heading_labels(paper)
    found: dict[ObjectId, RefObject] = {
        ("S", s.idx): RefObject("section", s.idx, s.title, s.start) for s in paper.body()
    }
    named: dict[str, ObjectId] = {}
    for key, label in paper.labels.items():
        if label.section is not None and label.section in body:
            named[key] = _label_object(key, label, aliases.get(key), body, found)
    return found, named


def _label_object(key: str, label: RefLabel, alias: tuple[int, int] | None, body: set[int],
                  found: dict[ObjectId, RefObject]) -> ObjectId:  # fmt: skip
    """The object a body label names, adding it to ``found`` when it is one of its own."""
    if alias is not None and alias[0] in body and alias[1] == 1:
        return ("S", alias[0])
    kind = "subsection" if alias else ("other" if label.kind == "section" else label.kind)
    assert label.section is not None
    found[("L", key)] = RefObject(kind, label.section, key, label.offset)
    return ("L", key)


def _command_events(paper: RefPaper, named: dict[str, ObjectId]) -> list[Event]:
    body = {s.idx for s in paper.body()}
    events: list[Event] = []
    for match in REF_COMMAND.finditer(paper.tex):
        source = _command_source(paper, match, body)
        if source is None:
            continue
        for argument in re.findall(r"\{([^{}]*)\}", match.group(2)):
            for key in filter(None, (k.strip() for k in argument.split(","))):
                events.append(Event(source, match.start(), _label_target(paper, key, named, body)))
    return events


def _command_source(paper: RefPaper, match: re.Match[str], body: set[int]) -> int | None:
    """The body section a reference command sits in (None: not counted)."""
    if not paper.start <= match.start() < paper.end or NOT_A_REF.search(match.group(1)):
        return None
    if paper.appendix is not None and match.start() >= paper.appendix:
        return None
    source = paper.top_of(match.start())
    return source if source in body else None


def _label_target(paper: RefPaper, key: str, named: dict[str, ObjectId], body: set[int]
                  ) -> Target:  # fmt: skip
    label = paper.labels.get(key)
    if label is None:
        return None
    into_appendix = paper.appendix is not None and label.offset >= paper.appendix
    if into_appendix or (label.section is not None and label.section not in body):
        return "appendix"
    return named.get(key)


def section_numbers(paper: RefPaper) -> dict[str, int]:
    """Printed number → top-level section: 1, 2, ... in the body, A, B, ... after it."""
    numbers: dict[str, int] = {}
    count, letter = 0, ord("A")
    for section in paper.tops:
        if paper.tex.startswith("\\section*", section.start):
            continue
        if section.in_appendix or section.role == "Appendix":
            numbers[chr(letter)] = section.idx
            letter += 1
        else:
            count += 1
            numbers[str(count)] = section.idx
    return numbers


def _content_words(text: str) -> set[str]:
    return {t.lower() for t in tokens(text) if t.lower() not in STOP_WORDS and len(t) > 2}


@dataclass(frozen=True)
class _Names:
    numbers: dict[str, int]
    order: list[int]
    titles: dict[int, set[str]]
    by_role: dict[str, int]

    @classmethod
    def of(cls, paper: RefPaper) -> _Names:
        roles: dict[str, list[int]] = defaultdict(list)
        for section in paper.body():
            roles[section.role].append(section.idx)
        titles = {s.idx: _content_words(clean_title(s.title)) for s in paper.body()}
        by_role = {role: idx[0] for role, idx in roles.items() if len(idx) == 1}
        return cls(section_numbers(paper), [s.idx for s in paper.body()], titles, by_role)

    def printed(self, number: str, body: set[int]) -> Target:
        index = self.numbers.get(number.split(".")[0])
        if index is None:
            return None
        return ("S", index) if index in body else "appendix"

    def deictic(self, word: str, source: int) -> Target:
        step = -1 if word.lower() in _BACKWARD else 1
        pos = self.order.index(source) + step if source in self.order else -1
        return ("S", self.order[pos]) if 0 <= pos < len(self.order) else None

    def by_name(self, name: str) -> Target:
        index = self.by_role.get(_ROLE_WORDS.get(name, ""))
        if index is None:
            words = _content_words(name)
            hits = [i for i, title in self.titles.items() if words and words <= title]
            index = hits[0] if len(hits) == 1 else None
        return None if index is None else ("S", index)


def _text_events(paper: RefPaper) -> list[Event]:
    body = {s.idx for s in paper.body()}
    names = _Names.of(paper)
    view = prose_view(paper.tex[paper.start : paper.body_end()], paper.start)
    events: list[Event] = []
    for sentence in sentences(view):
        source = paper.top_of(sentence.start)
        if source is not None and source in body:
            targets = _sentence_targets(sentence.text, source, names, body)
            events += [Event(source, sentence.start, target) for target in targets]
    return events


def _sentence_targets(text: str, source: int, names: _Names, body: set[int]) -> list[Target]:
    """K2 then K3 targets of one sentence, in the release's order."""
    targets: list[Target] = []
    for match in _PRINTED.finditer(text):
        targets += [names.printed(n, body) for n in match.groups() if n]
    targets += [names.deictic(m.group(1), source) for m in _DEICTIC.finditer(text)]
    targets += [names.by_name(m.group(1).lower().strip()) for m in _NAMED.finditer(text)]
    targets += ["appendix" for _ in _APPENDIX_WORDS.finditer(text)]
    return targets


def roadmap(paper: RefPaper, events: list[Event]) -> set[int]:
    """Indices (into ``events``) of the introduction's roadmap pointers."""
    body = paper.body()
    if not body:
        return set()
    intro = body[0].idx
    ordered = sorted(range(len(events)), key=lambda i: events[i].offset)
    forward = [i for i in ordered if events[i].source == intro and _later_section(events[i], intro)]
    best = _longest_rising(forward, events)
    return set(best) if len(best) >= 2 else set()


def _longest_rising(forward: list[int], events: list[Event]) -> list[int]:
    """The first longest run of ``forward`` whose target sections strictly increase."""
    best: list[int] = []
    run: list[int] = []
    for i in forward:
        if run and _section_of(events[i]) <= _section_of(events[run[-1]]):
            best = run if len(run) > len(best) else best
            run = []
        run.append(i)
    return run if len(run) > len(best) else best


def _section_of(event: Event) -> int:
    assert isinstance(event.target, tuple) and isinstance(event.target[1], int)
    return event.target[1]


def _later_section(event: Event, intro: int) -> bool:
    target = event.target
    return (isinstance(target, tuple) and target[0] == "S" and isinstance(target[1], int)
            and target[1] > intro)  # fmt: skip


def cross_section_references(source: RefSource, paper: RefPaper) -> MeasureResult:
    found, named = objects(paper)
    events = _command_events(paper, named) + _text_events(paper)
    road = roadmap(paper, events)
    reached: dict[ObjectId, set[int]] = defaultdict(set)
    for index, event in enumerate(events):
        target = event.target
        if isinstance(target, tuple) and index not in road and event.source != found[target].home:
            reached[target].add(event.source)
    isolated = [oid for oid in found if not reached[oid]]
    numbers = {index: number for number, index in section_numbers(paper).items()}
    instances = tuple(_instance(source, paper, found[oid], numbers) for oid in isolated)
    detail = {"profile": "reference", "roadmap_pointers": len(road),
              "appendix_pointers": sum(e.target == "appendix" for e in events)}  # fmt: skip
    return MeasureResult.of(NAME, "STRUCTURE", len(isolated), len(found), "objects",
                            instances=instances, detail=detail)  # fmt: skip


def _instance(source: RefSource, paper: RefPaper, item: RefObject, numbers: dict[int, str]
              ) -> Instance:  # fmt: skip
    """An isolated object, named as printed (section numbers; for a label, whose title is
    its key, the LaTeX route's number) where it is known, else by title or label key."""
    home = paper.tops[item.home].title if item.home < len(paper.tops) else ""
    if item.kind == "section":
        number = numbers.get(item.home)
        what = f"Section {number}" if number else f"Section {item.title}"
        text = f"{what}: {item.title}" if number else what
    else:
        what = source.printed.get(item.title) or f"{item.kind} {item.title}"
        text = what
    return Instance(NAME, source.span(item.offset), home, text,
                    repair_text(item.kind, what, home))  # fmt: skip
