r"""The single pass over the document: headings, environments, labels, references,
citations, captions and floats, met in order by one compiled regex.

The scan reads the *masked* text (verbatim content blanked, positions kept),
so nothing inside ``verbatim``/``lstlisting``/``minted`` or ``\verb`` is
taken for a command. Sources are sliced from the real text.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Callable
from dataclasses import dataclass

from slopmark.paper.document import Citation, Environment, Float, Note, Reference, Span
from slopmark.paper.latex import commands as cmd
from slopmark.paper.latex.convert import plain_text
from slopmark.paper.latex.floats import (
    EQUATIONS,
    FLOAT_KINDS,
    SUBFLOATS,
    Frame,
    LabelDraft,
    Numbering,
    Region,
    counters_within_section,
    label_kind,
    theorem_counters,
)  # fmt: skip
from slopmark.paper.latex.macros import Macros, PointerMacro
from slopmark.paper.latex.sections import Heading, HeadingTracker, classify
from slopmark.paper.latex.tables import TABULARS, parse_tabular

_NAMES = (
    *cmd.CITE_NAMES, *cmd.REF_NAMES, *cmd.HEADING_LEVELS, "label", "caption", "captionof",
    "subcaption", "appendix", "bibliography", "printbibliography",
)  # fmt: skip


@functools.lru_cache(maxsize=64)
def _event_pattern(extra: tuple[str, ...]) -> re.Pattern[str]:
    names = sorted({*_NAMES, *extra}, key=len, reverse=True)
    return re.compile(
        r"\\(?:(?P<env>begin|end)\s*\{(?P<name>[^{}\s]*)\}|(?P<cmd>"
        + "|".join(re.escape(name) for name in names)
        + r")(?![A-Za-z@]))"
    )


@dataclass(frozen=True)
class Scan:
    headings: tuple[Heading, ...]
    labels: tuple[LabelDraft, ...]
    references: tuple[tuple[int, Reference], ...]
    citations: tuple[tuple[int, Citation], ...]
    floats: tuple[tuple[int, Float], ...]
    environments: tuple[Environment, ...]
    regions: dict[int, Region]
    notes: tuple[Note, ...]


#: Environments open at once beyond this are read as text (no paper nests that deep;
#: TeX itself stops at 255 grouping levels). Each unclosed environment spans the rest
#: of the text, so without a bound thousands of them cost quadratic time and memory.
MAX_NESTING = 64


class Scanner:
    """State of the pass: the open environments, the counters, what was found."""

    def __init__(self, text: str, masked: str, span: Callable[[int], Span], macros: Macros) -> None:
        self.text, self.masked, self.span = text, masked, span
        self.pointers = macros.pointers
        self.tracker = HeadingTracker()
        self.numbering = Numbering(theorem_counters(masked), counters_within_section(masked))
        self.stack: list[Frame] = []
        self.labels: list[LabelDraft] = []
        self.references: list[tuple[int, Reference]] = []
        self.citations: list[tuple[int, Citation]] = []
        self.floats: list[tuple[int, Float]] = []
        self.environments: list[Environment] = []
        self.regions: dict[int, Region] = {}
        self.notes: list[Note] = []
        self.end = len(text)
        self.too_deep = False

    @property
    def section(self) -> int:
        return max(0, len(self.tracker.headings) - 1)

    def run(self, start: int, end: int) -> Scan:
        self.end = end
        pattern = _event_pattern(tuple(sorted(self.pointers)))
        for match in pattern.finditer(self.masked, start, end):
            name = match.group("cmd")
            if name is None:
                self._environment(match)
            else:
                self._command(name, match.start(), match.end())
        while self.stack:
            frame = self.stack[-1]
            self.notes.append(Note(f"\\begin{{{frame.name}}} is never closed", frame.at))
            self._close(end, end)
        return Scan(
            tuple(self.tracker.headings), tuple(self.labels), tuple(self.references),
            tuple(self.citations), tuple(self.floats), tuple(self.environments), self.regions,
            tuple(self.notes),
        )  # fmt: skip

    def _args(self, name: str, pos: int, optional: int, required: int) -> cmd.Args:
        args = cmd.read_args(self.masked, pos, self.end, optional, required)
        if not args.ok:
            self.notes.append(
                Note(f"unbalanced braces after \\{name}: read to the end of the paragraph",
                     self.span(pos))
            )  # fmt: skip
        return args

    def _command(self, name: str, start: int, pos: int) -> None:
        if name in self.pointers:
            self._macro(self.pointers[name], start, pos)
        elif name in cmd.CITE:
            self._cite(name, start, pos)
        elif name in cmd.REF:
            self._ref(name, start, pos)
        elif name in cmd.HEADING_LEVELS:
            self._heading(name, start, pos)
        elif name == "label":
            self._label(start, pos)
        elif name in ("caption", "captionof", "subcaption"):
            self._caption(name, pos)
        elif name == "appendix":
            self.tracker.start_appendix(start)
        else:
            self._bibliography(start)

    def _cite(self, name: str, start: int, pos: int) -> None:
        args = self._args(name, pos, 2, 1)
        keys = cmd.split_keys(args.required[0]) if args.required else ()
        if keys:
            citation = Citation(keys, name, self.section, self.span(start))
            self.citations.append((start, citation))

    def _macro(self, macro: PointerMacro, start: int, pos: int) -> None:
        args = self._args(macro.name, pos, 0, 1)
        keys = tuple(macro.template.replace("#1", key) for key in cmd.split_keys(args.required[0]))
        if not keys:
            return
        if macro.command in cmd.CITE:
            self.citations.append((start, Citation(keys, macro.command, self.section,
                                                   self.span(start))))  # fmt: skip
        else:
            self.references.append((start, Reference(keys, macro.command, self.section,
                                                     self.span(start))))  # fmt: skip

    def _ref(self, name: str, start: int, pos: int) -> None:
        args = self._args(name, pos, 1, 2 if name in cmd.RANGE_REFS else 1)
        raw = args.optional[:1] if name == "hyperref" else args.required
        keys = tuple(key for arg in raw for key in cmd.split_keys(arg))
        if keys:
            self.references.append((start, Reference(keys, name, self.section, self.span(start))))

    def _heading(self, name: str, start: int, pos: int) -> None:
        args = self._args(name, pos, 1, 1)
        title = plain_text(args.required[0]) if args.required else ""
        level = cmd.HEADING_LEVELS[name]
        if level == 1 and classify(title) == "abstract":
            level = 0
        self.tracker.add(start, args.end, level, title, args.starred)

    def _label(self, start: int, pos: int) -> None:
        args = self._args("label", pos, 0, 1)
        key = args.required[0].strip() if args.required else ""
        if not key:
            return
        draft = LabelDraft(key, "section", self.section, self.span(start), start)
        for frame in reversed(self.stack):
            kind = label_kind(frame, self.numbering.theorems)
            if kind is not None:
                draft.kind = kind
                draft.number = None if frame.name in SUBFLOATS else frame.number
                frame.labels.append(draft)
                break
        else:
            draft.number = self.tracker.current_number
        self.labels.append(draft)

    def _caption(self, name: str, pos: int) -> None:
        args = self._args(name, pos, 1, 2 if name == "captionof" else 1)
        caption = plain_text(args.required[-1]) if args.required else ""
        frame = next((f for f in reversed(self.stack) if _captioned(f)), None)
        if name == "captionof":
            self._captionof(args, caption, frame)
            return
        if frame is None or frame.name in SUBFLOATS or name == "subcaption":
            return
        frame.number = self.numbering.next_float(FLOAT_KINDS[frame.name],
                                                 self.tracker.current_top_number())  # fmt: skip
        frame.caption = caption if frame.caption is None else frame.caption

    def _captionof(self, args: cmd.Args, caption: str, frame: Frame | None) -> None:
        r"""``\captionof{figure}{..}`` outside a float: the enclosing box becomes one."""
        kind = FLOAT_KINDS.get(args.required[0].strip()) if args.required else None
        frame = frame or (self.stack[-1] if self.stack else None)
        if frame is not None and kind is not None and frame.name not in FLOAT_KINDS:
            top = self.tracker.current_top_number()
            frame.caption_kind, frame.number = kind, self.numbering.next_float(kind, top)
            frame.caption = frame.caption or caption

    def _bibliography(self, start: int) -> None:
        headings = self.tracker.headings
        if not headings or headings[-1].role != "references":
            self.tracker.add(start, start, 1, "References", True)
        self.tracker.end_body()

    def _environment(self, match: re.Match[str]) -> None:
        name = match.group("name")
        if match.group("env") == "begin":
            self._open(name, match.start(), match.end())
            return
        depth = next((i for i in range(len(self.stack) - 1, -1, -1)
                      if self.stack[i].name == name), None)  # fmt: skip
        if depth is None:
            return
        while len(self.stack) > depth + 1:
            inner = self.stack[-1]
            self.notes.append(Note(f"\\begin{{{inner.name}}} closed by \\end{{{name}}}", inner.at))
            self._close(match.start(), match.start())
        self._close(match.start(), match.end())

    def _open(self, name: str, start: int, inner: int) -> None:
        if len(self.stack) >= MAX_NESTING:
            if not self.too_deep:
                message = f"environments nested deeper than {MAX_NESTING}: the deeper ones are text"
                self.notes.append(Note(message, self.span(start)))
            self.too_deep = True
            return
        frame = Frame(name, start, inner, self.section, self.span(start))
        parent = self.stack[-1] if self.stack else None
        if name in SUBFLOATS and parent is not None:
            parent.subs += 1
            frame.number = chr(ord("a") + min(parent.subs, 26) - 1)
        elif name == "subequations":
            frame.number = self.numbering.begin_subequations(self.tracker.current_top_number())
        elif name in self.numbering.theorems and name not in EQUATIONS:
            frame.number = self.numbering.next_theorem(name, self.tracker.current_top_number())
        elif name == "abstract":
            self.tracker.add(start, inner, 0, "Abstract", True)
            frame.section = self.section
        elif name == "thebibliography":
            self._bibliography(start)
            frame.section = self.section
        self.stack.append(frame)

    def _close(self, inner_end: int, end: int) -> None:
        frame = self.stack.pop()
        if self.stack:
            self.stack[-1].children.append((frame.start, end))
        self.regions[frame.start] = Region(frame.name, frame.start, frame.inner, inner_end, end)
        source = self.text[frame.start : end]
        if frame.name in FLOAT_KINDS:
            if frame.name in TABULARS:
                frame.tables.append(parse_tabular(frame.name, self.masked[frame.inner : inner_end]))
            self.floats.append((frame.start, _float(frame, source)))
            return
        self.environments.append(Environment(frame.name, frame.section, frame.at, source))
        if frame.name in EQUATIONS:
            self.numbering.number_equations(frame, self.masked, inner_end,
                                            self.tracker.current_top_number())  # fmt: skip
        elif frame.name == "subequations":
            self.numbering.end_subequations()
        elif frame.name in SUBFLOATS and self.stack:
            for draft in frame.labels:
                draft.sub = frame.number or ""
            self.stack[-1].labels.extend(frame.labels)
            self.stack[-1].tables.extend(frame.tables)
        elif frame.name in TABULARS:
            self._table(frame, inner_end, source)

    def _table(self, frame: Frame, inner_end: int, source: str) -> None:
        cells = parse_tabular(frame.name, self.masked[frame.inner : inner_end])
        holder = next((f for f in reversed(self.stack) if f.name in FLOAT_KINDS), None)
        if holder is not None:
            holder.tables.append(cells)
        elif cells.rows:
            table = Float("table", frame.name, "", (), frame.section, frame.at, source, (cells,))
            self.floats.append((frame.start, table))


def _captioned(frame: Frame) -> bool:
    return frame.name in FLOAT_KINDS or frame.name in SUBFLOATS


def _float(frame: Frame, source: str) -> Float:
    for draft in frame.labels:
        if draft.sub:
            draft.number = f"{frame.number}{draft.sub}" if frame.number else None
        elif draft.number is None:
            draft.number = frame.number
    labels = tuple(draft.key for draft in frame.labels)
    kind = FLOAT_KINDS[frame.name]
    return Float(kind, frame.name, frame.caption or "", labels, frame.section, frame.at,
                 source, tuple(frame.tables))  # fmt: skip
