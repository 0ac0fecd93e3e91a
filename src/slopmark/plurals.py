"""A count with its noun in the right number: ``1 run``, ``2 runs``, ``0 repositories``.

Messages that say "1 runs" or hedge with "run(s)" read as unfinished; every
count the CLI and the pages print goes through `count`.
"""

from __future__ import annotations

__all__ = ["count", "plural"]

_VOWELS = frozenset("aeiou")


def plural(noun: str) -> str:
    """The regular English plural of ``noun``: ``repository`` → ``repositories``,
    ``pass`` → ``passes``, ``run`` → ``runs``."""
    if noun.endswith("y") and noun[-2:-1] not in _VOWELS:
        return noun[:-1] + "ies"
    if noun.endswith(("s", "x", "ch", "sh")):
        return noun + "es"
    return noun + "s"


def count(n: int, noun: str, many: str | None = None) -> str:
    """``n`` and ``noun``, plural unless ``n`` is 1 (``many``: an irregular plural)."""
    return f"{n} {noun if n == 1 else many or plural(noun)}"
