r"""Brace-aware reading of command arguments, and the names of the commands we follow.

`read_args` reads ``[optional]`` and ``{required}`` arguments after a command.
An unbalanced ``{`` does not stop the reader: the argument is taken to run to
the end of its paragraph (the next blank line, at most `MAX_UNCLOSED`
characters on) and `Args.ok` is False so the caller can leave a `Note`.
"""

from __future__ import annotations

import functools
import re
from dataclasses import dataclass

_BRACE = re.compile(r"\\.|[{}]", re.S)
_BRACKET = re.compile(r"\\.|[{}\[\]]", re.S)
_PARAGRAPH_END = re.compile(r"\n[ \t]*\n")
_SPACE = re.compile(r"[ \t]*\n?[ \t]*")
_TOKEN = re.compile(r"\\(?:[A-Za-z@]+|.)|.", re.S)
#: An unclosed ``{`` runs to the end of its paragraph, but no further than this many
#: characters: thousands of unclosed headings in one paragraph would otherwise each
#: take the rest of the text as their title (quadratic time on a 100 KB file).
MAX_UNCLOSED = 5000
_NEAR = 256

#: Citation commands of natbib, biblatex and plain LaTeX (``\nocite`` prints nothing).
CITE_NAMES = (
    "cite", "citep", "citet", "citealp", "citealt", "citeauthor", "citeyear", "citeyearpar",
    "citenum", "Cite", "Citep", "Citet", "Citealp", "Citealt", "Citeauthor", "parencite",
    "Parencite", "textcite", "Textcite", "autocite", "Autocite", "footcite", "footcitetext",
    "smartcite", "Smartcite", "supercite", "fullcite", "shortcite", "citeA", "citeNP", "nocite",
)  # fmt: skip
#: Reference commands of LaTeX, amsmath, hyperref, cleveref, varioref, nameref, subcaption.
REF_NAMES = (
    "ref", "autoref", "Autoref", "cref", "Cref", "crefrange", "Crefrange", "cpageref",
    "Cpageref", "labelcref", "namecref", "nameCref", "lcnamecref", "eqref", "pageref",
    "nameref", "Nameref", "vref", "Vref", "vrefrange", "vpageref", "subref", "Sref", "fref",
    "Fref", "hyperref",
)  # fmt: skip
#: Reference commands whose two required arguments are both keys.
RANGE_REFS = frozenset({"crefrange", "Crefrange", "vrefrange"})
HEADING_LEVELS = {"section": 1, "subsection": 2, "subsubsection": 3, "paragraph": 4}

CITE = frozenset(CITE_NAMES)
REF = frozenset(REF_NAMES)


@dataclass(frozen=True)
class Args:
    """The arguments read after a command and the position just after them."""

    optional: tuple[str, ...]
    required: tuple[str, ...]
    end: int
    ok: bool = True
    starred: bool = False


def skip_space(text: str, pos: int, end: int) -> int:
    """Past spaces and at most one newline (a blank line ends an argument list)."""
    match = _SPACE.match(text, pos, end)
    return match.end() if match else pos


def _paragraph_end(text: str, pos: int, end: int) -> int:
    match = _PARAGRAPH_END.search(text, pos, end)
    return match.start() if match else end


@functools.lru_cache(maxsize=8)
def _closings(text: str) -> dict[int, int]:
    """Each ``{`` of ``text`` (read as `read_group` reads: escapes skipped) → the end of
    the ``}`` closing it, -1 when none does. One pass, so reading every group of a text
    stays linear (scanning from each unclosed ``{`` to the end was quadratic)."""
    closings: dict[int, int] = {}
    opened: list[int] = []
    for match in _BRACE.finditer(text):
        char = match.group(0)
        if char == "{":
            opened.append(match.start())
        elif char == "}" and opened:
            closings[opened.pop()] = match.end()
    closings.update(dict.fromkeys(opened, -1))
    return closings


def _scan_closing(text: str, pos: int, end: int) -> int | None:
    depth = 0
    for match in _BRACE.finditer(text, pos, end):
        char = match.group(0)
        if char in "{}":
            depth += 1 if char == "{" else -1
            if depth == 0:
                return match.end()
    return None


def _closing(text: str, pos: int, end: int) -> int | None:
    """The end of the ``}`` closing the ``{`` at ``pos`` before ``end``, else None: read
    from ``pos`` for a few thousand characters, then from the pass over the whole text."""
    window = min(end, pos + _NEAR)
    near = _scan_closing(text, pos, window)
    if near is not None or window == end:
        return near
    known = _closings(text).get(pos)
    if known is None:  # ``pos`` is an escaped brace in a reading from the start
        return _scan_closing(text, pos, end)
    return known if 0 < known <= end else None


def read_group(text: str, pos: int, end: int) -> tuple[str, int, bool]:
    """The content of the ``{...}`` opening at ``pos``, the position after it, and
    whether it closed (if not, it runs to the end of the paragraph)."""
    closed = _closing(text, pos, end)
    if closed is not None:
        return text[pos + 1 : closed - 1], closed, True
    stop = _paragraph_end(text, pos, min(end, pos + MAX_UNCLOSED))
    return text[pos + 1 : stop], stop, False


def read_optional(text: str, pos: int, end: int) -> tuple[str | None, int]:
    """The content of a ``[...]`` at ``pos`` (brackets inside braces ignored), or None."""
    if pos >= end or text[pos] != "[":
        return None, pos
    depth = 0
    for match in _BRACKET.finditer(text, pos + 1, min(end, pos + 2000)):
        char = match.group(0)
        if char == "{":
            depth += 1
        elif char == "}":
            depth -= 1
        elif char == "]" and depth <= 0:
            return text[pos + 1 : match.start()], match.end()
    return None, pos


def _read_required(text: str, pos: int, end: int) -> tuple[str, int, bool]:
    if pos >= end:
        return "", pos, False
    if text[pos] == "{":
        return read_group(text, pos, end)
    if text[pos] in "}[]":
        return "", pos, False
    token = _TOKEN.match(text, pos, end)
    assert token is not None
    return token.group(0), token.end(), True


def read_args(text: str, pos: int, end: int, optional: int = 0, required: int = 1) -> Args:
    """Up to ``optional`` ``[..]`` arguments (a leading ``*`` skipped) then ``required``
    ``{..}`` arguments, starting right after the command name at ``pos``."""
    starred = pos < end and text[pos] == "*"
    pos += starred
    opts: list[str] = []
    for _ in range(optional):
        value, after = read_optional(text, skip_space(text, pos, end), end)
        if value is None:
            break
        opts.append(value)
        pos = after
    reqs: list[str] = []
    ok = True
    for _ in range(required):
        value, pos, closed = _read_required(text, skip_space(text, pos, end), end)
        ok = ok and closed
        reqs.append(value)
        if not closed:
            break
    return Args(tuple(opts), tuple(reqs), pos, ok, bool(starred))


def split_keys(arg: str) -> tuple[str, ...]:
    """Comma-separated keys, stripped, empty ones dropped."""
    return tuple(key for part in arg.split(",") if (key := part.strip()))
