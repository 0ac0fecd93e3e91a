"""The languages `code measure` reads: which files are which, and which rules apply.

The native core has one module per grammar (`native/src/lang/`); reports group them by
language as users name them: TSX files are TypeScript. A rule written for JavaScript
runs on JavaScript, TypeScript and TSX files (the TypeScript grammars extend
JavaScript's), a TypeScript rule on TypeScript and TSX.
"""

from __future__ import annotations

from collections.abc import Iterable
from functools import cache

from slopmark import _core
from slopmark.errors import BadInput, did_you_mean

#: The languages reports and `--language` name, in report order.
LANGUAGES = ("python", "javascript", "typescript", "go", "java", "rust")
#: Core grammars reported under another language's name.
_FAMILY = {"tsx": "typescript"}
#: Core grammars a rule written for a language runs on.
_RULE_TARGETS = {
    "javascript": ("javascript", "typescript", "tsx"),
    "typescript": ("typescript", "tsx"),
}


@cache
def _extensions() -> dict[str, str]:
    """File suffix (with the dot) → core grammar name."""
    return {f".{ext}": name for name, exts in _core.languages() for ext in exts}


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


def rule_targets(language: str) -> tuple[str, ...]:
    """The core grammars a rule with ``language: <language>`` runs on."""
    return _RULE_TARGETS.get(language, (language,))


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
