"""Parse one logfmt line (``key=value key="quoted value" flag``) into fields."""

from __future__ import annotations

from logq.errors import MalformedLine

_BLANKS = " \t"
_ESCAPES = {'"': '"', "\\": "\\", "n": "\n", "t": "\t"}


def parse_logfmt(line: str) -> dict[str, str]:
    """Return the fields of ``line``; raise :class:`MalformedLine` if it is not logfmt."""
    fields: dict[str, str] = {}
    pos = _skip_blanks(line, 0)
    while pos < len(line):
        key, pos = _read_key(line, pos)
        value = "true"
        if pos < len(line) and line[pos] == "=":
            value, pos = _read_value(line, pos + 1)
        fields[key] = value
        pos = _skip_blanks(line, pos)
    return fields


def _skip_blanks(line: str, pos: int) -> int:
    while pos < len(line) and line[pos] in _BLANKS:
        pos += 1
    return pos


def _read_key(line: str, pos: int) -> tuple[str, int]:
    start = pos
    while pos < len(line) and line[pos] not in _BLANKS and line[pos] not in '="':
        pos += 1
    if pos < len(line) and line[pos] == '"':
        raise MalformedLine(f"unexpected '\"' in key at column {pos + 1}")
    if pos == start:
        raise MalformedLine(f"empty key at column {start + 1}")
    return line[start:pos], pos


def _read_value(line: str, pos: int) -> tuple[str, int]:
    if pos < len(line) and line[pos] == '"':
        return _read_quoted(line, pos)
    start = pos
    while pos < len(line) and line[pos] not in _BLANKS:
        if line[pos] == '"':
            raise MalformedLine(f"unexpected '\"' in value at column {pos + 1}")
        pos += 1
    return line[start:pos], pos


def _read_quoted(line: str, pos: int) -> tuple[str, int]:
    opening = pos
    chars: list[str] = []
    pos += 1
    while pos < len(line):
        char = line[pos]
        if char == '"':
            return "".join(chars), _after_closing_quote(line, pos + 1)
        if char == "\\" and pos + 1 < len(line):
            following = line[pos + 1]
            chars.append(_ESCAPES.get(following, char + following))
            pos += 2
            continue
        chars.append(char)
        pos += 1
    raise MalformedLine(f"unterminated quoted value starting at column {opening + 1}")


def _after_closing_quote(line: str, pos: int) -> int:
    if pos < len(line) and line[pos] not in _BLANKS:
        raise MalformedLine(f"unexpected {line[pos]!r} after closing quote at column {pos + 1}")
    return pos
