"""Author–year citations of a PDF, resolved against its reference list.

A printed author–year citation names the first author's surname and a year, in one of
natbib's forms: bracketed (``[LeCun et al., 1995]``, ``Lenc and Vedaldi [2015]``, the
NeurIPS default), parenthetical (``(Smith, 2020; Doe et al., 2019a)``), lists separated
by ``;`` or by ``,`` before the next author (``[A et al., 2019, B and C, 2020]``) and
compressed suffix letters (``Smith [2015a,b]`` → 2015a and 2015b).

`AuthorIndex` maps (surname, year) to the keys of the bibliography entries whose first
author has that surname and which print that year (``2015a`` also answers ``2015`` when
it is the only such entry); two entries sharing both are told apart by the second
author's surname when the citation names one. A citation that names no entry resolves
to nothing: it stays text, and no key is invented (a year alone never makes a key).
"""

from __future__ import annotations

import re
import unicodedata
from collections import Counter
from collections.abc import Iterable

YEAR = r"(?:1[89]|20)\d\d[a-z]?"
PARTICLE = r"(?:van|von|de|der|den|da|di|du|la|le|del|dos)"
NAME = rf"(?:{PARTICLE}\s+)*[A-Z\u00C0-\u00DE][\w'’\-]+"
AUTHORS = rf"{NAME}(?:\s+et\s+al\.?|\s+(?:and|&)\s+{NAME})?"
#: ``2019`` or ``2015a, b`` (natbib compresses the suffixes of one author's same year).
YEARS = rf"{YEAR}(?:\s*,\s*(?:{YEAR}|[a-z])\b)*"
ITEM = re.compile(rf"(?P<authors>{AUTHORS}),?\s+(?P<years>{YEARS})")
#: Where a list moves on to its next author: ``;``, or ``,`` before a capital or a particle.
NEXT_ITEM = re.compile(rf"\s*;\s*|,\s+(?=(?:{PARTICLE}\s+)*[A-Z\u00C0-\u00DE])")
_ENTRY_YEAR = re.compile(rf"(?<![\w.:/]){YEAR}\b")

Item = tuple[str, tuple[str, ...]]


def surname_key(name: str) -> str:
    """A surname reduced to lower-case ASCII letters (``Müller-Lyer`` → ``mullerlyer``)."""
    plain = unicodedata.normalize("NFKD", name).encode("ascii", "ignore").decode()
    return re.sub(r"[^a-z]", "", plain.lower())


def surnames(authors: str) -> list[str]:
    """The capitalised names of a citation's author part (particles and ``et al.`` left out)."""
    words = re.findall(r"[^\W\d_][\w'’\-]*", authors)
    return [w for w in words if w[0].isupper()] or words[:1]


def citation_key(authors: str, year: str) -> str:
    """``smith2020`` from ``"Smith et al."`` and ``"2020"`` (first surname, ASCII, lower case)."""
    names = surnames(authors)
    return surname_key(names[0] if names else "anon") + year


def expand_years(years: str) -> tuple[str, ...]:
    """``2015a, b, 2016`` → ``(2015a, 2015b, 2016)``."""
    found: list[str] = []
    for part in re.split(r"\s*,\s*", years.strip()):
        if len(part) == 1 and found:
            found.append(found[-1][:4] + part)
        else:
            found.append(part)
    return tuple(found)


def parse_items(body: str) -> list[Item] | None:
    """The (authors, years) of each part of a citation list; None if a part is not one."""
    items: list[Item] = []
    for part in NEXT_ITEM.split(body.strip()):
        match = ITEM.fullmatch(part.strip())
        if match is None:
            return None
        items.append((match.group("authors"), expand_years(match.group("years"))))
    return items


class AuthorIndex:
    """The author–year entries, searched by a citation's surnames and year.

    An entry answers a citation when it prints the year (``2015a`` also answers ``2015``)
    and names the citation's first surname as a word; of several, the one naming it
    earliest (first authors come first), then the one also naming the second surname."""

    def __init__(self, entries: Iterable[tuple[str, str]]) -> None:
        """``entries``: (key, text) of each bibliography entry, in the list's order."""
        self._entries: list[tuple[str, str, set[str]]] = []
        for key, text in entries:
            years = {m.group(0) for m in _ENTRY_YEAR.finditer(text)}
            self._entries.append((key, _plain(text), years | {y[:4] for y in years}))

    def resolve(self, authors: str, year: str) -> str | None:
        """The key of the entry this citation names, or None when no entry is named."""
        names = [_plain(name) for name in surnames(authors)]
        if not names or not names[0].strip():
            return None
        ranked = []
        for key, text, years in self._entries:
            first = _word_at(text, names[0]) if year in years else None
            if first is not None:
                second = all(_word_at(text, name) is not None for name in names[1:2])
                ranked.append((not second, first, key))
        return min(ranked)[2] if ranked else None

    def keys(self, items: list[Item]) -> list[str]:
        """The resolved keys of a citation list, unresolved parts left out."""
        resolved = (self.resolve(authors, year) for authors, years in items for year in years)
        return list(dict.fromkeys(key for key in resolved if key is not None))


def _plain(text: str) -> str:
    """Lower-case ASCII (accents dropped), for comparing names as printed."""
    return unicodedata.normalize("NFKD", text).encode("ascii", "ignore").decode().lower()


def _word_at(text: str, name: str) -> int | None:
    """Where ``name`` first occurs in ``text`` as a whole word, or None."""
    found = re.search(rf"(?<![a-z]){re.escape(name)}(?![a-z])", text)
    return found.start() if found else None


def unique_keys(wanted: Iterable[str]) -> list[str]:
    """The keys, a repeated one suffixed ``x2``, ``x3``… so that every entry keeps its own."""
    seen: Counter[str] = Counter()
    out: list[str] = []
    for key in wanted:
        seen[key] += 1
        out.append(key if seen[key] == 1 else f"{key}x{seen[key]}")
    return out


def legacy_keys(items: list[Item]) -> list[str]:
    """Keys made from the citation alone (no reference list to resolve against)."""
    return [citation_key(authors, year) for authors, years in items for year in years]

