r"""The release's reading of a paper: sections, roles, appendix, labels, abstract.

Facts from ``scislop/_common/views.py`` (``load_doc``) and
``section_role_map.tsv``, re-implemented:

- headings are ``\section``, ``\subsection`` and ``\subsubsection`` (starred or
  not, with an optional short title) between ``\begin{document}`` and
  ``\end{document}``; ``\paragraph`` is not a heading;
- a top-level section runs from its heading to the next top-level heading;
  its content starts right after the heading command;
- the appendix starts at ``\appendix`` or at a ``\section`` titled Appendix,
  Appendices, Supplementary or Acknowledg...; failing both, at the first
  top-level section after the last conclusion whose title looks like back
  matter (`_BACK_MATTER_TITLE`);
- a section's role is the first row of `ROLES` whose pattern occurs in its
  cleaned, lower-cased title;
- a label keeps its *first* definition; its kind comes from the float or
  display-math environment around it, a theorem-like ``\begin`` in the 200
  characters before it, else "section"; its home is the top-level section
  holding it.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

#: (role, pattern searched in the cleaned lower-case title), first match wins.
ROLES: tuple[tuple[str, re.Pattern[str]], ...] = tuple(
    (role, re.compile(pattern))
    for role, pattern in (
        ("Abstract", r"^abstract$"),
        ("Intro", r"^(\d+\.?\s*)?(introduction|intro|overview and motivation|motivation)$"),
        ("Related", "related|prior work|background|preliminar|literature|previous work"
         "|problem setting|notation"),
        ("Method", "method|approach|framework|model|algorithm|proposed|architecture|formulation"
         "|design|technique|theory|theoretical|our system|system description|defense|attack"),
        ("Experiments", "experiment|evaluation|result|empirical|setup|implementation detail"
         "|benchmark|study|ablation|training dynamics|analysis|comparison|per-seed|rankings"
         "|findings"),
        ("Conclusion", "conclusion|discussion|limitation|future work|broader impact|ethic|summary"),
        ("Appendix", "appendix|supplement|proof|additional|hyperparameter|dataset detail|prompt"),
    )
)  # fmt: skip

_BRACED = r"\{((?:[^{}]|\{[^{}]*\})*)\}"
_HEADING = re.compile(r"\\(section|subsection|subsubsection)\*?\s*(?:\[[^\]]*\])?" + _BRACED)
_LEVELS = {"section": 1, "subsection": 2, "subsubsection": 3}
_LABEL = re.compile(r"\\label\{([^}]+)\}")
_APPENDIX = re.compile(
    r"\\appendix\b|\\section\*?\{\s*(?:appendix|appendices|supplementary|acknowledg)", re.I
)
_BACK_MATTER_TITLE = re.compile(
    r"appendix|supplement|acknowledg|implementation details?"
    r"|additional (?:results?|experiments?|details?|analys)|further (?:results?|details?|analys)"
    r"|proofs?|derivations?|extended|broader impact|checklist|ethic",
    re.I,
)
_ABSTRACT = re.compile(r"\\begin\{abstract\}(.*?)\\end\{abstract\}", re.S)
FLOAT_NAMES = (
    r"figure\*?|table\*?|algorithm\*?|algorithmic|wrapfigure|wraptable|sidewaystable\*?"
    r"|tabular\*?|tabularx|longtable|minipage|tcolorbox|lstlisting|verbatim|Verbatim|minted"
    r"|framed|mdframed|shaded|promptbox|prompt|tikzpicture|listing|boxedminipage|comment"
)
MATH_NAMES = (
    r"equation\*?|align\*?|gather\*?|multline\*?|eqnarray\*?|displaymath|flalign\*?|alignat\*?"
)
FLOATS = re.compile(rf"\\begin\{{({FLOAT_NAMES})\}}(.*?)\\end\{{\1\}}", re.S)
MATHS = re.compile(rf"\\begin\{{({MATH_NAMES})\}}(.*?)\\end\{{\1\}}", re.S)
_THEOREM_BEGIN = re.compile(
    r"\\begin\{(theorem|lemma|proposition|corollary|definition|assumption|remark)"
)
_TITLE_DROPS = (
    (re.compile(r"\\label\s*\{[^{}]*\}"), " "),
    (re.compile(r"\\[A-Za-z]+\*?(\[[^\]]*\])?"), " "),
    (re.compile(r"[{}$~]"), " "),
)


def clean_title(title: str) -> str:
    """A heading's words: labels, commands and braces dropped, spaces collapsed."""
    for pattern, space in _TITLE_DROPS:
        title = pattern.sub(space, title)
    return " ".join(title.split())


def role_of(title: str) -> str:
    low = clean_title(title).lower()
    return next((role for role, pattern in ROLES if pattern.search(low)), "Other")


@dataclass
class RefSection:
    #: Top-level sections: their number among top-level sections; others: their position.
    idx: int
    level: int
    title: str
    role: str
    start: int
    content: int
    end: int
    in_appendix: bool = False


@dataclass(frozen=True)
class RefLabel:
    kind: str
    #: The top-level section holding it, or None.
    section: int | None
    offset: int


@dataclass(frozen=True)
class RefPaper:
    tex: str
    start: int
    end: int
    appendix: int | None
    sections: tuple[RefSection, ...]
    tops: tuple[RefSection, ...]
    labels: dict[str, RefLabel]
    abstract: str

    def body(self) -> list[RefSection]:
        """Top-level sections before the appendix that are not appendix by role."""
        return [s for s in self.tops if not s.in_appendix and s.role != "Appendix"]

    def body_end(self) -> int:
        return self.appendix if self.appendix else self.end

    def top_of(self, offset: int) -> int | None:
        return next((s.idx for s in self.tops if s.start <= offset < s.end), None)


def _region(tex: str) -> tuple[int, int]:
    begin = tex.find("\\begin{document}")
    end = tex.find("\\end{document}")
    return (begin + len("\\begin{document}") if begin >= 0 else 0), (end if end >= 0 else len(tex))


def _sections(tex: str, start: int, end: int, appendix: int | None) -> list[RefSection]:
    heads = [m for m in _HEADING.finditer(tex) if start <= m.start() < end]
    found: list[RefSection] = []
    top = -1
    for i, match in enumerate(heads):
        level = _LEVELS[match.group(1)]
        top += level == 1
        stop = heads[i + 1].start() if i + 1 < len(heads) else end
        found.append(_section(match, level, top if level == 1 else len(found), stop, appendix))
    tops = [s for s in found if s.level == 1]
    for left, right in zip(tops, tops[1:], strict=False):
        left.end = right.start
    if tops:
        tops[-1].end = end
    return found


def _section(match: re.Match[str], level: int, index: int, stop: int,
             appendix: int | None) -> RefSection:  # fmt: skip
    title = clean_title(match.group(2))
    after = appendix is not None and match.start() >= appendix
    return RefSection(index, level, title, role_of(title), match.start(), match.end(), stop, after)


def _fallback_appendix(sections: list[RefSection]) -> int | None:
    tops = [s for s in sections if s.level == 1]
    last = max((i for i, s in enumerate(tops) if s.role == "Conclusion"), default=None)
    if last is None:
        return None
    back = next((s for s in tops[last + 1 :] if _BACK_MATTER_TITLE.search(s.title)), None)
    if back is None:
        return None
    for section in sections:
        section.in_appendix = section.start >= back.start
    return back.start


def label_kind(tex: str, pos: int, floats: list[tuple[int, int, str]],
               maths: list[tuple[int, int]]) -> str:  # fmt: skip
    for start, end, name in floats:
        if start <= pos < end:
            if name.startswith("table") or "tabular" in name or "longtable" in name:
                return "table"
            return "algorithm" if name.startswith("algorithm") else "figure"
    if any(start <= pos < end for start, end in maths):
        return "equation"
    return "theorem" if _THEOREM_BEGIN.search(tex, max(0, pos - 200), pos) else "section"


def _labels(tex: str, start: int, end: int, tops: list[RefSection]) -> dict[str, RefLabel]:
    floats = [(m.start(), m.end(), m.group(1)) for m in FLOATS.finditer(tex)]
    maths = [(m.start(), m.end()) for m in MATHS.finditer(tex)]
    labels: dict[str, RefLabel] = {}
    for match in _LABEL.finditer(tex, start, end):
        key = match.group(1).strip()
        if key in labels:
            continue
        home = next((s.idx for s in tops if s.start <= match.start() < s.end), None)
        labels[key] = RefLabel(label_kind(tex, match.start(), floats, maths), home, match.start())
    return labels


def read_paper(tex: str) -> RefPaper:
    """The release's `load_doc` over an expanded text."""
    start, end = _region(tex)
    found = _APPENDIX.search(tex, start, end)
    appendix = found.start() if found else None
    sections = _sections(tex, start, end, appendix)
    if appendix is None:
        appendix = _fallback_appendix(sections)
    tops = [s for s in sections if s.level == 1]
    found_abstract = _ABSTRACT.search(tex)
    abstract = found_abstract.group(1) if found_abstract else ""
    labels = _labels(tex, start, end, tops)
    return RefPaper(tex, start, end, appendix, tuple(sections), tuple(tops), labels, abstract)
