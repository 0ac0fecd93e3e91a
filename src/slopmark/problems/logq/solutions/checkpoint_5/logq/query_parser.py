"""Recursive-descent parser from a query expression to :mod:`logq.query_ast` nodes.

Grammar (NOT binds tighter than AND, which binds tighter than OR)::

    expr       := and_expr ( OR and_expr )*
    and_expr   := not_expr ( AND not_expr )*
    not_expr   := NOT not_expr | "(" expr ")" | comparison
    comparison := FIELD OPERATOR VALUE
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from logq.errors import QueryError
from logq.filters import Condition
from logq.query_ast import And, Compare, Not, Or, Search, typed_value
from logq.query_lexer import Kind, Token, tokenize


def parse_query(query: str) -> Condition:
    """Parse ``query``; raise :class:`QueryError` with the column of the first problem."""
    return _Parser(tokenize(query)).parse()


def _describe(token: Token) -> str:
    return token.kind.value if token.kind is Kind.END else repr(token.text)


class _Parser:
    """Walks a token list once; each method parses one grammar rule."""

    def __init__(self, tokens: Iterator[Token]) -> None:
        self._tokens = tokens
        self._current = next(tokens)

    def parse(self) -> Condition:
        condition = self._or_expr()
        self._expect(Kind.END, "AND, OR or the end of the query")
        return condition

    def _peek(self) -> Token:
        return self._current

    def _advance(self) -> Token:
        token = self._current
        if token.kind is not Kind.END:
            self._current = next(self._tokens)
        return token

    def _expect(self, kind: Kind, wanted: str) -> Token:
        token = self._peek()
        if token.kind is not kind:
            raise QueryError(token.column, f"expected {wanted}, found {_describe(token)}")
        return self._advance()

    def _or_expr(self) -> Condition:
        condition = self._and_expr()
        while self._peek().kind is Kind.OR:
            self._advance()
            condition = Or(condition, self._and_expr())
        return condition

    def _and_expr(self) -> Condition:
        condition = self._not_expr()
        while self._peek().kind is Kind.AND:
            self._advance()
            condition = And(condition, self._not_expr())
        return condition

    def _not_expr(self) -> Condition:
        token = self._peek()
        if token.kind is Kind.NOT:
            self._advance()
            return Not(self._not_expr())
        if token.kind is Kind.LPAREN:
            self._advance()
            condition = self._or_expr()
            self._expect(Kind.RPAREN, "')'")
            return condition
        return self._comparison()

    def _comparison(self) -> Condition:
        field = self._expect(Kind.WORD, "a field name or '('").text
        operator = self._expect(Kind.OPERATOR, "an operator").text
        value = self._peek()
        if value.kind not in (Kind.STRING, Kind.WORD):
            raise QueryError(value.column, f"expected a value, found {_describe(value)}")
        if operator == "~":
            pattern = _compile(value)
            self._advance()
            return Search(field, pattern)
        self._advance()
        value_type, typed = typed_value(value.text, quoted=value.kind is Kind.STRING)
        return Compare(field, operator, value_type, typed)


def _compile(token: Token) -> re.Pattern[str]:
    try:
        return re.compile(token.text)
    except re.error as error:
        raise QueryError(token.column, f"invalid regular expression: {error}") from error
