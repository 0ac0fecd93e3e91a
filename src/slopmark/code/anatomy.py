"""One traversal of a module's syntax tree that feeds every code measure.

A file is parsed once; this walk then records, in a single pass,

* the **callables** (functions reachable from the module through class and
  function bodies) with their cyclomatic complexity,
* the **clone candidates** (function definitions and compound statements)
  as slices of a flat, normalised token stream,
* the **string literals** that span lines and the **plain-string statements**
  (docstrings), which the SLOC count needs.

Decision points (SlopCodeBench, "structural erosion"): ``if``, ``elif``,
``for``, ``while``, ``except``, ``assert``, each comprehension and generator
expression, each comprehension ``if`` clause (and ``case`` guard), each binary
``and``/``or`` (``a and b and c`` counts 2) and each conditional expression.
``match``/``case``, ``with``, ``try``-``else`` and loop-``else`` add nothing.
"""

from __future__ import annotations

import ast
from array import array
from collections.abc import Callable as Callable_
from dataclasses import dataclass
from itertools import accumulate
from typing import Any

from slopmark.code.strings import STRING_TOKEN, count_tokens

#: Node classes that add one decision point each.
DECISION_NODES: frozenset[type[ast.AST]] = frozenset(
    {
        ast.If,
        ast.For,
        ast.AsyncFor,
        ast.While,
        ast.ExceptHandler,
        ast.Assert,
        ast.ListComp,
        ast.SetComp,
        ast.DictComp,
        ast.GeneratorExp,
        ast.IfExp,
    }
)

#: Statements that are clone candidates (besides function definitions).
BLOCK_CANDIDATES: frozenset[type[ast.AST]] = frozenset(
    {
        ast.If,
        ast.For,
        ast.AsyncFor,
        ast.While,
        ast.With,
        ast.AsyncWith,
        ast.Try,
        ast.TryStar,
        ast.Match,
    }
)

_FUNCTIONS = (ast.FunctionDef, ast.AsyncFunctionDef)
_SKIPPED_FIELDS = frozenset({"ctx", "type_comment", "kind", "decorator_list"})
_DOTTED_FIELDS = frozenset({(ast.alias, "name"), (ast.ImportFrom, "module")})

# Shape tokens that are not node classes.
IDENT, CLOSE, SEP, ABSENT = -1, -2, -3, -4
_STRING_TOKEN, _CONCAT_TOKEN = -10, -16
_LITERAL_TOKENS = {bool: -11, int: -12, float: -13, complex: -13}
_NONE_TOKEN, _ELLIPSIS_TOKEN = -14, -15

# Token ids of node classes: fixed by name so every process agrees on them.
_NODE_CLASSES = sorted(
    (c for c in vars(ast).values() if isinstance(c, type) and issubclass(c, ast.AST)),
    key=lambda c: c.__name__,
)
_TYPE_IDS: dict[type, int] = {cls: index for index, cls in enumerate(_NODE_CLASSES)}
_FIELDS: dict[type, tuple[str, ...]] = {
    cls: tuple(f for f in cls._fields if f not in _SKIPPED_FIELDS) for cls in _NODE_CLASSES
}


@dataclass(frozen=True, slots=True)
class Callable:
    """A function or method with its complexity.

    ``start`` is the ``def`` line (decorators excluded), ``end`` its last line.
    """

    qualname: str
    start: int
    end: int
    cc: int


@dataclass(frozen=True, slots=True)
class Candidate:
    """A clone candidate: a line span and its slices of the token streams."""

    kind: str
    start: int
    end: int
    shape: tuple[int, int]
    names: tuple[int, int]


@dataclass(frozen=True, slots=True)
class Span:
    """A source region in (1-based line, UTF-8 byte column) coordinates."""

    line: int
    col: int
    end_line: int
    end_col: int


@dataclass(frozen=True, slots=True)
class Anatomy:
    """Everything one walk of a module records."""

    callables: tuple[Callable, ...]
    candidates: tuple[Candidate, ...]
    shape: bytes
    names: tuple[str, ...]
    multiline_strings: tuple[Span, ...]
    string_statements: tuple[Span, ...]


def _literal_token(value: object) -> int:
    if value is None:
        return _NONE_TOKEN
    if value is Ellipsis:
        return _ELLIPSIS_TOKEN
    return _LITERAL_TOKENS[type(value)]


def _span(node: ast.expr | ast.stmt) -> Span:
    end_line = node.end_lineno or node.lineno
    return Span(node.lineno, node.col_offset, end_line, node.end_col_offset or 0)


def _plainly_one_token(segment: bytes) -> bool:
    """A quick yes for the usual single-line literal: its quote char occurs only at its ends."""
    quote = segment[-1:]
    return (
        quote in (b"'", b'"')
        and segment.count(quote) == 2
        and segment.find(quote) <= 2  # after a prefix of at most two letters
        and b"\\" not in segment
    )


def _is_string_statement(node: ast.stmt) -> bool:
    return (
        type(node) is ast.Expr
        and type(node.value) is ast.Constant
        and type(node.value.value) is str
    )


def _qualify(scope: str | None, name: str) -> str | None:
    """The qualname of ``name`` inside ``scope``; None where defs are not callables."""
    if scope is None:
        return None
    return f"{scope}.{name}" if scope else name


def _is_type_checking(test: ast.expr) -> bool:
    if type(test) is ast.Name:
        return test.id == "TYPE_CHECKING"
    return (
        type(test) is ast.Attribute
        and test.attr == "TYPE_CHECKING"
        and type(test.value) is ast.Name
        and test.value.id == "typing"
    )


class _Walker:
    def __init__(self, lines: list[bytes]) -> None:
        self.lines = lines
        self.shape = array("i")
        self.names: list[str] = []
        self.decisions = 0
        self.callables: list[Callable] = []
        self.candidates: list[Candidate] = []
        self.strings: list[Span] = []
        self.statements: list[Span] = []
        self.starts: list[int] | None = None
        self.data = b""

    # -- dispatch -----------------------------------------------------------
    def visit(self, node: Any, scope: str | None) -> None:
        """Emit ``node``; ``scope`` is the qualname prefix when defs here are callables."""
        cls = type(node)
        if cls is ast.Name:
            self.shape.extend(_NAME_SHAPE)
            self.names.append(node.id)
            return
        if cls is ast.Attribute:
            self.shape.append(_ATTRIBUTE_ID)
            self.visit(node.value, None)
            self.shape.extend(_NAME_TAIL)
            self.names.append(node.attr)
            return
        if cls is ast.Constant:
            self.visit_constant(node)
            return
        if cls is ast.Call:
            self.shape.append(_CALL_ID)
            self.visit(node.func, None)
            self.emit_list(node.args, None)
            if node.keywords:
                self.emit_list(node.keywords, None)
                self.shape.append(CLOSE)
            else:
                self.shape.extend(_NO_KEYWORDS)
            return
        special = _SPECIAL.get(cls)
        if special is not None:
            special(self, node, scope)
        elif _FIELDS[cls]:
            if cls in DECISION_NODES:
                self.decisions += 1
            self.emit(node, cls, None)
        else:
            self.shape.append(_TYPE_IDS[cls])

    def emit(self, node: Any, cls: type, body_scope: str | None) -> None:
        shape = self.shape
        shape.append(_TYPE_IDS[cls])
        for field in _FIELDS[cls]:
            value = getattr(node, field)
            if type(value) is list:
                if value:
                    self.emit_list(value, body_scope if field == "body" else None)
                else:
                    shape.append(SEP)
            elif isinstance(value, ast.AST):
                self.visit(value, None)
            elif type(value) is str:
                self.emit_name(value, (cls, field) in _DOTTED_FIELDS)
            elif value is None:
                shape.append(ABSENT)
            else:
                shape.append(_literal_token(value))
        shape.append(CLOSE)

    def emit_list(self, items: list[Any], scope: str | None) -> None:
        visit = self.visit
        for item in items:
            if type(item) is ast.Expr and _is_string_statement(item):
                self.statements.append(_span(item))
                self.note_string(item.value)
            elif isinstance(item, ast.AST):
                visit(item, scope)
            elif type(item) is str:
                self.emit_name(item, dotted=False)
            else:
                self.shape.append(ABSENT)
        self.shape.append(SEP)

    def emit_name(self, name: str, dotted: bool) -> None:
        parts = name.split(".") if dotted else (name,)
        for part in parts:
            self.shape.append(IDENT)
            self.names.append(part)

    # -- special nodes ------------------------------------------------------
    def visit_counted(self, node: ast.AST, scope: str | None) -> None:
        """A node whose decision points are not simply one per node."""
        cls = type(node)
        self.count_decisions(node, cls)
        self.emit(node, cls, None)

    def count_decisions(self, node: Any, cls: type) -> None:
        if cls in DECISION_NODES:
            self.decisions += 1
        elif cls is ast.BoolOp:
            self.decisions += len(node.values) - 1
        elif cls is ast.comprehension:
            self.decisions += len(node.ifs)
        elif cls is ast.match_case and node.guard is not None:
            self.decisions += 1

    def visit_constant(self, node: ast.Constant) -> None:
        if type(node.value) in (str, bytes):
            self.emit_string(node)
        else:
            self.shape.append(_literal_token(node.value))

    def visit_fstring(self, node: ast.JoinedStr) -> None:
        """An f-string is one string token, but the decisions inside it count."""
        for inner in ast.walk(node):
            if type(inner) is not ast.JoinedStr:
                self.count_decisions(inner, type(inner))
        self.emit_string(node)

    def emit_string(self, node: ast.Constant | ast.JoinedStr) -> None:
        """Emit one STR per token, so ``"a" "b"`` differs from ``"ab"``."""
        parts = self.string_tokens(node)
        if parts == 1:
            self.shape.append(_STRING_TOKEN)
        else:
            self.shape.extend((_CONCAT_TOKEN, *(_STRING_TOKEN,) * parts, CLOSE))
        self.note_string(node)

    def string_tokens(self, node: ast.Constant | ast.JoinedStr) -> int:
        line, col, end_col = node.lineno, node.col_offset, node.end_col_offset or 0
        if node.end_lineno == line:
            text = self.lines[line - 1]
            if _plainly_one_token(text[col:end_col]):
                return 1
            token = STRING_TOKEN.match(text, col)
            if token is not None and token.end() == end_col:
                return 1
            return count_tokens(text, col, end_col)
        if self.starts is None:
            self.starts = [0, *accumulate(len(x) + 1 for x in self.lines)]
            self.data = b"\n".join(self.lines)
        start = self.starts[line - 1] + col
        end = self.starts[(node.end_lineno or line) - 1] + end_col
        return count_tokens(self.data, start, end)

    def note_string(self, node: ast.expr) -> None:
        if node.end_lineno != node.lineno:
            self.strings.append(_span(node))

    def visit_class(self, node: ast.ClassDef, scope: str | None) -> None:
        for decorator in node.decorator_list:
            self.visit(decorator, None)
        self.emit(node, ast.ClassDef, _qualify(scope, node.name))

    def visit_function(
        self, node: ast.FunctionDef | ast.AsyncFunctionDef, scope: str | None
    ) -> None:
        for decorator in node.decorator_list:
            self.visit(decorator, None)
        start = self.begin_candidate()
        before = self.decisions
        qualname = _qualify(scope, node.name) or node.name
        self.emit(node, type(node), _qualify(scope, node.name))
        end_line = node.end_lineno or node.lineno
        if scope is not None:
            cc = 1 + self.decisions - before
            self.callables.append(Callable(qualname, node.lineno, end_line, cc))
        self.end_candidate("def", node.lineno, end_line, start)

    def visit_block(self, node: Any) -> None:
        cls = type(node)
        self.count_decisions(node, cls)
        candidate = not (cls is ast.If and _is_type_checking(node.test))
        start = self.begin_candidate()
        if cls is ast.If:
            self.emit_if(node)
        else:
            self.emit(node, cls, None)
        if candidate:
            self.end_candidate(cls.__name__.lower(), node.lineno, node.end_lineno or 0, start)

    def emit_if(self, node: ast.If) -> None:
        """Emit an ``if`` whose ``elif`` branches are clauses, not candidates."""
        self.shape.append(_TYPE_IDS[ast.If])
        self.visit(node.test, None)
        self.emit_list(node.body, None)
        orelse = node.orelse
        if len(orelse) == 1 and type(orelse[0]) is ast.If and self.is_elif(orelse[0]):
            self.decisions += 1
            self.emit_if(orelse[0])
            self.shape.append(SEP)
        else:
            self.emit_list(orelse, None)
        self.shape.append(CLOSE)

    def is_elif(self, node: ast.If) -> bool:
        line = self.lines[node.lineno - 1]
        return line[node.col_offset : node.col_offset + 4] == b"elif"

    def begin_candidate(self) -> tuple[int, int]:
        return len(self.shape), len(self.names)

    def end_candidate(self, kind: str, line: int, end_line: int, start: tuple[int, int]) -> None:
        shape = (start[0], len(self.shape))
        names = (start[1], len(self.names))
        self.candidates.append(Candidate(kind, line, end_line, shape, names))


_NAME_SHAPE = (_TYPE_IDS[ast.Name], IDENT, CLOSE)
_NAME_TAIL = (IDENT, CLOSE)
_ATTRIBUTE_ID = _TYPE_IDS[ast.Attribute]
_CALL_ID = _TYPE_IDS[ast.Call]
_NO_KEYWORDS = (SEP, CLOSE)
_SPECIAL: dict[type, Callable_[[_Walker, Any, str | None], None]] = {
    ast.FunctionDef: _Walker.visit_function,
    ast.AsyncFunctionDef: _Walker.visit_function,
    ast.ClassDef: _Walker.visit_class,
    ast.JoinedStr: lambda walker, node, scope: walker.visit_fstring(node),
    ast.BoolOp: _Walker.visit_counted,
    ast.comprehension: _Walker.visit_counted,
    ast.match_case: _Walker.visit_counted,
    **{cls: lambda walker, node, scope: walker.visit_block(node) for cls in BLOCK_CANDIDATES},
}


def walk(tree: ast.Module, lines: list[bytes]) -> Anatomy:
    """Walk ``tree`` once; ``lines`` are the UTF-8 source lines it was parsed from."""
    walker = _Walker(lines)
    walker.emit(tree, ast.Module, "")
    return Anatomy(
        callables=tuple(walker.callables),
        candidates=tuple(walker.candidates),
        shape=walker.shape.tobytes(),
        names=tuple(walker.names),
        multiline_strings=tuple(walker.strings),
        string_statements=tuple(walker.statements),
    )
