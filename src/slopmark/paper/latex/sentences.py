r"""Offline, rule-based sentence splitting of prose-view text.

A sentence ends at ``.``, ``!`` or ``?`` (closing quotes and brackets
included) before whitespace and a capital, a digit, an opening quote or a
sentinel (``zzcite``, ``zzref``, ``zzmath``), and always at a paragraph
break. A period does not end a sentence after an abbreviation (et al., e.g.,
i.e., Fig., Figs., Eq., Eqs., Sec., Tab., cf., vs., Dr., No., approx.,
resp., ...), after dotted initialisms (``U.S.``), or after an initial (``J.
Smith``) unless the letter follows a pointer word (``Appendix A. The``).
Decimals (``3.5``) never break because no space follows their period; "etc."
ends a sentence only before a capital.
"""

from __future__ import annotations

import re

from slopmark.paper.document import CITE_TOKEN, MATH_TOKEN, REF_TOKEN

ABBREVIATIONS = frozenset(
    {"al", "e.g", "i.e", "eg", "ie", "fig", "figs", "eq", "eqs", "eqn", "eqns", "sec", "secs",
     "sect", "tab", "tabs", "cf", "vs", "dr", "mr", "mrs", "ms", "prof", "approx",
     "resp", "ref", "refs", "vol", "pp", "p", "ch", "chap", "app", "appx", "thm", "lem", "def",
     "prop", "cor", "alg", "algo", "viz", "w.r.t", "wrt", "incl", "est", "st", "jr", "sr",
     "inc", "ltd", "co", "univ", "dept", "max", "min", "avg", "std", "var", "ca", "c.f", "a.k.a",
     "aka", "ed", "eds", "et", "defn", "obs", "exp", "expt", "e", "i"}
)  # fmt: skip
#: Words before a single capital that make it a name (Appendix A), not an initial.
POINTER_WORDS = frozenset(
    {"appendix", "section", "sec", "figure", "fig", "table", "tab", "part", "step", "stage",
     "phase", "type", "case", "model", "method", "setting", "variant", "group", "class",
     "option", "level", "plan", "algorithm", "equation", "chapter", "category", "condition",
     "dataset", "task", "version", "round", "layer", "block", "module", "set", "grade",
     "vitamin", "point", "player", "agent", "region", "scenario", "strategy", "team"}
)  # fmt: skip
_STARTS = rf"[A-Z0-9\"“‘'`]|{CITE_TOKEN}|{REF_TOKEN}|{MATH_TOKEN}"
_CANDIDATE = re.compile(rf"([.!?]+)[\"'”’)\]]*(?=\s+(?:{_STARTS}))")
_PARAGRAPH = re.compile(r"[^\n]+")
_WORD_BEFORE = re.compile(r"(\S+)\s+(\S+)$|(\S+)$")
_INITIALISM = re.compile(r"(?:[A-Za-z]\.)+[A-Za-z]")
_SENTINELS = frozenset({CITE_TOKEN, REF_TOKEN, MATH_TOKEN})
_WORD = re.compile(r"[A-Za-z]{2,}")


def _words_before(text: str, dot: int) -> tuple[str, str]:
    """The (lower-cased) word before the word ending at ``dot``, and that word."""
    before = _WORD_BEFORE.search(text, max(0, dot - 60), dot)
    if before is None:
        return "", ""
    word = (before.group(2) or before.group(3) or "").lstrip("([{\"'“‘")
    return (before.group(1) or "").lower().strip("([{\"'“‘,;:"), word


def _is_break(text: str, dot: int, marks: str) -> bool:
    """Does the punctuation ``marks`` ending at ``dot`` end a sentence?"""
    if marks != ".":
        return True
    previous, word = _words_before(text, dot)
    if word.lower() in ABBREVIATIONS or word in ("No", "Nos") or _INITIALISM.fullmatch(word):
        return False
    if len(word) == 1 and word.isupper():
        return previous in POINTER_WORDS
    return True


def _has_words(text: str) -> bool:
    return any(word not in _SENTINELS for word in _WORD.findall(text))


def split(text: str) -> list[tuple[int, int]]:
    """(start, end) offsets of the sentences of a prose-view text."""
    found: list[tuple[int, int]] = []
    for paragraph in _PARAGRAPH.finditer(text):
        start = paragraph.start()
        for match in _CANDIDATE.finditer(text, start, paragraph.end()):
            if _is_break(text, match.start(1), match.group(1)):
                found.append((start, match.end()))
                start = match.end()
        found.append((start, paragraph.end()))
    return [trimmed for a, b in found if (trimmed := _trim(text, a, b)) is not None]


def _trim(text: str, start: int, end: int) -> tuple[int, int] | None:
    while start < end and text[start].isspace():
        start += 1
    while end > start and text[end - 1].isspace():
        end -= 1
    return (start, end) if _has_words(text[start:end]) else None
