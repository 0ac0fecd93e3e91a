"""What part of a project a file belongs to (`--scope`), and what a selection left out (pure).

Every source file falls in one scope, decided by its path alone (docs/languages.md,
"Scopes"), so a tree on disk, a commit and a side of a diff split the same way:

- **docs**: under a folder ``docs/``, ``doc/`` or ``docs_src/`` (code shown in
  documentation: fastapi's ``docs_src``);
- **examples**: under ``examples/``, ``example/`` or ``samples/``;
- **tests**: under ``tests/``, ``test/`` or ``__tests__/`` (Jest), Rust's
  ``benches/``; a file named ``test_*.py``, ``*_test.py`` or ``conftest.py`` (pytest),
  ``*_test.go`` (go test), ``*.test.*`` or ``*.spec.*`` for JavaScript and TypeScript;
- **source**: everything else, the library or application code.

The outermost folder that names a scope decides (``tests/docs/x.py`` is a test); below a
Maven/Gradle ``src/main/`` folders name no scope (a Java package ``org.x.test`` under
``src/main/java`` is source, ``src/test/java`` is tests). A file-name rule applies when no
folder decided.
"""

from __future__ import annotations

import fnmatch
import re
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any

from slopmark.code.measure.languages import LANGUAGES, language_of_path
from slopmark.errors import BadInput, did_you_mean

#: The scopes a file can fall in, in report order.
SCOPES = ("source", "tests", "examples", "docs")
#: What ``--scope`` accepts: a scope, or ``all`` of them.
SCOPE_CHOICES = (*SCOPES, "all")
#: Folder name → the scope of everything under it.
_FOLDERS = {
    "docs": "docs",
    "doc": "docs",
    "docs_src": "docs",
    "examples": "examples",
    "example": "examples",
    "samples": "examples",
    "tests": "tests",
    "test": "tests",
    "__tests__": "tests",
    "benches": "tests",
}
#: File-name globs of test files (pytest, go test, Jest/Vitest/Mocha conventions).
_TEST_FILES = (
    "test_*.py", "*_test.py", "conftest.py", "*_test.go",
    "*.test.[jt]s", "*.test.[jt]sx", "*.test.[mc]js", "*.spec.[jt]s", "*.spec.[jt]sx",
    "*.spec.[mc]js",
)  # fmt: skip


#: The test-file globs as one pattern (`scope_of` runs on every file of every commit).
_TEST_NAME = re.compile("|".join(fnmatch.translate(glob) for glob in _TEST_FILES))


@lru_cache(maxsize=2**18)
def scope_of(path: str) -> str:
    """The scope of the relative posix ``path`` (see the module's rules); cached, as a
    history asks again for the same paths at every commit."""
    folders = path.split("/")[:-1]
    for index, folder in enumerate(folders):
        if folder == "main" and index and folders[index - 1] == "src":
            break  # Maven/Gradle main source set: its packages name no scope
        found = _FOLDERS.get(folder)
        if found is not None:
            return found
    name = path.rpartition("/")[2]
    return "tests" if _TEST_NAME.match(name) else "source"


def check_scopes(names: Iterable[str], where: str = "--scope") -> tuple[str, ...]:
    """The scopes ``names`` choose (``all``: every one; none given: every one), in report
    order; `BadInput` naming the closest known scope."""
    chosen: set[str] = set()
    for name in names:
        lowered = name.strip().lower()
        if lowered not in SCOPE_CHOICES:
            hint = did_you_mean(lowered, SCOPE_CHOICES) or f"choose from {', '.join(SCOPE_CHOICES)}"
            raise BadInput(f"{where}: unknown scope {name!r}; {hint}")
        chosen.update(SCOPES if lowered == "all" else (lowered,))
    return tuple(s for s in SCOPES if s in chosen) if chosen else SCOPES


@dataclass(frozen=True)
class Coverage:
    """What a selection measured and what it left out: the languages and scopes chosen,
    the files kept per scope, and the source files left out per language not chosen and
    per scope not chosen (a file of a language not chosen counts there only)."""

    languages: tuple[str, ...] = LANGUAGES
    scopes: tuple[str, ...] = SCOPES
    kept: dict[str, int] = field(default_factory=dict)
    by_language: dict[str, int] = field(default_factory=dict)
    by_scope: dict[str, int] = field(default_factory=dict)

    def to_json(self) -> dict[str, Any]:
        """``{"languages", "scopes", "files_by_scope", "excluded": {...}}``."""
        return {
            "languages": list(self.languages),
            "scopes": list(self.scopes),
            "files_by_scope": dict(self.kept),
            "excluded": {"by_language": dict(self.by_language), "by_scope": dict(self.by_scope)},
        }

    def line(self) -> str:
        """One line for a terminal summary: what was measured and what was left out."""
        every = set(self.languages) == set(LANGUAGES)
        languages = "every language" if every else ", ".join(self.languages)
        scopes = "all" if len(self.scopes) == len(SCOPES) else ", ".join(self.scopes)
        kept = ", ".join(f"{s} {n}" for s, n in self.kept.items()) or "no files"
        left = [f"{n} {k}" for k, n in {**self.by_language, **self.by_scope}.items()]
        tail = f"; left out: {', '.join(left)}" if left else ""
        return f"{languages}, scope {scopes} ({kept}){tail}"


@dataclass(frozen=True)
class Choice:
    """The languages and scopes a command measures (`--language`, `--scope`)."""

    languages: Sequence[str] = LANGUAGES
    scopes: Sequence[str] = SCOPES

    def coverage_languages(self) -> tuple[str, ...]:
        """The languages chosen, in report order."""
        return tuple(language for language in LANGUAGES if language in self.languages)

    def coverage_scopes(self) -> tuple[str, ...]:
        """The scopes chosen, in report order."""
        return tuple(s for s in SCOPES if s in self.scopes)

    def select(self, paths: Iterable[str]) -> tuple[list[str], Coverage]:
        """The source ``paths`` chosen (in order) and the `Coverage` of the choice; a
        path of no known language is left out uncounted (it is not a source file)."""
        kept: list[str] = []
        scopes: Counter[str] = Counter()
        languages: Counter[str] = Counter()
        left: Counter[str] = Counter()
        for path in paths:
            language = language_of_path(path)
            if language is None:
                continue
            scope = scope_of(path)
            if language not in self.languages:
                languages[language] += 1
            elif scope not in self.scopes:
                left[scope] += 1
            else:
                kept.append(path)
                scopes[scope] += 1
        return kept, self._coverage(scopes, languages, left)

    def _coverage(
        self, kept: Counter[str], languages: Counter[str], left: Counter[str]
    ) -> Coverage:
        return Coverage(
            languages=self.coverage_languages(),
            scopes=self.coverage_scopes(),
            kept={s: kept[s] for s in SCOPES if kept[s]},
            by_language={lang: languages[lang] for lang in LANGUAGES if languages[lang]},
            by_scope={s: left[s] for s in SCOPES if left[s]},
        )
