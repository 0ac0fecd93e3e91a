"""The parsed paper every measure reads (pure data; built by `slopmark.paper.latex`).

Positions: every element carries a `Span` (the source file, relative to the
main file's folder, and its 1-based line) so findings can point at it.
Sections are numbered in document order (``Section.index``); elements point
at the section holding them by that index. Only text between
``\\begin{document}`` and ``\\end{document}`` is read.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Literal

#: Section roles, from heading titles.
Role = Literal[
    "abstract", "introduction", "related_work", "method", "experiments", "conclusion",
    "appendix", "statement", "acknowledgements", "references", "other",
]  # fmt: skip
#: What a label names, from its enclosing environment.
LabelKind = Literal["figure", "table", "algorithm", "equation", "theorem", "section", "other"]
#: What a float environment holds.
FloatKind = Literal["figure", "table", "algorithm"]

#: Alphabetic sentinels the prose view puts in place of math, citations and references.
MATH_TOKEN = "zzmath"
CITE_TOKEN = "zzcite"
REF_TOKEN = "zzref"


@dataclass(frozen=True)
class Span:
    file: str
    line: int


@dataclass(frozen=True)
class Note:
    """Something the reader could not follow (missing \\input, a cycle, depth > 4, ...)."""

    message: str
    at: Span | None = None


@dataclass(frozen=True)
class Section:
    index: int
    #: 0 for the abstract, 1 section, 2 subsection, 3 subsubsection, 4 paragraph.
    level: int
    title: str
    starred: bool
    #: The printed number ("3", "3.2", "A", "A.1"); None for starred sections and the abstract.
    number: str | None
    #: The role of the top-level section this one belongs to.
    role: Role
    #: Index of the top-level (level ≤ 1) section holding this one (itself when top-level).
    top: int
    #: Before the appendix, acknowledgements or bibliography, whichever comes first.
    in_body: bool
    in_appendix: bool
    at: Span
    #: The section's own LaTeX, from its heading to the next heading of any level.
    source: str


@dataclass(frozen=True)
class Label:
    key: str
    kind: LabelKind
    section: int
    #: The printed number when it can be known ("3", "2.1", "A.2"), else None.
    number: str | None
    at: Span


@dataclass(frozen=True)
class Reference:
    """A reference command (``\\ref``, ``\\cref``, ``\\autoref``, ``\\eqref``, ...)."""

    keys: tuple[str, ...]
    command: str
    section: int
    at: Span


@dataclass(frozen=True)
class Citation:
    """A citation command (``\\cite``, ``\\citep``, ``\\citet``, ...) and its keys."""

    keys: tuple[str, ...]
    command: str
    section: int
    at: Span


@dataclass(frozen=True)
class TableCells:
    """A tabular's cells after ``\\multicolumn``/``\\multirow`` are unwrapped."""

    rows: tuple[tuple[str, ...], ...]
    #: Per cell: does it hold a number (e.g. ``81.2``, ``$0.93 \\pm 0.02$``, ``12\\%``).
    numeric: tuple[tuple[bool, ...], ...]

    @property
    def numeric_cells(self) -> int:
        return sum(map(sum, self.numeric))

    @property
    def data_rows(self) -> int:
        """Rows holding at least one numeric cell."""
        return sum(map(any, self.numeric))


@dataclass(frozen=True)
class Float:
    """A figure, table or algorithm environment (starred or not, wrapfigure, ...)."""

    kind: FloatKind
    environment: str
    caption: str
    labels: tuple[str, ...]
    section: int
    at: Span
    source: str
    tables: tuple[TableCells, ...] = ()


@dataclass(frozen=True)
class Environment:
    """Any other environment (verbatim, lstlisting, minted, quote, tcolorbox, equation, ...)."""

    name: str
    section: int
    at: Span
    source: str


@dataclass(frozen=True)
class Sentence:
    """One sentence of the prose view (sentinels in place of math, citations, references)."""

    text: str
    section: int
    at: Span
    #: The sentence's citations and references, in order (from the structure view).
    citations: tuple[Citation, ...] = ()
    references: tuple[Reference, ...] = ()
    #: The sentence as written (LaTeX), for findings.
    source: str = ""


@dataclass(frozen=True)
class Document:
    main: str
    files: tuple[str, ...]
    title: str | None
    sections: tuple[Section, ...]
    labels: tuple[Label, ...]
    references: tuple[Reference, ...]
    citations: tuple[Citation, ...]
    floats: tuple[Float, ...]
    environments: tuple[Environment, ...]
    sentences: tuple[Sentence, ...]
    notes: tuple[Note, ...] = ()
    #: The two views as text (for `slopmark paper views` and the text detectors).
    structure_view: str = ""
    prose_view: str = ""
    #: How the document was obtained: "latex" or "pdf".
    origin: str = "latex"
    bibliography: dict[str, str] = field(default_factory=dict)
    #: The folder of the main file on disk (absolute); None for in-memory sources.
    root: str | None = None

    def section(self, index: int) -> Section:
        return self.sections[index]

    def body_sections(self) -> tuple[Section, ...]:
        """Top-level sections of the body (abstract excluded)."""
        return tuple(s for s in self.sections if s.in_body and s.level == 1)

    def sentences_in(self, indices: set[int]) -> tuple[Sentence, ...]:
        return tuple(s for s in self.sentences if s.section in indices)
