"""How the instruction domain matches a phrase in an answer, the way a careful reader would.

A reader does not see the difference between ``cutting-edge``, ``cutting‑edge``
(U+2011) and ``cutting–edge``, between one space, a no-break space and a line
break, or notice a soft hyphen or a zero-width space. So before any phrase is
looked for, both the answer and the phrase are normalised:

- every Unicode dash or hyphen (category Pd, and the minus sign) becomes ``-``;
- soft hyphens and zero-width characters are removed;
- a hyphen at the end of a line joins the next line (``cutting-⏎edge``);
- every run of whitespace (any Unicode space, tab or line break) becomes one
  space;
- case is ignored by comparing `str.casefold` forms, except where a rule says
  ``exact``.

A *whole word* match also needs the phrase not to continue a longer word: when
the phrase starts (ends) with a letter or digit, the character before (after)
it must not be one. ``etc`` is then not found in "sketchbook", and ``minor``
not in "minority"; ``#tag`` is found in "(#tag)".
"""

from __future__ import annotations

import re
import unicodedata
from functools import lru_cache

_ALNUM = re.compile(r"[^\W_]")
#: Unicode's dash punctuation (general category Pd, Unicode 14) and the minus sign U+2212.
_DASHES = (
    "-\u058a\u05be\u1400\u1806\u2010\u2011\u2012\u2013\u2014\u2015\u2e17\u2e1a\u2e3a"
    "\u2e3b\u2e40\u2e5d\u301c\u3030\u30a0\ufe31\ufe32\ufe58\ufe63\uff0d\U00010ead\u2212"
)
_INVISIBLE = "\u00ad\u180e\u200b\u200c\u200d\u2060\ufeff"
_TRANSLATE = {**dict.fromkeys(map(ord, _DASHES), "-"), **dict.fromkeys(map(ord, _INVISIBLE))}
_HYPHEN_BREAK = re.compile(r"-[^\S\n]*\n\s*")
_SPACES = re.compile(r"\s+")


def normalise(text: str) -> str:
    """``text`` with dashes, invisible characters and whitespace runs normalised (module doc)."""
    text = _HYPHEN_BREAK.sub("-", text.translate(_TRANSLATE))
    return _SPACES.sub(" ", text).strip()


def _is_alnum(char: str) -> bool:
    return bool(_ALNUM.match(char))


@lru_cache(maxsize=256)
def phrase_pattern(phrase: str, whole_word: bool) -> re.Pattern[str]:
    """A pattern finding ``phrase`` in a normalised, casefolded answer."""
    core = normalise(phrase).casefold()
    before = r"(?<![^\W_])" if whole_word and _is_alnum(core[:1]) else ""
    after = r"(?![^\W_])" if whole_word and _is_alnum(core[-1:]) else ""
    return re.compile(before + re.escape(core) + after)


def find(text: str, phrase: str, whole_word: bool) -> list[re.Match[str]]:
    """Every non-overlapping match of ``phrase`` in ``text`` (normalised, ignoring case)."""
    return list(phrase_pattern(phrase, whole_word).finditer(normalise(text).casefold()))


def _unpunctuated(text: str) -> str:
    end = len(text)
    while end and unicodedata.category(text[end - 1]).startswith("P"):
        end -= 1
    return text[:end].rstrip() or text


def starts(text: str, phrase: str, exact: bool) -> bool:
    """Does ``text`` begin with ``phrase``, nothing before it and no word continuing it?

    Not ``exact``: case and the phrase's final punctuation don't matter.
    """
    head, want = normalise(text), normalise(phrase)
    if not exact:
        head, want = head.casefold(), _unpunctuated(want).casefold()
    rest = head[len(want) : len(want) + 1]
    return head.startswith(want) and not (_is_alnum(want[-1:]) and _is_alnum(rest))


def ends(text: str, phrase: str, exact: bool) -> bool:
    """Does ``text`` end with ``phrase``, nothing after it and no word leading into it?

    Not ``exact``: case and final punctuation (of the phrase and of the text)
    don't matter: "…brought me Home." ends with the word "home".
    """
    tail, want = normalise(text), normalise(phrase)
    if not exact:
        tail, want = _unpunctuated(tail).casefold(), _unpunctuated(want).casefold()
    before = tail[-len(want) - 1 : -len(want)] if len(tail) > len(want) else ""
    return tail.endswith(want) and not (_is_alnum(want[:1]) and _is_alnum(before))


def _loose(phrase: str) -> str:
    """A pattern for ``phrase`` in raw text: any whitespace run, any dash, any case."""
    words = normalise(phrase).split(" ")
    dash = "[" + re.escape("-" + _DASHES) + "]"
    return r"\s+".join(re.escape(word).replace(r"\-", dash) for word in words)


def trim_edges(text: str, greeting: str | None, sign_off: str | None) -> str:
    """``text`` without the greeting at its start and the sign-off at its end, where present.

    Line breaks inside either are allowed, and case, trailing punctuation and
    markdown emphasis (``**Dear Sam,**``) are ignored, so the body's paragraphs
    can be counted on their own.
    """
    if greeting:
        start = r"\A[\s*_#>]*" + _loose(_unpunctuated(greeting)) + r"[^\w\s]*"
        text = re.sub(start, "", text, count=1, flags=re.I)
    if sign_off:
        end = _loose(_unpunctuated(sign_off)) + r"[^\w\s]*\s*\Z"
        text = re.sub(end, "", text, count=1, flags=re.I)
    return text
