"""Source lines of code, as SlopCodeBench counts them.

A line counts when a token other than a comment, newline, indent, dedent or
end marker starts on it (the tokenizer of Python 3.12, which the paper's
reference tool ran on, so a multi-line f-string also counts the lines where
its replacement fields and its closing quotes start). Lines of standalone
plain-string expression statements (docstrings and bare strings, not
f-strings or bytes) that own their lines are then removed. Blank,
comment-only and docstring lines never count.

The count is taken from the source lines plus the string spans one walk of
the syntax tree found (see `slopmark.code.anatomy`), without re-tokenizing.
"""

from __future__ import annotations

import re
from bisect import bisect_right
from collections.abc import Iterable
from itertools import accumulate

from slopmark.code.anatomy import Span
from slopmark.code.strings import STRING_TOKEN, tokens

_FIELD_BRACES = re.compile(rb"\{\{|\}\}|[{}]")


def code_lines(lines: list[bytes]) -> bytearray:
    """Mark (1-based) each line whose first non-blank character is not ``#``."""
    marks = bytearray(len(lines) + 1)
    for number, line in enumerate(lines, 1):
        first = line.lstrip()[:1]
        if first and first != b"#":
            marks[number] = 1
    return marks


def sloc_map(lines: list[bytes], strings: Iterable[Span], statements: Iterable[Span]) -> bytes:
    """Return a byte per line (index 0 unused): 1 where the line is SLOC.

    ``strings`` are the string literals spanning lines, ``statements`` the
    plain-string expression statements, both from the same walk.
    """
    marks = code_lines(lines)
    strings = tuple(strings)
    if strings:
        starts = [0, *accumulate(len(line) + 1 for line in lines)]
        data = b"\n".join(lines)
        for span in strings:
            _clear_string_interiors(marks, data, starts, span)
    for span in statements:
        if _owns_lines(lines, span) and _single_token(lines, span):
            marks[span.line : span.end_line + 1] = bytes(span.end_line - span.line + 1)
    return bytes(marks)


def _clear_string_interiors(marks: bytearray, data: bytes, starts: list[int], span: Span) -> None:
    """Unmark the lines inside multi-line string tokens of a literal's span."""
    start = starts[span.line - 1] + span.col
    end = starts[span.end_line - 1] + span.end_col
    for token in tokens(data, start, end):
        first = bisect_right(starts, token.start())
        last = first + data.count(b"\n", token.start(), token.end())
        if last == first:
            continue
        marks[first + 1 : last + 1] = bytes(last - first)
        if b"f" in token.group(1).lower():
            _mark_fstring_lines(marks, data, token.start(), token.end(), first)
            marks[last] = 1
        elif _code_follows(data, token.end()):
            marks[last] = 1


def _mark_fstring_lines(marks: bytearray, data: bytes, start: int, end: int, line: int) -> None:
    """Mark lines on which replacement-field tokens of an f-string start."""
    depth = 0
    cursor = start
    for brace in _FIELD_BRACES.finditer(data, start, end):
        text = brace.group()
        if len(text) == 2 and depth == 0:
            continue
        line += data.count(b"\n", cursor, brace.start())
        cursor = brace.start()
        if text == b"{":
            depth += 1
        elif depth:
            depth -= 1
        if depth or text == b"}":
            marks[line] = 1


def _code_follows(data: bytes, pos: int) -> bool:
    newline = data.find(b"\n", pos)
    rest = data[pos : newline if newline >= 0 else len(data)].strip()
    return bool(rest) and not rest.startswith(b"#")


def _owns_lines(lines: list[bytes], span: Span) -> bool:
    before = lines[span.line - 1][: span.col]
    after = lines[span.end_line - 1][span.end_col :]
    return not before.strip() and not after.strip()


def _single_token(lines: list[bytes], span: Span) -> bool:
    """True when the statement is one string token, not an implicit concatenation."""
    text = b"\n".join(lines[span.line - 1 : span.end_line])
    text = text[span.col : len(text) - len(lines[span.end_line - 1]) + span.end_col]
    token = STRING_TOKEN.match(text)
    return token is not None and token.end() == len(text)
