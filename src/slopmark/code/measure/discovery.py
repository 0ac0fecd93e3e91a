"""Which files of a tree are measured, and why the others are not (adapter: file system)."""

from __future__ import annotations

import os
import stat
import tomllib
from collections.abc import Sequence
from dataclasses import dataclass
from fnmatch import fnmatch
from pathlib import Path, PurePosixPath

from slopmark.code.measure.fileanalysis import Skipped
from slopmark.code.measure.languages import LANGUAGES, grammar_of, grammars_of
from slopmark.errors import BadInput
from slopmark.regular import not_regular, over_limit, read_regular

#: Folders never measured (virtual environments, caches, build output, VCS data).
EXCLUDED_DIRS = frozenset(
    {
        ".git",
        ".venv",
        "venv",
        "env",
        ".env",
        "__pycache__",
        "build",
        "dist",
        "node_modules",
        "site-packages",
        ".mypy_cache",
        ".pytest_cache",
        ".ruff_cache",
        ".tox",
    }
)
#: Files larger than this are skipped (generated code), with the reason shown.
MAX_FILE_BYTES = 10 * 1024 * 1024


@dataclass(frozen=True, slots=True)
class SourceFile:
    """A file to measure: where it is, the path reports show, and the core grammar
    that reads it (see `slopmark.code.measure.languages`)."""

    location: str
    path: str
    grammar: str = "python"


@dataclass(frozen=True, slots=True)
class SourceSet:
    root: str
    files: tuple[SourceFile, ...]
    skipped: tuple[Skipped, ...]


def project_excludes(root: Path) -> list[str]:
    """Globs from ``[tool.slopmark] exclude`` in the measured project's pyproject.toml."""
    config = root / "pyproject.toml"
    if not config.is_file():  # a FIFO or a device is not read (nor waited for)
        return []
    advice = "make it a regular file or remove it"
    try:
        data = tomllib.loads(read_regular(config, MAX_FILE_BYTES, advice=advice).decode())
    except (tomllib.TOMLDecodeError, UnicodeDecodeError) as error:
        raise BadInput(
            f"{config}: not valid TOML: {error}; fix it or remove [tool.slopmark]"
        ) from error
    excludes = data.get("tool", {}).get("slopmark", {}).get("exclude", [])
    if not isinstance(excludes, list) or not all(isinstance(e, str) for e in excludes):
        raise BadInput(f"{config}: [tool.slopmark] exclude must be a list of glob strings")
    return excludes


def excluded(path: str, globs: Sequence[str]) -> bool:
    """True when the relative posix ``path`` or its name matches one of ``globs``."""
    if not globs:
        return False
    name = PurePosixPath(path).name
    return any(fnmatch(path, g) or fnmatch(name, g) for g in globs)


def discover(
    path: Path,
    excludes: Sequence[str] = (),
    max_bytes: int = MAX_FILE_BYTES,
    languages: Sequence[str] = LANGUAGES,
) -> SourceSet:
    """Every source file of ``languages`` under ``path`` (or ``path`` itself when it is a
    file: a file of no known language is read as Python)."""
    kind = _kind(path)
    if not stat.S_ISDIR(kind):
        return _one_file(path, max_bytes)
    grammars = grammars_of(languages)
    globs = [*excludes, *project_excludes(path)]
    files: list[SourceFile] = []
    skipped: list[Skipped] = []
    for folder, dirs, names in os.walk(path):
        rel_folder = os.path.relpath(folder, path)
        rel_folder = "" if rel_folder == "." else rel_folder.replace(os.sep, "/") + "/"
        dirs[:] = sorted(d for d in dirs if _keep_dir(folder, rel_folder + d, d, globs, skipped))
        for name in sorted(names):
            grammar = grammar_of(name)
            if grammar in grammars and not excluded(rel_folder + name, globs):
                source = SourceFile(os.path.join(folder, name), rel_folder + name, grammar)
                _add_file(source, max_bytes, files, skipped)
    return SourceSet(str(path), tuple(files), tuple(skipped))


def _kind(path: Path) -> int:
    """The mode of the PATH a user named (symlinks followed); BadInput when it is neither a
    folder nor a regular file (a FIFO or a device would block the run or never end)."""
    try:
        mode = path.stat().st_mode
    except FileNotFoundError as error:
        raise BadInput(
            f"{path}: no such file or directory; pass a source file or a folder"
        ) from error
    except OSError as error:
        raise BadInput(
            f"{path}: cannot be read ({error.strerror}); pass a source file or a folder"
        ) from error
    if stat.S_ISDIR(mode) or stat.S_ISREG(mode):
        return mode
    raise BadInput(f"{path}: {not_regular(mode)}; pass a source file or a folder")


def _keep_dir(
    folder: str, rel: str, name: str, globs: Sequence[str], skipped: list[Skipped]
) -> bool:
    if name in EXCLUDED_DIRS or excluded(rel, globs):
        return False
    if os.path.islink(os.path.join(folder, name)):
        skipped.append(Skipped(rel + "/", "symlink (not followed)"))
        return False
    return True


def _add_file(
    source: SourceFile, max_bytes: int, files: list[SourceFile], skipped: list[Skipped]
) -> None:
    """Keep a regular file (its ``lstat``: a symlink is not followed) within ``max_bytes``;
    skip anything else with the reason (a FIFO would block the read, a device never end)."""
    try:
        found = os.lstat(source.location)
    except OSError as error:
        skipped.append(Skipped(source.path, f"unreadable: {error.strerror}"))
        return
    reason = not_regular(found.st_mode)
    if reason is None and found.st_size > max_bytes:
        reason = f"{over_limit(found.st_size, max_bytes)} (generated?)"
    if reason is None:
        files.append(source)
    else:
        skipped.append(Skipped(source.path, reason))


def _one_file(path: Path, max_bytes: int) -> SourceSet:
    files: list[SourceFile] = []
    skipped: list[Skipped] = []
    source = SourceFile(str(path), path.name, grammar_of(path.name) or "python")
    _add_file(source, max_bytes, files, skipped)
    return SourceSet(str(path), tuple(files), tuple(skipped))
