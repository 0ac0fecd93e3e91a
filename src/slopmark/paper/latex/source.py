r"""One flat LaTeX text from a tree of files, with a map back to (file, line).

Comments are stripped line by line before ``\input``/``\include``/``\subfile``
expansion: a ``%`` ends the line unless escaped (``\%``) or inside
``\verb``, ``verbatim``, ``lstlisting``, ``minted`` and similar environments;
a line holding only a comment disappears (as LaTeX joins around it); the
``comment`` environment and ``\iffalse ... \fi`` blocks are dropped. Included
files resolve relative to the main file's folder, with and without ``.tex``.
A missing file, a cycle or nesting deeper than `MAX_DEPTH` leaves a `Note`
and the rest is read; so does an include that resolves outside the paper's
folder (an absolute path, ``..``, a symlink out) or names no regular file (a
FIFO, a device), which is never read. A note names the command as written.
"""

from __future__ import annotations

import bisect
import re
from dataclasses import dataclass

from slopmark.paper.document import Note, Span
from slopmark.paper.latex.files import FileReader, OutsideFolder, refusal
from slopmark.regular import Unreadable

MAX_DEPTH = 4
VERBATIM_ENVS = frozenset(
    {"verbatim", "verbatim*", "Verbatim", "Verbatim*", "BVerbatim", "lstlisting", "minted",
     "alltt", "filecontents", "filecontents*", "comment", "spverbatim", "pyverbatim"}
)  # fmt: skip
_VERB_BEGIN = re.compile(r"\\begin\s*\{([A-Za-z]+\*?)\}")
_COMMENT = re.compile(r"\\verb\*?([^A-Za-z\s*]).*?\1|\\.|%")
_INPUT = re.compile(r"\\(input|include|subfile)(?![A-Za-z@])\s*(?:\{([^{}]*)\}|([^\s{}\\%]+))")
_IFFALSE = re.compile(r"\\iffalse(?![A-Za-z@])")
_IF_OR_FI = re.compile(r"\\(?:if[A-Za-z@]*|fi)(?![A-Za-z@])")


def cut_comment(line: str) -> str:
    """The line up to its first unescaped ``%``."""
    if "%" not in line:
        return line
    for match in _COMMENT.finditer(line):
        if match.group(0) == "%":
            return line[: match.start()]
    return line


@dataclass(frozen=True)
class Flat:
    """The flattened text and, for each of its lines, where that line came from."""

    text: str
    origins: tuple[tuple[str, int], ...]
    line_starts: tuple[int, ...]
    files: tuple[str, ...]
    notes: tuple[Note, ...]

    def span(self, pos: int) -> Span:
        """The (file, line) of a position in `text`."""
        index = max(0, bisect.bisect_right(self.line_starts, pos) - 1)
        if not self.origins:
            return Span(self.files[0] if self.files else "", 1)
        file, line = self.origins[min(index, len(self.origins) - 1)]
        return Span(file, line)


class _Flattener:
    def __init__(self, reader: FileReader) -> None:
        self.reader = reader
        self.lines: list[str] = []
        self.origins: list[tuple[str, int]] = []
        self.files: list[str] = []
        self.notes: list[Note] = []

    def add_file(self, name: str, text: str, stack: tuple[str, ...]) -> None:
        self.files.append(name)
        for number, line, verbatim in _stripped_lines(text):
            if verbatim or "\\in" not in line and "\\subfile" not in line:
                self._emit(line, name, number)
            else:
                self._expand_line(line, name, number, stack)

    def _emit(self, line: str, name: str, number: int) -> None:
        self.lines.append(line)
        self.origins.append((name, number))

    def _expand_line(self, line: str, name: str, number: int, stack: tuple[str, ...]) -> None:
        pos = 0
        for match in _INPUT.finditer(line):
            if line[pos : match.start()].strip():
                self._emit(line[pos : match.start()], name, number)
            target = (match.group(2) or match.group(3) or "").strip()
            self._include(f"\\{match.group(1)}", target, Span(name, number), stack)
            pos = match.end()
        if pos == 0 or line[pos:].strip():
            self._emit(line[pos:], name, number)

    def _include(self, command: str, target: str, at: Span, stack: tuple[str, ...]) -> None:
        """Expand ``command{target}`` in place, or note why not (the note names the
        command as written: ``\\input``, ``\\include`` or ``\\subfile``)."""
        if not target:
            return
        key = target.removesuffix(".tex")
        if key in stack:
            self._note(f"{command} cycle: '{target}' includes itself; not expanded", at)
        elif len(stack) > MAX_DEPTH:
            self._note(f"{command} deeper than {MAX_DEPTH} levels: '{target}' skipped", at)
        elif (found := self._read(command, target, at)) is not None:
            self.add_file(found[0], found[1], (*stack, key))

    def _read(self, command: str, target: str, at: Span) -> tuple[str, str] | None:
        try:
            found = self.reader(target)
        except (OutsideFolder, Unreadable) as error:
            self._note(refusal(command, target, error), at)
            return None
        if found is None:
            self._note(f"missing {command} file '{target}' (also tried .tex)", at)
        return found

    def _note(self, message: str, at: Span) -> None:
        self.notes.append(Note(message, at))

    def result(self) -> Flat:
        starts: list[int] = []
        offset = 0
        for line in self.lines:
            starts.append(offset)
            offset += len(line) + 1
        text = "\n".join(self.lines)
        return Flat(text, tuple(self.origins), tuple(starts), tuple(self.files), tuple(self.notes))


def _stripped_lines(text: str) -> list[tuple[int, str, bool]]:
    """(line number, text without comment, inside a verbatim environment) per kept line."""
    kept: list[tuple[int, str, bool]] = []
    verbatim: str | None = None
    skipping = 0
    for number, raw in enumerate(text.splitlines(), start=1):
        if verbatim is not None:
            end = raw.find(f"\\end{{{verbatim}}}")
            if end < 0:
                if verbatim != "comment":
                    kept.append((number, raw, True))
                continue
            verbatim = None
            kept.append((number, raw[:end] + cut_comment(raw[end:]), False))
            continue
        line = cut_comment(raw)
        line, skipping = _skip_iffalse(line, skipping)
        if line.strip() or not raw.strip():
            kept.append((number, line, False))
        verbatim = _opens_verbatim(line)
    return kept


def _opens_verbatim(line: str) -> str | None:
    """The verbatim environment a line opens and does not close, if any."""
    if "\\begin" not in line:
        return None
    for match in _VERB_BEGIN.finditer(line):
        name = match.group(1)
        if name in VERBATIM_ENVS and f"\\end{{{name}}}" not in line[match.end() :]:
            return name
    return None


def _skip_iffalse(line: str, depth: int) -> tuple[str, int]:
    r"""Drop text inside ``\iffalse ... \fi`` (nested ``\if``s counted); the new depth."""
    kept: list[str] = []
    pos = 0
    while True:
        if depth == 0:
            opening = _IFFALSE.search(line, pos) if "\\iffalse" in line[pos:] else None
            if opening is None:  # none left, or only a longer name such as \iffalsehood
                kept.append(line[pos:])
                return "".join(kept), 0
            kept.append(line[pos : opening.start()])
            pos, depth = opening.end(), 1
        pos = _to_closing_fi(line, pos, depth)
        if pos < 0:
            return "".join(kept), -pos
        depth = 0


def _to_closing_fi(line: str, pos: int, depth: int) -> int:
    r"""Where the ``\fi`` closing the skipped block ends, or minus the depth left at the
    end of the line (the block goes on)."""
    for match in _IF_OR_FI.finditer(line, pos):
        depth += -1 if match.group(0) == "\\fi" else 1
        if depth == 0:
            return match.end()
    return -depth


def flatten(main_name: str, main_text: str, reader: FileReader) -> Flat:
    """The main file with its inputs expanded, comments stripped, and its line map."""
    flattener = _Flattener(reader)
    flattener.add_file(main_name, main_text, (main_name.removesuffix(".tex"),))
    return flattener.result()
