"""Which files of a tree are measured, and why the others are not (adapter: file system)."""

from __future__ import annotations

import os
import stat
import tomllib
from collections.abc import Sequence
from dataclasses import dataclass, field
from fnmatch import fnmatch
from pathlib import Path, PurePosixPath

from slopmark.code.measure.ecosystems import NOT_TREES, folder_reason, go_reason
from slopmark.code.measure.fileanalysis import Skipped
from slopmark.code.measure.gitignore import Ignores
from slopmark.code.measure.gitignore import parse as parse_ignores
from slopmark.code.measure.languages import LANGUAGES, grammar_of
from slopmark.code.measure.scopes import SCOPES, Choice, Coverage, scope_of
from slopmark.errors import BadInput
from slopmark.regular import not_regular, over_limit, read_regular

#: Folders the bench's workspace discovery (`slopmark.code.bench.quality`) leaves out by
#: name; `discover` follows each ecosystem's rules instead (`slopmark.code.measure.ecosystems`).
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
#: A ``.gitignore`` larger than this is not read (it is a hint, a few lines long).
MAX_IGNORE_BYTES = 2**20


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
    #: the languages and scopes measured, and what the choice left out
    coverage: Coverage = field(default_factory=Coverage)


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
    scopes: Sequence[str] = SCOPES,
) -> SourceSet:
    """Every source file of ``languages`` and ``scopes`` under ``path`` (or ``path`` itself
    when it is a file: a file of no known language is read as Python), found by each
    ecosystem's rules (`slopmark.code.measure.ecosystems`, ``.gitignore`` files)."""
    kind = _kind(path)
    if not stat.S_ISDIR(kind):
        return _one_file(path, max_bytes)
    walk = Walk(str(path), [*excludes, *project_excludes(path)])
    found = walk.sources()
    chosen, coverage = Choice(languages, scopes).select(found)
    files: list[SourceFile] = []
    for rel in chosen:
        source = SourceFile(os.path.join(path, rel), rel, grammar_of(rel) or "python")
        _add_file(source, max_bytes, files, walk.skipped)
    return SourceSet(str(path), tuple(files), tuple(walk.skipped), coverage)


class Walk:
    """A walk of a folder: the source files it finds (relative posix paths) and what it
    leaves out with the reason (``skipped``); ``--exclude`` and project globs leave files
    out unreported, as the user asked."""

    #: the reason a symlinked folder is not entered
    LINK = "symlink (not followed)"

    def __init__(self, root: str, globs: Sequence[str]) -> None:
        self.root = root
        self.globs = globs
        self.skipped: list[Skipped] = []
        self.ignores: dict[str, Ignores] = {"": Ignores()}

    def sources(self) -> list[str]:
        found: list[str] = []
        for folder, dirs, names in os.walk(self.root):
            rel = os.path.relpath(folder, self.root)
            rel = "" if rel == "." else rel.replace(os.sep, "/") + "/"
            ignores = self._ignores_at(folder, rel)
            dirs[:] = [d for d in sorted(dirs) if self._enter(folder, rel + d, ignores)]
            for name in sorted(names):
                if grammar_of(name) is not None and self._keep(rel + name, ignores):
                    found.append(rel + name)
        return found

    def _ignores_at(self, folder: str, rel: str) -> Ignores:
        """The ignores in force in ``folder``: its parent's and its own ``.gitignore``."""
        parent = self.ignores.pop(rel, None) or Ignores()
        text = _small_text(os.path.join(folder, ".gitignore"))
        return parent.below(rel, parse_ignores(text)) if text else parent

    def _enter(self, folder: str, rel: str, ignores: Ignores) -> bool:
        """Whether to walk into the folder ``rel`` (else its exclusion is recorded)."""
        name = rel.rpartition("/")[2]
        if name in NOT_TREES or excluded(rel, self.globs):
            return False
        reason = self._folder_reason(folder, rel, name, ignores)
        if reason is not None:
            self.skipped.append(Skipped(rel + "/", reason))
            return False
        self.ignores[rel + "/"] = ignores
        return True

    def _folder_reason(self, folder: str, rel: str, name: str, ignores: Ignores) -> str | None:
        if os.path.islink(os.path.join(folder, name)):
            return self.LINK
        pattern = ignores.match(rel, is_folder=True)
        if pattern is not None:
            return f"ignored by .gitignore ({pattern.text})"
        return folder_reason(rel, lambda p: os.path.lexists(os.path.join(self.root, p)))

    def _keep(self, rel: str, ignores: Ignores) -> bool:
        if excluded(rel, self.globs):
            return False
        pattern = ignores.match(rel, is_folder=False)
        reason = f"ignored by .gitignore ({pattern.text})" if pattern else go_reason(rel)
        if reason is not None:
            self.skipped.append(Skipped(rel, reason))
        return reason is None


def _small_text(location: str) -> str | None:
    """The text of a regular file of at most `MAX_IGNORE_BYTES` (None: absent, not a
    regular file, too big or unreadable; a ``.gitignore`` is a hint, not an input)."""
    try:
        found = os.lstat(location)
        if not stat.S_ISREG(found.st_mode) or found.st_size > MAX_IGNORE_BYTES:
            return None
        with open(location, "rb") as file:
            return file.read(MAX_IGNORE_BYTES).decode("utf-8", "replace")
    except OSError:
        return None


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
    """The file a user named, measured whatever its language and scope (the choice is
    the file), its scope said in the `Coverage`."""
    files: list[SourceFile] = []
    skipped: list[Skipped] = []
    source = SourceFile(str(path), path.name, grammar_of(path.name) or "python")
    _add_file(source, max_bytes, files, skipped)
    kept = {scope_of(path.as_posix()): len(files)} if files else {}
    return SourceSet(str(path), tuple(files), tuple(skipped), Coverage(kept=kept))
