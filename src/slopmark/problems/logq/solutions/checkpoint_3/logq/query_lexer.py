"""Split a query expression into tokens, each remembering its 1-based column."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from enum import Enum

from logq.errors import QueryError


class Kind(Enum):
    """The kinds of token a query is made of."""

    LPAREN = "'('"
    RPAREN = "')'"
    OPERATOR = "operator"
    STRING = "string"
    WORD = "word"
    AND = "AND"
    OR = "OR"
    NOT = "NOT"
    END = "end of query"


@dataclass(frozen=True)
class Token:
    """One token: its kind, its text (unescaped for strings) and its column."""

    kind: Kind
    text: str
    column: int


OPERATORS = ("!=", "<=", ">=", "=", "<", ">", "~")
_KEYWORDS = {"AND": Kind.AND, "OR": Kind.OR, "NOT": Kind.NOT}
_WORD_STOPS = frozenset('()"=!<>~')
_STRING_ESCAPES = {'"': '"', "\\": "\\"}


def tokenize(query: str) -> Iterator[Token]:
    """Yield the tokens of ``query`` lazily, so an error is raised only when reached.

    The last token is END, placed one past the last non-blank character (column 1 if none).
    """
    pos = 0
    while pos < len(query):
        if query[pos].isspace():
            pos += 1
            continue
        token, pos = _next_token(query, pos)
        yield token
    yield Token(Kind.END, "", len(query.rstrip()) + 1)


def _next_token(query: str, pos: int) -> tuple[Token, int]:
    char = query[pos]
    if char in "()":
        kind = Kind.LPAREN if char == "(" else Kind.RPAREN
        return Token(kind, char, pos + 1), pos + 1
    if char == '"':
        return _read_string(query, pos)
    for operator in OPERATORS:
        if query.startswith(operator, pos):
            return Token(Kind.OPERATOR, operator, pos + 1), pos + len(operator)
    if char in _WORD_STOPS:
        raise QueryError(pos + 1, f"unexpected character {char!r}")
    return _read_word(query, pos)


def _read_string(query: str, pos: int) -> tuple[Token, int]:
    opening = pos
    chars: list[str] = []
    pos += 1
    while pos < len(query):
        char = query[pos]
        if char == '"':
            return Token(Kind.STRING, "".join(chars), opening + 1), pos + 1
        if char == "\\" and pos + 1 < len(query):
            following = query[pos + 1]
            chars.append(_STRING_ESCAPES.get(following, char + following))
            pos += 2
            continue
        chars.append(char)
        pos += 1
    raise QueryError(opening + 1, "unterminated string")


def _read_word(query: str, pos: int) -> tuple[Token, int]:
    start = pos
    while pos < len(query) and not query[pos].isspace() and query[pos] not in _WORD_STOPS:
        pos += 1
    text = query[start:pos]
    kind = _KEYWORDS.get(text.upper(), Kind.WORD)
    return Token(kind, text, start + 1), pos
