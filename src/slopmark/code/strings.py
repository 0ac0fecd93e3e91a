"""Python string-literal tokens, found without running the tokenizer.

The syntax tree merges implicitly concatenated literals (``"a" "b"``) into one
node; the measures that follow the tokenizer need the tokens themselves.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

#: One string-literal token: optional prefix, then a quoted body.
STRING_TOKEN = re.compile(
    rb"""([rRbBuUfF]{0,2})
    (?: '''(?:[^'\\]|\\.|'(?!''))*'''
      | \"\"\"(?:[^"\\]|\\.|"(?!""))*\"\"\"
      | '(?:[^'\\\n]|\\.)*'
      | "(?:[^"\\\n]|\\.)*" )""",
    re.VERBOSE | re.DOTALL,
)

#: What may separate the tokens of an implicit concatenation.
GAP = re.compile(rb"(?:[ \t\f\r\n]|\\\r?\n|#[^\n]*)*")


def tokens(data: bytes, start: int, end: int) -> Iterator[re.Match[bytes]]:
    """The string tokens of one literal node spanning ``data[start:end]``."""
    pos = start
    while pos < end:
        token = STRING_TOKEN.match(data, pos)
        if token is None:
            return
        yield token
        gap = GAP.match(data, token.end())
        pos = gap.end() if gap else token.end()


def count_tokens(data: bytes, start: int, end: int) -> int:
    """Number of string tokens in ``data[start:end]`` (at least 1)."""
    return max(1, sum(1 for _ in tokens(data, start, end)))
