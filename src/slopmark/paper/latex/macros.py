r"""The paper's own macros that matter to the views.

- Pointer macros: a one-argument ``\newcommand`` (or ``\def``) whose body
  wraps one reference or citation command around ``#1``, as
  ``\newcommand{\figref}[1]{Figure~\ref{fig:#1}}``. ``\figref{x}`` is then a
  reference to ``fig:x`` by ``\ref``, printed "Figure zzref" in the prose.
- Text macros: an argument-free macro whose body is short text, as
  ``\newcommand{\method}{\textsc{FooNet}\xspace}``; the prose prints the text.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from slopmark.paper.latex import commands as cmd
from slopmark.paper.latex.convert import plain_text

_DEFINITION = re.compile(
    r"\\(?:(?:re)?newcommand|providecommand|DeclareRobustCommand)\*?\s*\{?\s*\\([A-Za-z@]+)\s*\}?"
    r"\s*(?:\[(\d)\])?\s*(?=\{)|\\(?:g|e|x)?def\s*\\([A-Za-z@]+)\s*(#1)?\s*(?=\{)"
)
_INNER = re.compile(r"\\([A-Za-z]+)\*?\s*(?:\[[^\]]*\]\s*)*\{([^{}]*#1[^{}]*)\}")
#: Commands that make a macro body more than short text.
_NOT_TEXT = re.compile(r"\\(?:ref|cite|label|begin|def|new)")
_MAX_TEXT = 40


@dataclass(frozen=True)
class PointerMacro:
    name: str
    #: The reference or citation command the macro wraps.
    command: str
    #: The key with ``#1`` where the argument goes (``fig:#1``).
    template: str
    #: The text printed before the pointer ("Figure").
    before: str


@dataclass(frozen=True)
class Macros:
    pointers: dict[str, PointerMacro]
    texts: dict[str, str]


def _pointer(name: str, body: str) -> PointerMacro | None:
    inner = _INNER.search(body)
    if inner is None or inner.group(1) not in cmd.CITE | cmd.REF:
        return None
    return PointerMacro(name, inner.group(1), inner.group(2), plain_text(body[: inner.start()]))


def _text(body: str) -> str | None:
    if "#" in body or _NOT_TEXT.search(body):
        return None
    text = plain_text(body)
    return text if text and len(text) <= _MAX_TEXT else None


def _definition(masked: str, match: re.Match[str]) -> tuple[str, int, str] | None:
    """(name, arity, body) of a macro definition, or None when unusable."""
    name = match.group(1) or match.group(3)
    arity = int(match.group(2) or 0) if match.group(1) else (1 if match.group(4) else 0)
    body, _, closed = cmd.read_group(masked, match.end(), min(len(masked), match.end() + 2000))
    if not closed or name in cmd.CITE or name in cmd.REF:
        return None
    return name, arity, body


def find_macros(masked: str) -> Macros:
    """The pointer and text macros a source defines."""
    pointers: dict[str, PointerMacro] = {}
    texts: dict[str, str] = {}
    if "def" not in masked and "command" not in masked:
        return Macros(pointers, texts)
    for match in _DEFINITION.finditer(masked):
        found = _definition(masked, match)
        if found is None:
            continue
        name, arity, body = found
        if arity == 1 and (pointer := _pointer(name, body)) is not None:
            pointers[name] = pointer
        elif arity == 0 and (text := _text(body)) is not None:
            texts[name] = text
    return Macros(pointers, texts)
