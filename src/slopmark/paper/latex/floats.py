r"""Environments while they are open (frames), and the printed numbers of what they hold.

Figures, tables and algorithms are numbered in order of their first
``\caption`` (1..n per kind, as LaTeX's counters); a subfigure or subtable
adds a letter (``2a``). Equations are numbered in order: one number per
``equation``/``multline``, one per row of ``align``/``gather``/``eqnarray``
(and friends) unless the row says ``\nonumber``/``\notag``; starred
environments are unnumbered; ``\tag{x}`` prints x. A ``subequations``
environment takes one number (its own label prints it) and the rows inside
print that number with a letter (``3a``, ``3b``), as amsmath does. A counter
named in ``\numberwithin{equation}{section}`` (or ``\counterwithin``; figure,
table and algorithm too) prints ``2.3`` and starts again in each section. Theorem-like
environments (the common names plus every ``\newtheorem``) count per counter,
shared counters (``\newtheorem{lemma}[theorem]{Lemma}``) and per-section
numbering (``[section]``) included.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from slopmark.paper.document import FloatKind, LabelKind, Span, TableCells

FLOAT_KINDS: dict[str, FloatKind] = {
    "figure": "figure", "figure*": "figure", "wrapfigure": "figure", "SCfigure": "figure",
    "sidewaysfigure": "figure", "table": "table", "table*": "table", "wraptable": "table",
    "SCtable": "table", "sidewaystable": "table", "algorithm": "algorithm",
    "algorithm*": "algorithm", "algorithm2e": "algorithm", "longtable": "table",
    "longtable*": "table", "xltabular": "table",
}  # fmt: skip
SUBFLOATS: dict[str, FloatKind] = {"subfigure": "figure", "subtable": "table"}
SINGLE_EQUATIONS = frozenset({"equation", "multline", "equation*", "multline*", "displaymath"})
ROW_EQUATIONS = frozenset(
    {"align", "gather", "eqnarray", "flalign", "alignat", "xalignat", "align*", "gather*",
     "eqnarray*", "flalign*", "alignat*", "xalignat*"}
)  # fmt: skip
EQUATIONS = SINGLE_EQUATIONS | ROW_EQUATIONS
LISTS = frozenset({"itemize", "enumerate", "description", "compactitem", "compactenum"})
THEOREM_NAMES = frozenset(
    {"theorem", "lemma", "proposition", "corollary", "definition", "remark", "assumption",
     "conjecture", "claim", "fact", "observation", "hypothesis", "property", "example",
     "problem", "axiom", "principle", "note"}
)  # fmt: skip
_NEWTHEOREM = re.compile(
    r"\\newtheorem(\*?)\s*\{([^{}]+)\}\s*(?:\[([^\]]*)\])?\s*\{[^{}]*\}\s*(?:\[([^\]]*)\])?"
)
_DECLARETHEOREM = re.compile(r"\\declaretheorem\s*(?:\[[^\]]*\])?\s*\{([^{}]+)\}")
_ROW_BREAK = re.compile(r"\\\\")
_NO_NUMBER = re.compile(r"\\(?:nonumber|notag)(?![A-Za-z])")
_TAG = re.compile(r"\\tag\*?\s*\{([^{}]*)\}")


@dataclass(frozen=True)
class Region:
    """Where an environment sits: its ``\\begin``, content and ``\\end`` positions."""

    name: str
    start: int
    inner: int
    inner_end: int
    end: int


@dataclass
class LabelDraft:
    """A label met during the scan; its number may only be known when its frame closes."""

    key: str
    kind: LabelKind
    section: int
    at: Span
    pos: int
    number: str | None = None
    sub: str = ""


@dataclass
class Frame:
    """An open environment."""

    name: str
    start: int
    inner: int
    section: int
    at: Span
    caption: str | None = None
    number: str | None = None
    caption_kind: FloatKind | None = None
    labels: list[LabelDraft] = field(default_factory=list)
    tables: list[TableCells] = field(default_factory=list)
    children: list[tuple[int, int]] = field(default_factory=list)
    subs: int = 0


@dataclass(frozen=True)
class TheoremCounter:
    counter: str
    within_section: bool
    numbered: bool


def theorem_counters(text: str) -> dict[str, TheoremCounter]:
    r"""Theorem-like environments: the common names plus ``\newtheorem`` declarations."""
    found = {name: TheoremCounter(name, False, True) for name in THEOREM_NAMES}
    for star, name, shared, within in _NEWTHEOREM.findall(text):
        found[name.strip()] = TheoremCounter(
            (shared or name).strip(), bool(within.strip()), not star
        )
    for name in _DECLARETHEOREM.findall(text):
        found[name.strip()] = TheoremCounter(name.strip(), False, True)
    return found


_WITHIN = re.compile(
    r"\\(?:numberwithin|counterwithin\*?)\s*\{(equation|figure|table|algorithm)\}\s*\{section\}"
)


def counters_within_section(text: str) -> frozenset[str]:
    r"""The counters ``\numberwithin`` / ``\counterwithin`` number within the section."""
    return frozenset(_WITHIN.findall(text))


def label_kind(frame: Frame, theorems: dict[str, TheoremCounter]) -> LabelKind | None:
    """The kind a label inside this frame names, or None if the frame names nothing."""
    name = frame.name
    kind = FLOAT_KINDS.get(name) or SUBFLOATS.get(name) or frame.caption_kind
    if kind is not None:
        return kind
    if name in EQUATIONS or name == "subequations":
        return "equation"
    if name in theorems:
        return "theorem"
    return "other" if name in LISTS else None


class Numbering:
    """LaTeX's counters for floats, equations and theorems."""

    def __init__(
        self, theorems: dict[str, TheoremCounter], within: frozenset[str] = frozenset()
    ) -> None:
        self.theorems = theorems
        #: Counters numbered within the section (``\numberwithin{equation}{section}``).
        self.within = within
        self.counts: dict[str, tuple[str | None, int]] = {}
        self.steps: dict[str, tuple[str | None, int]] = {}
        #: Inside ``subequations``: its number and the rows numbered so far.
        self.sub: tuple[str, int] | None = None

    def _step(self, counter: str, section_number: str | None) -> str:
        """The next value of ``counter`` (equation, figure, table, ...): ``2.3`` when it is
        numbered within the section (and starts again in each), else ``7``."""
        scope = section_number if counter in self.within else None
        last_scope, count = self.steps.get(counter, (scope, 0))
        count = count + 1 if last_scope == scope else 1
        self.steps[counter] = (scope, count)
        return f"{scope}.{count}" if scope else str(count)

    def begin_subequations(self, section_number: str | None = None) -> str:
        """The number a ``subequations`` environment takes; its rows get letters."""
        self.sub = (self._step("equation", section_number), 0)
        return self.sub[0]

    def end_subequations(self) -> None:
        self.sub = None

    def next_float(self, kind: str, section_number: str | None = None) -> str:
        return self._step(kind, section_number)

    def next_theorem(self, name: str, section_number: str | None) -> str | None:
        spec = self.theorems[name]
        if not spec.numbered:
            return None
        scope = section_number if spec.within_section else None
        last_scope, count = self.counts.get(spec.counter, (scope, 0))
        count = count + 1 if last_scope == scope else 1
        self.counts[spec.counter] = (scope, count)
        return f"{scope}.{count}" if scope else str(count)

    def _row_number(self, row: str, starred: bool, rows: int, scope: str | None) -> str | None:
        tag = _TAG.search(row)
        if tag:
            return tag.group(1).strip()
        if starred or _NO_NUMBER.search(row) or (rows > 1 and not row.strip()):
            return None
        if self.sub is not None:
            parent, count = self.sub[0], self.sub[1] + 1
            self.sub = (parent, count)
            return parent + chr(ord("a") + min(count, 26) - 1)
        return self._step("equation", scope)

    def number_equations(
        self, frame: Frame, masked: str, inner_end: int, section_number: str | None = None
    ) -> None:
        """Give the labels of a closed equation environment the number of their row."""
        rows = _rows(frame, masked, inner_end)
        starred = frame.name.endswith("*") or frame.name == "displaymath"
        numbers = [self._row_number(masked[a:b], starred, len(rows), section_number)
                   for a, b in rows]  # fmt: skip
        for draft in frame.labels:
            index = next((i for i, (_, stop) in enumerate(rows) if draft.pos < stop), -1)
            draft.number = numbers[index] if rows else None


def _rows(frame: Frame, masked: str, inner_end: int) -> list[tuple[int, int]]:
    if frame.name not in ROW_EQUATIONS:
        return [(frame.inner, inner_end)]
    rows: list[tuple[int, int]] = []
    start = frame.inner
    for match in _ROW_BREAK.finditer(masked, frame.inner, inner_end):
        if not any(a <= match.start() < b for a, b in frame.children):
            rows.append((start, match.start()))
            start = match.end()
    rows.append((start, inner_end))
    return rows
