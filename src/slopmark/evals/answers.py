"""Find the final answer in a model's output and read numbers the way people write them.

Shared by the verifiers that check a short answer (math, calibration). Pure
text functions: no I/O, never raise on any input.

The final answer is, in order of preference: the last ``\\boxed{...}``; the
text after the last answer marker ("Answer:", "Final answer:", "the answer
is"); the last non-empty line. Numbers may carry thousands separators
("1,024"), a trailing full stop ("1024."), a sign, a decimal part, an
exponent, a percent sign, or be fractions ("3/4", ``\\frac{3}{4}``).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from fractions import Fraction

#: Longer final answers are cut to this many characters (keeps every pattern fast).
MAX_ANSWER_CHARS = 2000
_BOXED = "\\boxed{"
_MARKER = re.compile(r"\b(?:answer|result)(?:\s+is)?\s*[:=]|\banswer\s+is\b", re.IGNORECASE)
_UNICODE = str.maketrans(
    {"\u2212": "-", "\u2013": "-", "\u00d7": "*", "\u22c5": "*", "\u00f7": "/", "\u00a0": " ",
     "\u2009": " ", "\u202f": " ", "\u03c0": "pi", "\u221a": "sqrt"}
)
#: Markdown and LaTeX delimiters; ``**`` between operands (``x**2``) is a power, not bold.
_DECORATION = re.compile(r"(?<![\w)])\*\*|\*\*(?![\w(])|__|`|\$|\\\(|\\\)|\\\[|\\\]")
_LEADER = re.compile(r"^(?:[#>]+\s*|[-*+]\s+|\d+[.)]\s+(?=\S))")
_NUMBER = re.compile(
    r"(?:(?<![\w)\]])-)?(?<![\w.])(?:\d{1,3}(?:,\d{3})+|\d+)(?:\.\d+)?(?:[eE][-+]?\d{1,3}(?!\d))?"
    r"(?:/\d+(?![\d.]))?(?:\s*%)?"
)
_FRAC = re.compile(r"\\[dt]?frac\{([^{}]*)\}\{([^{}]*)\}")
_SQRT = re.compile(r"\\sqrt\{([^{}]*)\}")
_LATEX_WORDS = (("\\cdot", "*"), ("\\times", "*"), ("\\pi", "pi"), ("\\left", ""), ("\\right", ""),
                ("\\,", ""), ("\\!", ""), ("\\ ", " "))
_PROSE = re.compile(
    r"\b(?!(?:sqrt|exp|log|sin|cos|tan|pi|abs)\b)(?:[A-Za-z]{3,}|is|it|so|of|to|be|as|we|by|or)\b"
)
_PARENTHESIS = re.compile(r"\([^()]*\)")
_PROSE_WORD = re.compile(r"[A-Za-z]{3,}")
_WORDS = (
    *("zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten"),
    *("eleven", "twelve", "thirteen", "fourteen", "fifteen", "sixteen", "seventeen"),
    *("eighteen", "nineteen", "twenty"),
)


@dataclass(frozen=True)
class Answer:
    """The final answer's text and where it was found: boxed, marker or last line."""

    text: str
    source: str


@dataclass(frozen=True)
class Number:
    """A number read from text; ``percent`` when it was written with a % sign."""

    value: Fraction
    percent: bool = False


def final_answer(output: str) -> Answer | None:
    """The final answer in ``output``; None when the output is blank."""
    text = output.translate(_UNICODE)
    boxed = _last_boxed(text)
    if boxed is not None:
        return Answer(clean(boxed[:MAX_ANSWER_CHARS]), "boxed")
    marked = _after_last_marker(text)
    if marked is not None:
        return Answer(marked[:MAX_ANSWER_CHARS], "marker")
    lines = [clean(line) for line in text.splitlines()]
    lines = [line for line in lines if line and not line.startswith("```")]
    return Answer(lines[-1][-MAX_ANSWER_CHARS:], "last line") if lines else None


def clean(text: str) -> str:
    """``text`` without markdown/LaTeX delimiters, list bullets and a final full stop."""
    text = _DECORATION.sub("", text.translate(_UNICODE)).strip()
    text = _LEADER.sub("", text).strip()
    return text[:-1].rstrip() if text.endswith((".", "!")) else text


def _last_boxed(text: str) -> str | None:
    start = text.rfind(_BOXED)
    if start < 0:
        return None
    depth, begin = 1, start + len(_BOXED)
    for index in range(begin, len(text)):
        depth += {"{": 1, "}": -1}.get(text[index], 0)
        if depth == 0:
            return text[begin:index]
    return None


def _after_last_marker(text: str) -> str | None:
    plain = _DECORATION.sub("", text)
    matches = list(_MARKER.finditer(plain))
    if not matches:
        return None
    rest = plain[matches[-1].end():]
    for line in rest.splitlines():
        if clean(line):
            return clean(line)
    return None


def plain_math(text: str) -> str:
    """LaTeX math in plain syntax: ``\\frac{a}{b}`` → ``(a)/(b)``, ``\\sqrt{x}`` → ``sqrt(x)``."""
    text = clean(text)
    for latex, plain in _LATEX_WORDS:
        text = text.replace(latex, plain)
    previous = None
    while previous != text:
        previous = text
        text = _FRAC.sub(r"(\1)/(\2)", text)
        text = _SQRT.sub(r"sqrt(\1)", text)
    return text.replace("{", "(").replace("}", ")").strip()


def parse_number(text: str) -> Number | None:
    """``text`` read as exactly one number ("1,024", "-3/4", "12.5%", "$7"), else None."""
    text = plain_math(text).lstrip("$").replace("(", "").replace(")", "").strip()
    match = _NUMBER.fullmatch(text)
    if match:
        return _to_number(match.group())
    lowered = text.lower()
    return Number(Fraction(_WORDS.index(lowered))) if lowered in _WORDS else None


def numbers_in(text: str) -> list[Number]:
    """Every number written in ``text``, in order (number words only when there is no digit)."""
    text = plain_math(text)
    found = [_to_number(m.group()) for m in _NUMBER.finditer(text)]
    if found or any(ch.isdigit() for ch in text):
        return [n for n in found if n is not None]
    words = re.findall(r"[a-z]+", text.lower())
    return [Number(Fraction(_WORDS.index(w))) for w in words if w in _WORDS]


def answer_number(answer: Answer) -> Number | None:
    """The number given as the final answer.

    After a marker or in a box: the value right of the last "=", else the
    first number. On an unmarked last line: the last number ("... so she has
    17 apples" → 17).
    """
    segment = answer.text.rsplit("=", 1)[-1]
    whole = parse_number(segment)
    if whole is not None:
        return whole
    found = numbers_in(segment)
    if not found:
        return None
    return found[-1] if answer.source == "last line" else found[0]


def math_part(text: str) -> str:
    """The math in an answer phrase: "The derivative is 6x + 2 (power rule)" → "6x + 2".

    Keeps what follows the last "=" or ":", drops parenthetical remarks, and
    of the pieces between prose words keeps the last one holding a letter or digit.
    """
    text = plain_math(re.split(r"[=:]", text)[-1])
    text = _PARENTHESIS.sub(lambda m: " " if _PROSE_WORD.search(m.group()) else m.group(), text)
    pieces = [p.strip(" ,;") for p in _PROSE.split(text)]
    found = [p for p in pieces if any(ch.isalnum() for ch in p)]
    return found[-1] if found else ""


def _to_number(token: str) -> Number | None:
    percent = token.endswith("%")
    token = token.rstrip("%").strip().replace(",", "")
    try:
        if "/" in token:
            top, bottom = token.split("/")
            value = Fraction(top) / Fraction(bottom)
        else:
            value = Fraction(token)
    except (ValueError, ZeroDivisionError):
        return None
    return Number(value, percent)


def format_number(value: Fraction) -> str:
    """``value`` written the way gold answers are: "7", "-3/4"."""
    if value.denominator == 1:
        return str(value.numerator)
    return f"{value.numerator}/{value.denominator}"
