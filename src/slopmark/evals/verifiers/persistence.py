"""The persistence domain: after N state changes, is the final state right?

Config: ``{"type": "persistence", "format": FORMAT, "expected": STATE}``. The
final state is read from the last non-empty line of the output (code-fence
lines skipped, markdown emphasis and backticks removed):

- ``sequence`` (STATE a list): the items inside the last ``[...]`` on the line,
  else after its last ":"; split on commas (on spaces when there is no comma).
  ``[]``, "empty" and "none" mean no items. score = positions right / the
  longer length.
- ``set`` (STATE a list): read like a sequence, order ignored.
  score = |given ∩ expected| / |given ∪ expected|.
- ``mapping`` (STATE an object): ``key=value`` or ``key: value`` pairs split by
  ``,``, ``;`` or ``|``; keys ignore case; the last pair for a key counts.
  score = keys right / keys.
- ``text`` (STATE a string): the text between the first and last double quote
  on the line (the whole line without quotes), compared case-sensitively
  after trimming spaces. score 1 or 0.

Items and values compare ignoring case and surrounding quotes; numbers
compare by value ("12.50" = "12.5", "$7" = "7", "1,000" = "1000").
pass = every component right.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from slopmark.evals.answers import parse_number
from slopmark.evals.verifiers.base import Check, Message, Verdict, register

FORMATS = ("sequence", "set", "mapping", "text")
FIELDS = ("type", "format", "expected")
_EMPTY = {"", "empty", "none", "(empty)", "nothing", "-"}
#: ``key=value`` with a value up to the next , ; | (a comma inside "1,250" is part of the value).
_PAIR = re.compile(
    r"(?<![\w-])([A-Za-z][\w-]*+)\s*+[=:]\s*((?:[^,;|=:]|,(?=\d{3}\b))+?)\s*(?=,(?!\d{3}\b)|[;|]|$)"
)
_EMPHASIS = re.compile(r"\*\*|__|`")


def last_line(output: str) -> str | None:
    """The last non-empty line that is not a code fence, without markdown emphasis."""
    for line in reversed(output.splitlines()):
        text = _EMPHASIS.sub("", line).strip()
        if text and not text.startswith("```"):
            return text
    return None


def normalise(value: str) -> str:
    """A value as compared: trimmed, unquoted, lower case; numbers by value."""
    value = value.strip().strip("\"'").strip().rstrip(".").strip()
    number = parse_number(value)
    if number is not None and not number.percent:
        return str(number.value)
    return value.casefold()


def items(line: str) -> list[str]:
    """The items of a sequence or set written on ``line``."""
    if "[" in line and "]" in line[line.rfind("[") :]:
        body = line[line.rfind("[") + 1 : line.rfind("]")]
    else:
        body = line.rsplit(":", 1)[-1]
    if normalise(body) in _EMPTY:
        return []
    parts = body.split(",") if "," in body else body.split()
    return [normalise(part) for part in parts]


def pairs(line: str) -> dict[str, str]:
    """The ``key=value`` pairs written on ``line`` (keys in lower case)."""
    return {key.casefold(): normalise(value) for key, value in _PAIR.findall(line)}


def quoted(line: str) -> str:
    """The text between the first and last double quote, else the whole line."""
    first, last = line.find('"'), line.rfind('"')
    return line[first + 1 : last] if last > first else line


def _sequence(expected: list[str], line: str) -> tuple[list[Check], float]:
    given, wanted = items(line), [normalise(str(v)) for v in expected]
    count = f"{len(given)} items, expected {len(wanted)}"
    checks = [Check("length", len(given) == len(wanted), count)]
    right = 0
    for index in range(max(len(given), len(wanted))):
        got = given[index] if index < len(given) else "(nothing)"
        want = wanted[index] if index < len(wanted) else "(nothing)"
        right += got == want
        checks.append(Check(f"item {index + 1}", got == want, f"expected {want}, got {got}"))
    return checks, right / max(len(given), len(wanted)) if given or wanted else 1.0


def _set(expected: list[str], line: str) -> tuple[list[Check], float]:
    given, wanted = set(items(line)), {normalise(str(v)) for v in expected}
    checks = [
        Check(f"has item {n}", item in given, f"{item} {'present' if item in given else 'missing'}")
        for n, item in enumerate(sorted(wanted), 1)
    ]
    extra = sorted(given - wanted)
    checks.append(Check("no extra items", not extra, f"extra: {', '.join(extra)}"))
    union = given | wanted
    return checks, len(given & wanted) / len(union) if union else 1.0


def _mapping(expected: Mapping[str, Any], line: str) -> tuple[list[Check], float]:
    given = pairs(line)
    checks = []
    for key, value in expected.items():
        want, got = normalise(str(value)), given.get(key.casefold())
        detail = f"expected {want}, got {got}" if got is not None else f"missing; expected {want}"
        checks.append(Check(key, got == want, detail))
    return checks, sum(c.passed for c in checks) / len(checks)


def _text(expected: str, line: str) -> tuple[list[Check], float]:
    got = quoted(line)
    same = got.strip() == expected.strip()
    return [Check("text", same, f"expected \"{expected}\", got \"{got[:200]}\"")], float(same)


Reader = Callable[[Any, str], tuple[list[Check], float]]
_READERS: dict[str, Reader] = {
    "sequence": _sequence, "set": _set, "mapping": _mapping, "text": _text
}


@register("persistence")
class PersistenceVerifier:
    """Compares the final state on the last line with the pre-computed one."""

    name = "persistence"

    def problems(self, config: Mapping[str, Any]) -> list[str]:
        return config_problems(config)

    def verify(
        self, config: Mapping[str, Any], output: str, transcript: Sequence[Message]
    ) -> Verdict:
        line = last_line(output)
        if line is None:
            return Verdict(False, 0.0, (Check("final line", False, "the output is empty"),))
        checks, score = _READERS[config["format"]](config["expected"], line)
        found = Check("final line", True, line[:200])
        passed = all(c.passed for c in checks)
        return Verdict(passed, score, (found, *checks))


def config_problems(config: Mapping[str, Any]) -> list[str]:
    """What is wrong with a persistence verifier config."""
    allowed = ", ".join(FIELDS)
    found = [f"unknown field '{k}'; allowed: {allowed}" for k in config if k not in FIELDS]
    fmt = config.get("format")
    if fmt not in FORMATS:
        return [*found, f"'format' is {fmt!r}; allowed: {', '.join(FORMATS)}"]
    return found + _state_problems(fmt, config.get("expected"))


def _state_problems(fmt: str, expected: Any) -> list[str]:
    wanted = {"sequence": list, "set": list, "mapping": dict, "text": str}[fmt]
    if not isinstance(expected, wanted):
        return [f"'expected' is {expected!r}; format '{fmt}' needs a {wanted.__name__}"]
    if fmt == "mapping" and not expected:
        return ["'expected' is empty; a mapping state needs at least one key"]
    values = expected.values() if isinstance(expected, dict) else expected
    if fmt != "text" and not all(isinstance(v, (str, int, float)) for v in values):
        return ["'expected' values must be strings or numbers"]
    return []
