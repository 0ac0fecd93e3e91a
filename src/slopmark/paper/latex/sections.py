r"""Headings: their roles (from the title), printed numbers, body and appendix membership.

Roles come from the earliest role keyword in the title, so "Results and
Discussion" is experiments and "Discussion of Results" is conclusion. A
subsection takes the role of its top-level section, except that a heading
whose own title makes it a statement, acknowledgements or references keeps
that role at any level (ICLR's ``\subsubsection*{Acknowledgments}``), also
after ``\appendix``; every other section after the appendix starts has the
role appendix.

Numbering follows LaTeX's article class: unstarred ``\section`` 1..k,
``\subsection`` 3.1, ``\subsubsection`` 3.1.2; after ``\appendix`` the
section counter restarts as A, B, ...; ``\paragraph`` and starred headings
are unnumbered. The body ends at the first of: the appendix (``\appendix``
or a top-level heading titled Appendix / Supplementary), an
acknowledgements heading, a references heading or the bibliography.
"""

from __future__ import annotations

import re
import string
from dataclasses import dataclass

from slopmark.paper.document import Role

_ROLE = re.compile(
    r"\b(?:(?P<abstract>abstract\b)"
    r"|(?P<statement>ethic|broader\s+impact|societal\s+impact|impact\s+statement"
    r"|reproducibility|limitations?\s+statement|checklist|statement\s+on"
    r"|(?:use\s+of\s+)?(?:ai|llms?|large\s+language\s+models?|generative\s+ai)"
    r"\s+(?:use|usage|assistance|disclosure|statement))"
    r"|(?P<acknowledgements>acknowledge?ments?|acknowledg)"
    r"|(?P<references>references\b|bibliography)"
    r"|(?P<appendix>appendi(?:x|ces)|supplementary)"
    r"|(?P<introduction>introduction)"
    r"|(?P<related_work>related\s+works?|background|prior\s+work|previous\s+work|literature)"
    r"|(?P<experiments>experiment|results?\b|evaluation|analys|empirical|ablation|benchmark)"
    r"|(?P<conclusion>conclu|discussion|summary|future\s+work|closing\s+remarks|limitation)"
    r"|(?P<method>method|approach|model|framework|our\b|proposed|technique|architecture"
    r"|algorithm))",
    re.I,
)
#: Roles a heading keeps from its own title at any level, even in the appendix.
OWN_ROLES: frozenset[Role] = frozenset({"statement", "acknowledgements", "references"})
#: Roles whose heading ends the body.
BODY_ENDING: frozenset[Role] = frozenset({"acknowledgements", "references", "appendix"})


def classify(title: str) -> Role:
    """The role named by a heading title (``other`` when none is)."""
    match = _ROLE.search(title)
    role = match.lastgroup if match else None
    return role if role is not None else "other"  # type: ignore[return-value]


def _letter(count: int) -> str:
    return string.ascii_uppercase[count - 1] if 1 <= count <= 26 else str(count)


@dataclass(frozen=True)
class Heading:
    """A heading as scanned: where it is and what LaTeX would print for it."""

    pos: int
    content: int
    level: int
    title: str
    starred: bool
    number: str | None
    role: Role
    top: int
    in_body: bool
    in_appendix: bool


class HeadingTracker:
    """Counters and body/appendix state while headings are met in document order."""

    def __init__(self) -> None:
        self.headings: list[Heading] = []
        self.counters = [0, 0, 0]
        self.appendix_mode = False
        self.appendix_at: int | None = None
        self.body_over = False
        self.top = -1
        #: The number a ``\label`` outside environments would print.
        self.current_number: str | None = None

    def start_appendix(self, pos: int) -> None:
        r"""``\appendix``: letters from now on; the body is over."""
        self.appendix_mode = True
        self.counters = [0, 0, 0]
        if self.appendix_at is None:
            self.appendix_at = pos
        self.body_over = True

    def end_body(self) -> None:
        self.body_over = True

    def add(self, pos: int, content: int, level: int, title: str, starred: bool) -> None:
        """Record a heading (level 0 is the abstract)."""
        own = classify(title)
        if level <= 1 and own == "appendix" and self.appendix_at is None:
            self.appendix_at = pos
        if own in BODY_ENDING and (level <= 1 or own != "appendix"):
            self.body_over = True
        number = self._number(level, starred)
        index = len(self.headings)
        if level <= 1:
            self.top = index
        role = self._role(level, own)
        heading = Heading(
            pos, content, level, title, starred, number, role, max(self.top, 0),
            not self.body_over, self.appendix_at is not None,
        )  # fmt: skip
        self.headings.append(heading)

    def current_top_number(self) -> str | None:
        """The printed number of the current top-level section (for per-section theorems)."""
        return self._top_number() if self.counters[0] else None

    def _top_number(self) -> str:
        first = self.counters[0]
        return _letter(first) if self.appendix_mode else str(first)

    def _number(self, level: int, starred: bool) -> str | None:
        if starred or not 1 <= level <= 3:
            return None
        self.counters[level - 1] += 1
        for deeper in range(level, 3):
            self.counters[deeper] = 0
        parts = [self._top_number(), *(str(count) for count in self.counters[1:level])]
        self.current_number = ".".join(parts)
        return self.current_number

    def _role(self, level: int, own: Role) -> Role:
        if level == 0:
            return "abstract"
        if own in OWN_ROLES:
            return own
        if self.appendix_at is not None:
            return "appendix"
        if level == 1 or self.top < 0 or self.headings[self.top].level == 0:
            return own
        return self.headings[self.top].role
