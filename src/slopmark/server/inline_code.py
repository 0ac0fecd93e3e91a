"""Docstring text as paragraphs of plain and code pieces, for pages that show it (``/docs``).

The API's descriptions are the routes' docstrings, written in
reStructuredText: ````literal````, ```reference``` and ``:role:`target``` mark
code. A page would otherwise show the backticks raw. This module only splits
the text; the template puts each code piece in ``<code>`` and lets Jinja
escape every piece, so no markup from a docstring reaches the page as HTML.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

__all__ = ["Piece", "paragraphs", "pieces"]

#: ``literal``, then :role:`target` or `reference` (a trailing _ of a link reference dropped)
_CODE = re.compile(r"``(?P<literal>.+?)``|(?::[\w:.-]+:)?`(?P<name>[^`]+?)`_{0,2}", re.DOTALL)


@dataclass(frozen=True)
class Piece:
    text: str
    code: bool = False


def pieces(text: str) -> tuple[Piece, ...]:
    """``text`` cut into plain pieces and code pieces (the backticks removed)."""
    found: list[Piece] = []
    at = 0
    for match in _CODE.finditer(text):
        if match.start() > at:
            found.append(Piece(text[at : match.start()]))
        found.append(Piece(match.group("literal") or match.group("name"), code=True))
        at = match.end()
    if at < len(text):
        found.append(Piece(text[at:]))
    return tuple(found)


def paragraphs(text: str) -> tuple[tuple[Piece, ...], ...]:
    """``text``'s paragraphs (split at blank lines, lines joined), each as `pieces`."""
    blocks = re.split(r"\n\s*\n", text.strip())
    return tuple(pieces(" ".join(block.split())) for block in blocks if block.strip())
