"""Text that remembers, for every character, the source offset it came from.

The release builds its prose view by a chain of regular-expression rewrites
and locates sentences through a per-character origin list: kept characters
keep their origin, the characters of a replacement all take the origin of the
matched text's first character. `Mapped` does the same, so the sentence order
(and the section a sentence is assigned to) agrees with the release exactly.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass

Replacement = str | Callable[[re.Match[str]], str]


@dataclass(frozen=True)
class Mapped:
    text: str
    origin: tuple[int, ...]

    @classmethod
    def at(cls, text: str, base: int = 0) -> Mapped:
        """``text`` whose first character sits at source offset ``base``."""
        return cls(text, tuple(range(base, base + len(text))))

    def sub(self, pattern: re.Pattern[str], replacement: Replacement) -> Mapped:
        """Every match of ``pattern`` rewritten; new characters take the match start's origin."""
        pieces: list[str] = []
        origin: list[int] = []
        last = 0
        for match in pattern.finditer(self.text):
            start = match.start()
            pieces.append(self.text[last:start])
            origin.extend(self.origin[last:start])
            new = replacement if isinstance(replacement, str) else replacement(match)
            pieces.append(new)
            origin.extend([self._anchor(start)] * len(new))
            last = match.end()
        if not pieces:
            return self
        pieces.append(self.text[last:])
        origin.extend(self.origin[last:])
        return Mapped("".join(pieces), tuple(origin))

    def _anchor(self, position: int) -> int:
        if position < len(self.origin):
            return self.origin[position]
        return self.origin[-1] if self.origin else 0

    def slice(self, start: int, end: int) -> Mapped:
        return Mapped(self.text[start:end], self.origin[start:end])

    def strip(self) -> Mapped:
        left = len(self.text) - len(self.text.lstrip())
        right = len(self.text.rstrip())
        return self.slice(left, max(left, right))

    def source_start(self, start: int) -> int:
        """The source offset of view position ``start`` (clamped into the text)."""
        if not self.origin:
            return 0
        return self.origin[max(0, min(start, len(self.origin) - 1))]

    def pieces(self, separator: re.Pattern[str]) -> Iterator[Mapped]:
        """The parts between matches of ``separator`` (like ``re.split``)."""
        last = 0
        for match in separator.finditer(self.text):
            yield self.slice(last, match.start())
            last = match.end()
        yield self.slice(last, len(self.text))


def join(parts: list[Mapped], glue: str = " ") -> Mapped:
    """``glue.join`` of mapped parts; the glue takes the origin of the part after it."""
    if not parts:
        return Mapped("", ())
    text = parts[0].text
    origin = list(parts[0].origin)
    for part in parts[1:]:
        text += glue + part.text
        origin.extend([part.source_start(0)] * len(glue))
        origin.extend(part.origin)
    return Mapped(text, tuple(origin))
