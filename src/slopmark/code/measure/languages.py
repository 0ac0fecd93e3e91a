"""The languages `code measure` reads: which files are which, and which rules apply.

The native core has one module per grammar (`native/src/lang/`) and says which they are
(`slopmark._core.languages`); reports group them by language as users name them: TSX
files are TypeScript. A rule written for JavaScript runs on JavaScript, TypeScript and
TSX files (the TypeScript grammars extend JavaScript's), a TypeScript rule on TypeScript
and TSX.
"""

from __future__ import annotations

from collections.abc import Iterable
from functools import cache
from typing import NamedTuple

from slopmark import _core
from slopmark.errors import BadInput, did_you_mean


class Grammar(NamedTuple):
    """One of the core's grammars, as `slopmark._core.languages` describes it."""

    name: str
    #: file name extensions, without the dot
    extensions: tuple[str, ...]
    #: the language its files are reported under
    language: str
    #: the languages whose rules (a rule's ``language:``) run on its files
    rule_languages: tuple[str, ...]


#: The core's grammars, in report order.
GRAMMARS = tuple(
    Grammar(name, tuple(extensions), language, tuple(rules))
    for name, extensions, language, rules in _core.languages()
)
#: The languages reports and `--language` name, in report order.
LANGUAGES = tuple(dict.fromkeys(g.language for g in GRAMMARS))
#: The languages a rule's ``language:`` may name.
RULE_LANGUAGES = tuple(dict.fromkeys(r for g in GRAMMARS for r in g.rule_languages))
#: Core grammar → the language its files are reported under.
_FAMILY = {g.name: g.language for g in GRAMMARS}


@cache
def _extensions() -> dict[str, str]:
    """File suffix (with the dot) → core grammar name."""
    return {f".{ext}": g.name for g in GRAMMARS for ext in g.extensions}


def grammar_of(path: str) -> str | None:
    """The core grammar that reads ``path``, by its suffix (`PurePosixPath.suffix`, taken
    without building a path: `code diff` asks for every file of both sides); None for
    other files."""
    name = path.rstrip("/").rpartition("/")[2]
    dot = name.rfind(".")
    suffix = name[dot:] if 0 < dot < len(name) - 1 else ""
    return _extensions().get(suffix.lower())


def language_of(grammar: str) -> str:
    """The language a core grammar's files are reported under."""
    return _FAMILY.get(grammar, grammar)


def language_of_path(path: str) -> str | None:
    """The language ``path`` is reported under, by its suffix; None for other files."""
    grammar = grammar_of(path)
    return None if grammar is None else language_of(grammar)


def grammars_of(languages: Iterable[str]) -> frozenset[str]:
    """The core grammars of ``languages``."""
    wanted = set(languages)
    return frozenset(g for g in set(_extensions().values()) if language_of(g) in wanted)


@cache
def rule_targets(language: str) -> tuple[str, ...]:
    """The core grammars a rule with ``language: <language>`` runs on."""
    return tuple(g.name for g in GRAMMARS if language in g.rule_languages) or (language,)


def suffixes(languages: Iterable[str] = LANGUAGES) -> tuple[str, ...]:
    """The file suffixes of ``languages`` (with the dot), sorted."""
    grammars = grammars_of(languages)
    return tuple(sorted(s for s, g in _extensions().items() if g in grammars))


def check_languages(names: Iterable[str], where: str = "--language") -> tuple[str, ...]:
    """``names`` lower-cased and checked; `BadInput` naming the closest known language."""
    chosen = []
    for name in names:
        lowered = name.strip().lower()
        if lowered not in LANGUAGES:
            hint = did_you_mean(lowered, LANGUAGES) or f"choose from {', '.join(LANGUAGES)}"
            raise BadInput(f"{where}: unknown language {name!r}; {hint}")
        chosen.append(lowered)
    return tuple(dict.fromkeys(chosen))
