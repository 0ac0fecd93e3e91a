r"""Citation isolation as the release computes it (``Argument/citation``, layer M, v4).

The text of each body section with role Intro or Related is lightly cleaned
(floats dropped; ``equation``/``align`` and ``$..$`` become ``xxmathxx``;
headings become blank lines; ``\paragraph{T}`` becomes ``T.``; ``\label``,
``\footnote`` and a few spacing commands vanish with their first argument;
``\...ref{..}`` becomes ``xxrefxx``; ``\textbf``-like wrappers keep their text)
and cut into paragraphs at blank lines. A paragraph is glued to the one before
when that one does not end a sentence or it starts in lower case or with a
digit; paragraphs with fewer than eight words (outside citations) are dropped.
Sentences end at ``.!?`` followed by white space and a capital, a backslash,
``(``, ``[``, ``~`` or a digit, unless the text so far ends with one of
`_ABBREVIATIONS` and a period.

A citing sentence holds a ``\cite``-family command; it weaves when its citation
commands name at least two distinct keys, and is isolated otherwise (named
works and cue words do not count). Fewer than eight citing sentences is weak.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from slopmark.paper.latex.readable import readable
from slopmark.paper.measures.base import Instance, MeasureResult
from slopmark.paper.reference.expand import RefSource
from slopmark.paper.reference.mapped import Mapped, Replacement, join
from slopmark.paper.reference.paper import RefPaper
from slopmark.paper.reference.prose import CITE_COMMAND, shown_text

NAME = "citation_isolation"
WEAK_BELOW = 8
SCOPE = ("Intro", "Related")

_CLEANING: tuple[tuple[re.Pattern[str], Replacement], ...] = (
    (re.compile(r"(?<!\\)%.*"), ""),
    (re.compile(r"\\begin\{(figure\*?|table\*?|algorithm\*?|tabular\*?|wrapfigure)\}.*?"
                r"\\end\{\1\}", re.S), " "),
    (re.compile(r"\\begin\{(equation\*?|align\*?)\}.*?\\end\{\1\}", re.S), " xxmathxx "),
    (re.compile(r"\$[^$]*\$"), " xxmathxx "),
    (re.compile(r"\\(sub)*section\*?\{[^}]*\}"), "\n\n"),
    (re.compile(r"\\paragraph\*?\{([^}]*)\}"), lambda m: m.group(1) + ". "),
    (re.compile(r"\\(label|vspace|hspace|noindent|footnote|includegraphics)\s*(\[[^\]]*\])?"
                r"(\{[^}]*\})?"), " "),
    (re.compile(r"\\[A-Za-z]*[Rr]ef[A-Za-z]*\s*\{[^}]*\}"), " xxrefxx "),
    (re.compile(r"\\(textbf|textit|emph|texttt|textsc)\{([^}]*)\}"), lambda m: m.group(2)),
)  # fmt: skip
_BLANK = re.compile(r"\n\s*\n")
_ENDS_SENTENCE = re.compile(r"[.!?:]\s*[\)\]\"']*$")
_STARTS_LOW = re.compile(r"^[a-z0-9]")
_WORD = re.compile(r"[A-Za-z]{2,}")
_BREAK = re.compile(r"(?<=[.!?])\s+(?=[A-Z\\\(\[~0-9])")
_ABBREVIATIONS = re.compile(r"\b(et al|e\.g|i\.e|cf|vs|Fig|Eq|Sec|Tab|resp|approx|no|etc|al)\.$",
                            re.I)  # fmt: skip
_KEY_SPLIT = re.compile(r"[,\s]+")


@dataclass(frozen=True)
class CitingSentence:
    text: str
    start: int
    section: str
    keys: frozenset[str]


def paragraphs(text: Mapped) -> list[Mapped]:
    """The release's paragraphs of a cleaned section (glued, short ones dropped)."""
    glued: list[list[Mapped]] = []
    for chunk in (c.strip() for c in text.pieces(_BLANK)):
        if not chunk.text:
            continue
        if glued and _continues(join(glued[-1]).text, chunk.text):
            glued[-1].append(chunk)
        else:
            glued.append([chunk])
    kept = [join(parts) for parts in glued]
    return [p for p in kept if len(_WORD.findall(CITE_COMMAND.sub(" ", p.text))) >= 8]


def _continues(previous: str, chunk: str) -> bool:
    return not _ENDS_SENTENCE.search(previous) or bool(_STARTS_LOW.match(chunk))


def split_sentences(paragraph: Mapped) -> list[Mapped]:
    merged: list[list[Mapped]] = []
    for piece in paragraph.strip().pieces(_BREAK):
        if merged and _ABBREVIATIONS.search(join(merged[-1]).text):
            merged[-1].append(piece)
        else:
            merged.append([piece])
    found = [join(parts) for parts in merged]
    return [s for s in found if s.text.strip()]


def cited_keys(text: str) -> frozenset[str]:
    keys: set[str] = set()
    for match in CITE_COMMAND.finditer(text):
        keys.update(k.strip() for k in _KEY_SPLIT.split(match.group(1)) if k.strip())
    return frozenset(keys)


def scoped_sentences(paper: RefPaper) -> tuple[list[CitingSentence], int]:
    """The citing sentences of the introduction and related work, and the paragraph count."""
    found: list[CitingSentence] = []
    count = 0
    for section in paper.body():
        if section.role not in SCOPE:
            continue
        cleaned = Mapped.at(paper.tex[section.content : section.end], section.content)
        for pattern, replacement in _CLEANING:
            cleaned = cleaned.sub(pattern, replacement)
        for paragraph in paragraphs(cleaned):
            count += 1
            for sentence in split_sentences(paragraph):
                keys = cited_keys(sentence.text)
                if keys:
                    start = sentence.source_start(0)
                    found.append(CitingSentence(sentence.text, start, section.title, keys))
    return found, count


def citation_isolation(source: RefSource, paper: RefPaper) -> MeasureResult:
    units, count = scoped_sentences(paper)
    if count == 0:
        reason = "no paragraph in an Intro- or Related-role section (the release's roles)"
        return MeasureResult.of(NAME, "ARGUMENT", 0, 0, "citing sentences", reason=reason)
    isolated = [u for u in units if len(u.keys) < 2]
    instances = tuple(
        Instance(NAME, source.span(u.start), u.section, shown_text(readable(u.text)),
                 f"say how {', '.join(sorted(u.keys))} relates to the other works it sits beside")
        for u in isolated
    )  # fmt: skip
    weak = 0 < len(units) < WEAK_BELOW
    few = f"only {len(units)} citing sentences (fewer than {WEAK_BELOW})" if weak else None
    return MeasureResult.of(
        NAME, "ARGUMENT", len(isolated), len(units), "citing sentences", instances=instances,
        weak=weak, reason=few, detail={"profile": "reference", "paragraphs": count},
    )  # fmt: skip
