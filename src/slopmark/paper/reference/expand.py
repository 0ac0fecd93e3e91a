r"""The release's single LaTeX text: comments cut, ``\input``/``\include`` expanded.

Facts from the release (yerimoh/ScientificSlop, ``scislop/_common/views.py``,
``expand_tex``), re-implemented here:

- every file loses its comments before expansion: a ``%`` not preceded by a
  backslash ends the line's text (the newline stays, so lines keep their numbers);
- only the braced forms ``\input{name}`` and ``\include{name}`` are expanded, in
  place, wrapped in newlines; a name is tried as written, with ``.tex``, with
  ``/`` replaced by ``__`` (with and without ``.tex``), then as its base name;
- a file already expanded once expands to nothing the second time, and files
  deeper than four levels below the main file expand to nothing;
- a name that resolves to no file leaves the line ``% MISSING INPUT name``.

Files are read through the caller's `FileReader`, so the reader's safety rules
(nothing outside the paper's folder, no FIFO or device) hold for this view too: a
name the reader refuses reads as a name that resolves to no file.
"""

from __future__ import annotations

import bisect
import posixpath
import re
from collections.abc import Mapping
from dataclasses import dataclass, field

from slopmark.paper.document import Span
from slopmark.paper.latex.files import FileReader, OutsideFolder
from slopmark.regular import Unreadable

MAX_DEPTH = 4
_COMMENT = re.compile(r"(?<!\\)%.*")
_INCLUDE = re.compile(r"\\(?:input|include)\{([^}]+)\}")


@dataclass(frozen=True)
class RefSource:
    """The expanded text and, for any offset in it, the file and line it came from."""

    text: str
    #: (offset in text, file, line number of that offset minus the newlines before it).
    pieces: tuple[tuple[int, str, int], ...]
    newlines: tuple[int, ...]
    missing: tuple[str, ...] = ()
    #: Label key → the name the paper prints for it ("Equation (3)", "Table 2"), from the
    #: LaTeX route's numbering, so findings name objects as a reader sees them.
    printed: Mapping[str, str] = field(default_factory=dict)

    def span(self, pos: int) -> Span:
        index = max(0, bisect.bisect_right([p[0] for p in self.pieces], pos) - 1)
        if not self.pieces:
            return Span("", 1)
        _, file, base = self.pieces[index]
        return Span(file, base + bisect.bisect_left(self.newlines, pos))


@dataclass
class _Expander:
    reader: FileReader
    text: list[str] = field(default_factory=list)
    size: int = 0
    pieces: list[tuple[int, str, int]] = field(default_factory=list)
    missing: list[str] = field(default_factory=list)
    seen: set[str] = field(default_factory=set)
    newlines_so_far: int = 0

    def emit(self, chunk: str, file: str, line: int) -> None:
        if not chunk:
            return
        self.pieces.append((self.size, file, line - self.newlines_so_far))
        self.text.append(chunk)
        self.size += len(chunk)
        self.newlines_so_far += chunk.count("\n")

    def expand(self, name: str, raw: str, depth: int) -> None:
        if depth > MAX_DEPTH or name in self.seen:
            return
        self.seen.add(name)
        text = _COMMENT.sub("", raw)
        last = 0
        for match in _INCLUDE.finditer(text):
            self.emit(text[last : match.start()], name, 1 + text.count("\n", 0, last))
            self.include(match.group(1), name, 1 + text.count("\n", 0, match.start()), depth)
            last = match.end()
        self.emit(text[last:], name, 1 + text.count("\n", 0, last))

    def include(self, target: str, file: str, line: int, depth: int) -> None:
        found = self.resolve(target.strip())
        if found is None:
            self.missing.append(target)
            self.emit(f"\n% MISSING INPUT {target}\n", file, line)
            return
        self.emit("\n", file, line)
        self.expand(found[0], found[1], depth + 1)
        self.emit("\n", file, line)

    def resolve(self, name: str) -> tuple[str, str] | None:
        for candidate in (name, name.replace("/", "__"), posixpath.basename(name)):
            try:
                found = self.reader(candidate) if candidate else None
            except (OutsideFolder, Unreadable):  # never read: as a missing file
                found = None
            if found is not None:
                return found
        return None


def expand(main: str, text: str, reader: FileReader) -> RefSource:
    """The release's expanded text of ``main`` (whose text is given) and its line map."""
    expander = _Expander(reader)
    expander.expand(main, text, 0)
    joined = "".join(expander.text)
    newlines = tuple(m.start() for m in re.finditer("\n", joined))
    return RefSource(joined, tuple(expander.pieces), newlines, tuple(expander.missing))
