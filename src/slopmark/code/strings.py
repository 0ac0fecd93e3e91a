"""Python string-literal tokens, found without running the tokenizer.

The syntax tree merges implicitly concatenated literals (``"a" "b"``) into one
node; the measures that follow the tokenizer need the tokens themselves.
"""

from __future__ import annotations

import re

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


def count_tokens(data: bytes, start: int, end: int) -> int:
    """Number of string tokens in ``data[start:end]`` (one literal node)."""
    count = 0
    pos = start
    while pos < end:
        token = STRING_TOKEN.match(data, pos)
        if token is None:
            break
        count += 1
        pos = GAP.match(data, token.end()).end()  # type: ignore[union-attr]
    return max(count, 1)
