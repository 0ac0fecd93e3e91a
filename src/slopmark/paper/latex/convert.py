r"""LaTeX → text in three modes: prose, structure and plain (titles and captions).

One pass of a compiled tokenizer. In every mode commands that format text are
unwrapped (``\emph{x}`` → x), layout and bookkeeping commands are dropped
with their arguments (``\vspace{..}``, ``\includegraphics[..]{..}``), and an
unknown command is dropped while its braces' content flows on. Footnotes are
dropped: their text interrupts the sentence that holds them.

- prose: floats and captions removed; math (``$..$``, ``\(..\)``, ``\[..\]``,
  display environments) → ``zzmath``, citation commands → ``zzcite``,
  reference commands → ``zzref``; ``\nocite`` prints nothing.
- structure: as prose, but citations, references and labels are written out
  (``[citep: a, b]``, ``[ref: fig:x]``, ``[label: fig:x]``) and each float is
  one line with its kind, environment, labels and caption.
- plain: one-line text for a title or caption; math keeps its source letters
  and the symbols its commands print (``\times`` → ×, ``\to`` → →).

`Converted` keeps a map from output offsets back to source positions and the
output offset of every citation and reference, so sentences find theirs.
"""

from __future__ import annotations

import bisect
import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Literal

from slopmark.paper.document import CITE_TOKEN, MATH_TOKEN, REF_TOKEN, Citation, Float, Reference
from slopmark.paper.latex import commands as cmd
from slopmark.paper.latex.floats import EQUATIONS, FLOAT_KINDS, Region
from slopmark.paper.latex.symbols import CHARACTERS, print_symbols
from slopmark.paper.latex.tables import TABULARS

Mode = Literal["prose", "structure", "plain"]
_TOKEN = re.compile(r"\\(?:[A-Za-z@]+\*?|.)|\$\$?|[{}~]|\n[ \t]*\n\s*", re.S)
_ENV_NAME = re.compile(r"\s*\{([^{}]*)\}")
_INLINE_END = re.compile(r"\\.|\$|\n[ \t]*\n", re.S)
_SENTENCE_END = re.compile(r"\.\s*(?:\\(?:[,;!]|q?quad|nonumber|notag|label\{[^{}]*\})\s*)*$")
_MATH_WORD = re.compile(rf"\\[A-Za-z]+|[^A-Za-z0-9+\-=<>(). {CHARACTERS}]")
_MATH_ENVS = EQUATIONS | {"math", "dmath", "dmath*", "subequations", "IEEEeqnarray"}
_SKIPPED_ENVS = TABULARS | {
    "verbatim", "verbatim*", "Verbatim", "BVerbatim", "lstlisting", "minted", "alltt",
    "comment", "filecontents", "filecontents*", "tikzpicture", "picture", "pgfpicture",
    "algorithmic", "algorithmic*", "thebibliography", "axis", "forest", "tikzcd",
}  # fmt: skip
#: Commands replaced by text.
_REPLACE = {
    "%": "%", "&": "&", "$": "$", "#": "#", "_": "_", "{": "{", "}": "}", "\\": " ", " ": " ",
    ",": " ", ";": " ", ":": " ", "!": "", "-": "", "/": "", "@": "", "quad": " ", "qquad": " ",
    "ldots": "…", "dots": "…", "textellipsis": "…", "eg": "e.g.", "ie": "i.e.", "etal": "et al.",
    "wrt": "w.r.t.", "etc": "etc.", "vs": "vs.", "cf": "cf.", "textasciitilde": "~",
    "textendash": "–", "textemdash": "—", "LaTeX": "LaTeX", "TeX": "TeX", "S": "§",
    "textsection": "§", "times": "×", "texttimes": "×", "pm": "±", "textpm": "±",
    "textrightarrow": "→", "textleftarrow": "←", "textuparrow": "↑", "textdownarrow": "↓",
    "textdegree": "°", "checkmark": "✓",
    "newline": " ", "linebreak": " ", "textquotesingle": "'", "textbackslash": "\\",
    "textless": "<", "textgreater": ">", "textbar": "|", "item": "\n\n", "par": "\n\n",
}  # fmt: skip
#: Commands dropped with their arguments: (optional, required).
_DROP = {
    "label": (0, 1), "includegraphics": (1, 1), "vspace": (0, 1), "hspace": (0, 1),
    "footnote": (1, 1), "footnotemark": (1, 0), "footnotetext": (1, 1), "caption": (1, 1),
    "captionof": (1, 2), "subcaption": (1, 1), "bibliographystyle": (0, 1),
    "bibliography": (0, 1), "url": (0, 1), "setlength": (0, 2), "addtolength": (0, 2),
    "setcounter": (0, 2), "addtocounter": (0, 2), "color": (1, 1), "definecolor": (0, 3),
    "thanks": (0, 1), "todo": (1, 1), "marginpar": (1, 1), "index": (0, 1), "phantom": (0, 1),
    "hphantom": (0, 1), "vphantom": (0, 1), "newcommand": (2, 2), "renewcommand": (2, 2),
    "providecommand": (2, 2), "DeclareMathOperator": (0, 2), "newcolumntype": (1, 2),
    "graphicspath": (0, 1), "textcolor": (1, 1), "colorbox": (1, 1), "href": (0, 1),
    "resizebox": (0, 2), "scalebox": (0, 1), "raisebox": (2, 1), "makebox": (2, 0),
    "framebox": (2, 0), "parbox": (1, 1), "rule": (1, 2), "kern": (0, 0), "hyperlink": (0, 1),
    "hypertarget": (0, 1), "linewidth": (0, 0), "section": (1, 1), "subsection": (1, 1),
    "subsubsection": (1, 1), "paragraph": (1, 1), "input": (0, 1), "include": (0, 1),
    "author": (1, 1), "title": (1, 1), "affiliation": (1, 1), "email": (0, 1),
    "fontsize": (0, 2), "selectfont": (0, 0), "enlargethispage": (0, 1), "subfloat": (1, 0),
    "cellcolor": (1, 1), "rowcolor": (1, 1), "multicolumn": (0, 2), "multirow": (1, 2),
    "fcolorbox": (0, 2), "tag": (0, 1), "texorpdfstring": (0, 1), "nocite": (0, 1),
    "newtheorem": (1, 2),
}  # fmt: skip
_ENV_ARGS = {"minipage": (1, 1), "multicols": (0, 1), "adjustbox": (0, 1), "tcolorbox": (1, 0),
             "list": (0, 2), "otherlanguage": (0, 1)}  # fmt: skip


@dataclass(frozen=True)
class Lookup:
    """What the scan found, by source position, for the converter to print."""

    citations: Mapping[int, Citation] = field(default_factory=dict)
    references: Mapping[int, Reference] = field(default_factory=dict)
    floats: Mapping[int, Float] = field(default_factory=dict)
    regions: Mapping[int, Region] = field(default_factory=dict)
    #: The paper's pointer macros: name → (wrapped command, text printed before).
    pointers: Mapping[str, tuple[str, str]] = field(default_factory=dict)
    #: The paper's text macros: name → text.
    texts: Mapping[str, str] = field(default_factory=dict)


@dataclass(frozen=True)
class Converted:
    """Output text, where each output piece came from, and the citations/references in it."""

    text: str
    offsets: tuple[int, ...]
    sources: tuple[int, ...]
    linear: tuple[bool, ...]
    marks: tuple[tuple[int, Citation | Reference], ...]

    def source_pos(self, offset: int) -> int:
        """The source position an output offset came from."""
        index = bisect.bisect_right(self.offsets, offset) - 1
        if index < 0:
            return self.sources[0] if self.sources else 0
        step = offset - self.offsets[index] if self.linear[index] else 0
        return self.sources[index] + step


class _Converter:
    def __init__(self, text: str, masked: str, lookup: Lookup, mode: Mode) -> None:
        self.text, self.masked, self.lookup, self.mode = text, masked, lookup, mode
        self.out: list[str] = []
        self.size = 0
        self.offsets: list[int] = []
        self.sources: list[int] = []
        self.linear: list[bool] = []
        self.marks: list[tuple[int, Citation | Reference]] = []
        self.end = len(text)

    def emit(self, piece: str, src: int, linear: bool = False) -> None:
        if not piece:
            return
        self.offsets.append(self.size)
        self.sources.append(src)
        self.linear.append(linear)
        self.out.append(piece)
        self.size += len(piece)

    def run(self, start: int, end: int) -> Converted:
        self.end = end
        pos = start
        while pos < end:
            match = _TOKEN.search(self.masked, pos, end)
            stop = match.start() if match else end
            if stop > pos:
                self.emit(self.text[pos:stop].replace("\n", " "), pos, linear=True)
            if match is None:
                break
            pos = max(self.token(match), match.end())
        return Converted("".join(self.out), tuple(self.offsets), tuple(self.sources),
                         tuple(self.linear), tuple(self.marks))  # fmt: skip

    def token(self, match: re.Match[str]) -> int:
        token, start = match.group(0), match.start()
        if token[0] == "\n":
            self.emit("\n\n", start)
        elif token == "~":
            self.emit(" ", start)
        elif token[0] == "$":
            return self.inline_math(start, token)
        elif token[0] == "\\":
            return self.command(token[1:], start, match.end())
        return match.end()

    def command(self, name: str, start: int, pos: int) -> int:
        base = name.rstrip("*") or name
        if base in ("(", "["):
            return self.delimited_math(start, pos, "\\)" if base == "(" else "\\]")
        if base in ("begin", "end"):
            return self.environment(base, start, pos)
        if base in cmd.CITE or base in cmd.REF:
            return self.pointer(base, start, pos)
        if base in self.lookup.pointers:
            return self.macro_pointer(base, start, pos)
        if base == "verb":
            return self.verb(start, pos)
        return self.text_command(base, start, pos)

    def text_command(self, base: str, start: int, pos: int) -> int:
        """A command that prints text, is dropped with its arguments, or is unknown."""
        if base in _REPLACE:
            self.emit(_REPLACE[base], start)
            return cmd.read_optional(self.masked, pos, self.end)[1] if base == "item" else pos
        if base == "label" and self.mode == "structure":
            args = cmd.read_args(self.masked, pos, self.end, 0, 1)
            self.emit(f"[label: {args.required[0].strip() if args.required else ''}]", start)
            return args.end
        if base in _DROP:
            optional, required = _DROP[base]
            return cmd.read_args(self.masked, pos, self.end, optional, required).end
        if base in self.lookup.texts:
            self.emit(self.lookup.texts[base], start)
        return pos

    def macro_pointer(self, base: str, start: int, pos: int) -> int:
        command, before = self.lookup.pointers[base]
        if before and self.mode != "structure":
            self.emit(f"{before} ", start)
        return self.pointer(command, start, pos, required=1)

    def pointer(self, base: str, start: int, pos: int, required: int = 0) -> int:
        is_cite = base in cmd.CITE
        required = required or (2 if base in cmd.RANGE_REFS else 1)
        args = cmd.read_args(self.masked, pos, self.end, 2 if is_cite else 1, required)
        found = (self.lookup.citations if is_cite else self.lookup.references).get(start)
        sentinel = CITE_TOKEN if is_cite else REF_TOKEN
        if base == "nocite":
            return args.end
        if found is None or self.mode == "plain":
            self.emit(sentinel, start)
            return args.end
        self.marks.append((self.size, found))
        structure = f"[{found.command}: {', '.join(found.keys)}]"
        self.emit(structure if self.mode == "structure" else sentinel, start)
        return args.end

    def verb(self, start: int, pos: int) -> int:
        pos += pos < self.end and self.text[pos] == "*"
        if pos >= self.end:
            return pos
        close = self.text.find(self.text[pos], pos + 1, self.end)
        if close < 0:
            return pos + 1
        self.emit(self.text[pos + 1 : close], start)
        return close + 1

    def math(self, start: int, inner: str, display: bool) -> None:
        if self.mode == "plain":
            self.emit(" ".join(_MATH_WORD.sub(" ", print_symbols(inner)).split()), start)
            return
        period = "." if display and _SENTENCE_END.search(inner) else ""
        self.emit(f" {MATH_TOKEN}{period} " if display else MATH_TOKEN, start)

    def inline_math(self, start: int, token: str) -> int:
        pos = start + len(token)
        if token == "$$":
            close = self.masked.find("$$", pos, self.end)
            stop = close if close >= 0 else self.end
            self.math(start, self.masked[pos:stop], display=True)
            return stop + 2 if close >= 0 else stop
        for match in _INLINE_END.finditer(self.masked, pos, self.end):
            if match.group(0) == "$":
                self.math(start, self.masked[pos : match.start()], display=False)
                return match.end()
            if match.group(0)[0] == "\n":
                self.math(start, self.masked[pos : match.start()], display=False)
                return match.start()
        self.math(start, self.masked[pos : self.end], display=False)
        return self.end

    def delimited_math(self, start: int, pos: int, closer: str) -> int:
        close = self.masked.find(closer, pos, self.end)
        stop = close if close >= 0 else self.end
        self.math(start, self.masked[pos:stop], display=closer == "\\]")
        return stop + len(closer) if close >= 0 else stop

    def environment(self, base: str, start: int, pos: int) -> int:
        named = _ENV_NAME.match(self.masked, pos, self.end)
        if named is None:
            return pos
        name, after = named.group(1), named.end()
        region = self.lookup.regions.get(start) if base == "begin" else None
        if region is not None and name in FLOAT_KINDS:
            self.float_line(start)
            return region.end
        if region is not None and name in _MATH_ENVS:
            self.math(start, self.masked[region.inner : region.inner_end], display=True)
            return region.end
        if self.mode != "plain":
            self.emit("\n\n", start)
        if region is None:
            return after
        if name in _SKIPPED_ENVS:
            return region.end
        optional, required = _ENV_ARGS.get(name, (1, 0))
        return cmd.read_args(self.masked, after, self.end, optional, required).end

    def float_line(self, start: int) -> None:
        found = self.lookup.floats.get(start)
        if self.mode != "structure" or found is None:
            return
        labels = ", ".join(found.labels) or "-"
        cells = sum(table.numeric_cells for table in found.tables)
        tables = f" tables={len(found.tables)} numeric_cells={cells}" if found.tables else ""
        self.emit(f"[{found.kind} {found.environment} labels: {labels}{tables}] "
                  f"{found.caption}\n\n", start)  # fmt: skip


def convert(text: str, masked: str, start: int, end: int, lookup: Lookup, mode: Mode) -> Converted:
    """Convert ``text[start:end]`` (scanning ``masked``, the same text with verbatim blanked)."""
    return _Converter(text, masked, lookup, mode).run(start, end)


def plain_text(latex: str) -> str:
    """One line of readable text from a LaTeX fragment (a title or a caption)."""
    converted = _Converter(latex, latex, Lookup(), "plain").run(0, len(latex))
    return " ".join(converted.text.split())
