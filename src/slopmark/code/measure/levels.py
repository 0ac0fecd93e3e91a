"""A project's own language level, read from its build files, and the rule hits it rules out.

A rule whose suggestion needs a newer language than the project is built for (pattern
matching for ``instanceof`` is Java 16) says so with ``metadata.min_level``: ``"16"``
(Java), ``"1.21"`` (Go), ``"1.65"`` (Rust's ``rust-version``) or ``"edition2021"``
(Rust's edition), ``"ES2022"`` (a TypeScript/JavaScript ``target``). A file's level is
read from the nearest build file at or above its folder, within the measured root only:

- Java: ``pom.xml`` (``maven.compiler.release``, ``maven.compiler.source``, the compiler
  plugin's ``<release>``/``<source>``; a ``${property}`` of the same pom is followed),
  ``build.gradle(.kts)`` (``sourceCompatibility``, ``JavaVersion.VERSION_x``,
  ``JavaLanguageVersion.of(x)``);
- Go: the ``go`` line of ``go.mod``; Rust: ``rust-version`` and ``edition`` of
  ``Cargo.toml``; TypeScript/JavaScript: ``compilerOptions.target`` of ``tsconfig.json``.

A file whose level is unknown (no build file under the root, or one that does not say:
a parent pom, a workspace-inherited ``rust-version``, a ``tsconfig`` that ``extends``)
gets no hit of a rule with a ``min_level``: a suggestion the project may not be able to
compile is the worst false positive, so the rule speaks only where the level is known.

Build files are read as text only (regular files, at most `MAX_BUILD_BYTES`), never run.
`code measure` reads the measured folder's build files, `code diff` the base side's (for
both sides), `code history` each commit's; the benchmark none (every level unknown).
The result, `Floors`, is part of the measurement `Settings`, so every cached report and
summary is keyed by it; the per-file results the core caches are not (the filter is
applied to them when their hits are counted, `slopmark.code.measure.hits`).
"""

from __future__ import annotations

import os
import posixpath
import re
import tomllib
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field

from slopmark.regular import Unreadable, read_text

#: A build file larger than this is not read (its level is unknown).
MAX_BUILD_BYTES = 1 << 20
#: The build files that set each ecosystem's level, nearest first within a folder.
BUILD_FILES = {
    "java": ("pom.xml", "build.gradle.kts", "build.gradle"),
    "go": ("go.mod",),
    "rust": ("Cargo.toml",),
    "es": ("tsconfig.json",),
}
#: The ecosystem whose level a rule of each language is held to.
ECOSYSTEM = {"java": "java", "go": "go", "rust": "rust", "typescript": "es", "javascript": "es"}

Level = tuple[int, ...]
#: A project's levels by scale: ``java``, ``go``, ``rust``, ``edition``, ``es``.
Levels = Mapping[str, Level]
#: Reads a build file by its path under the root (None: absent or not readable).
Reader = Callable[[str], str | None]


def scale_of(language: str, text: str) -> tuple[str, Level] | None:
    """The scale and level a rule's ``min_level`` names (None: not a level of its
    language's ecosystem)."""
    ecosystem = ECOSYSTEM.get(language)
    if ecosystem == "rust" and text.startswith("edition"):
        return _scaled("edition", _version(text.removeprefix("edition")))
    if ecosystem == "java":
        return _scaled("java", _java(text))
    if ecosystem == "es":
        return _scaled("es", _es(text))
    return _scaled(ecosystem, _version(text)) if ecosystem else None


def _scaled(scale: str, level: Level | None) -> tuple[str, Level] | None:
    return None if level is None else (scale, level)


def _version(text: str) -> Level | None:
    """``1.21.3`` → (1, 21, 3)."""
    text = text.strip().strip("'\"")
    return tuple(map(int, text.split("."))) if re.fullmatch(r"\d+(\.\d+)*", text) else None


def _java(text: str) -> Level | None:
    """A Java level: ``1.8`` and ``8`` are both (8,); ``VERSION_1_8`` and ``VERSION_17`` too."""
    text = text.strip().strip("'\"").removeprefix("VERSION_").replace("_", ".")
    found = _version(text)
    if found is None:
        return None
    return found[1:2] if found[0] == 1 and len(found) > 1 else found[:1]


def _es(text: str) -> Level | None:
    """An ECMAScript target as a year: ``ES2022`` (2022,), ``ES6`` (2015,), ``ESNext``
    above every year."""
    name = text.strip().upper()
    if name == "ESNEXT":
        return (9999,)
    found = re.fullmatch(r"ES(\d+)", name)
    if found is None:
        return None
    number = int(found.group(1))
    return (number + 2009,) if number < 2015 else (number,)


# --- build files (text in, levels out) ---------------------------------------------------


def pom_levels(text: str) -> dict[str, Level]:
    """A ``pom.xml``'s Java level: ``release`` before ``source``, a property followed once."""
    properties: dict[str, str] = dict(re.findall(r"<([\w.\-]+)>\s*([^<]*?)\s*</\1>", text))
    names = ("maven.compiler.release", "release", "maven.compiler.source", "source")
    for name in names:
        value = properties.get(name, "")
        value = properties.get(value[2:-1], value) if value.startswith("${") else value
        level = _java(value)
        if level is not None:
            return {"java": level}
    return {}


_GRADLE = (
    r"JavaLanguageVersion\.of\(\s*(\d+)\s*\)",
    r"sourceCompatibility\s*=\s*JavaVersion\.(VERSION_[\d_]+)",
    r"sourceCompatibility\s*=\s*['\"]?([\d.]+)",
)


def gradle_levels(text: str) -> dict[str, Level]:
    """A Gradle build's Java level (toolchain ``languageVersion`` or ``sourceCompatibility``)."""
    for pattern in _GRADLE:
        found = re.search(pattern, text)
        level = _java(found.group(1)) if found else None
        if level is not None:
            return {"java": level}
    return {}


def go_mod_levels(text: str) -> dict[str, Level]:
    found = re.search(r"^go\s+(\d+(?:\.\d+)*)\s*$", text, re.MULTILINE)
    level = _version(found.group(1)) if found else None
    return {} if level is None else {"go": level}


def cargo_levels(text: str) -> dict[str, Level]:
    """``[package] rust-version`` and ``edition`` (a workspace-inherited one is unknown)."""
    try:
        package = tomllib.loads(text).get("package", {})
    except tomllib.TOMLDecodeError:
        return {}
    found = {}
    for key, scale in (("rust-version", "rust"), ("edition", "edition")):
        value = package.get(key)
        level = _version(value) if isinstance(value, str) else None
        if level is not None:
            found[scale] = level
    return found


def tsconfig_levels(text: str) -> dict[str, Level]:
    """``compilerOptions.target`` of a ``tsconfig.json`` that extends no other."""
    found = re.search(r'"target"\s*:\s*"([^"]+)"', text)
    if '"extends"' in text or found is None:
        return {}
    level = _es(found.group(1))
    return {} if level is None else {"es": level}


PARSERS: dict[str, Callable[[str], dict[str, Level]]] = {
    "pom.xml": pom_levels,
    "build.gradle": gradle_levels,
    "build.gradle.kts": gradle_levels,
    "go.mod": go_mod_levels,
    "Cargo.toml": cargo_levels,
    "tsconfig.json": tsconfig_levels,
}


# --- which rules a folder rules out ----------------------------------------------------


@dataclass(frozen=True)
class Floors:
    """The rules whose hits are dropped, by folder (relative to the measured root, ``""``
    for the root); the rules with a ``min_level`` that every folder not listed drops
    (its level unknown). Empty: no rule has a ``min_level``."""

    dropped: tuple[tuple[str, tuple[str, ...]], ...] = ()
    everywhere: tuple[str, ...] = ()
    _table: dict[str, frozenset[str]] = field(default_factory=dict, compare=False, repr=False)

    def __post_init__(self) -> None:
        self._table.update((folder, frozenset(ids)) for folder, ids in self.dropped)

    def of(self, path: str) -> frozenset[str]:
        """The rule ids whose hits do not count in the file at ``path``."""
        if not self.everywhere:
            return frozenset()
        found = self._table.get(posixpath.dirname(path))
        return frozenset(self.everywhere) if found is None else found


def floors(
    rules: Iterable[tuple[str, str, str]], folders: Iterable[str], read: Reader
) -> Floors:
    """The `Floors` of the files in ``folders`` for ``rules`` (id, language, min_level),
    their build files read with ``read``."""
    wanted = [(rule_id, found) for rule_id, language, text in rules
              if (found := scale_of(language, text)) is not None]  # fmt: skip
    if not wanted:
        return Floors()
    levels = _FolderLevels(read)
    dropped = []
    for folder in sorted(set(folders)):
        known = levels.of(folder)
        ids = [rule_id for rule_id, (scale, floor) in wanted if known.get(scale, ()) < floor]
        dropped.append((folder, tuple(ids)))
    return Floors(tuple(dropped), tuple(rule_id for rule_id, _ in wanted))


class _FolderLevels:
    """Each folder's levels: its own build files', else its parent's (the root's parent
    is never looked at)."""

    def __init__(self, read: Reader) -> None:
        self.read = read
        self._held: dict[str, dict[str, Level]] = {}

    def of(self, folder: str) -> dict[str, Level]:
        if folder not in self._held:
            parent = {} if folder == "" else self.of(posixpath.dirname(folder))
            self._held[folder] = {**parent, **self._own(folder)}
        return self._held[folder]

    def _own(self, folder: str) -> dict[str, Level]:
        """The levels the folder's own build files set (per ecosystem, the first file
        that names one)."""
        found: dict[str, Level] = {}
        for names in BUILD_FILES.values():
            for name in names:
                text = self.read(posixpath.join(folder, name))
                levels = PARSERS[name](text) if text is not None else {}
                if levels:
                    found.update(levels)
                    break
        return found


def disk_reader(root: str) -> Reader:
    """Reads build files under the measured folder ``root``: regular files only (no
    symlink followed out of it), at most `MAX_BUILD_BYTES`, UTF-8."""

    def read(path: str) -> str | None:
        try:
            return read_text(os.path.join(root, path), MAX_BUILD_BYTES, follow=False)
        except (Unreadable, OSError):  # absent, a folder, a FIFO, too big, not UTF-8
            return None

    return read
