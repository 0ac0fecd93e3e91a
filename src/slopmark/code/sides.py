"""The two sides `code diff` compares: git revisions, the index, the work tree or folders.

A side is the set of measured files as `Version`s (path → git blob, file on disk)
plus what tells the files apart: git revisions and the index are read from the object
database (nothing is checked out), the work tree from disk (tracked files and untracked
ones git does not ignore), a plain folder as `code measure` sees it. Revisions a user
names are checked before use: one that starts with ``-`` is refused, and git always
gets them after ``--end-of-options``.
"""

from __future__ import annotations

import os
import posixpath
import stat
import tomllib
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from slopmark.code.analysis import Skipped
from slopmark.code.analyzer import Version
from slopmark.code.git import Repository
from slopmark.code.languages import suffixes
from slopmark.code.tree import EXCLUDED_DIRS, discover, excluded
from slopmark.errors import BadInput

_SYMLINK = "120000"
_SUBMODULE = "160000"
_SUFFIXES = frozenset(suffixes())
#: The tree of a repository without commits (git's well-known empty tree).
EMPTY_TREE = "4b825dc642cb6eb9a060e54bf8d69288fbee4904"


@dataclass(frozen=True)
class Side:
    """One side of a diff: its measured files by path, and the ones left out."""

    label: str
    versions: dict[str, Version]
    skipped: tuple[Skipped, ...] = ()


class DiffRepository(Repository):
    """A repository read for `code diff` (revisions, the index, the work tree)."""

    def __init__(self, location: Path) -> None:
        super().__init__(location)
        top = self._run(["rev-parse", "--show-toplevel"], check=False)
        self.top = (
            Path(top.stdout.decode(errors="surrogateescape").strip())
            if (top.returncode == 0 and top.stdout.strip())
            else None
        )

    def commit(self, rev: str) -> str:
        """The commit ``rev`` names (a sha); a clear error when there is none."""
        if not rev or rev.startswith("-"):
            raise BadInput(f"revision {rev!r}: must not be empty or start with '-'")
        done = self._run(
            ["rev-parse", "--verify", "--quiet", "--end-of-options", f"{rev}^{{commit}}"],
            check=False,
        )
        if done.returncode == 0:
            return done.stdout.decode().strip()
        shallow = self._run(["rev-parse", "--is-shallow-repository"], check=False)
        if shallow.stdout.strip() == b"true":
            raise BadInput(
                f"{self.location}: revision {rev!r} is not in this shallow clone; "
                "fetch more history (git fetch --deepen=100, or fetch-depth: 0 in CI)"
            )
        raise BadInput(
            f"{self.location}: unknown revision {rev!r}; pass a branch, tag or commit sha"
        )

    def has_commits(self) -> bool:
        return self._run(["rev-parse", "--verify", "--quiet", "HEAD"], check=False).returncode == 0

    def revision_files(self, sha: str) -> dict[str, str]:
        """path → blob of the source files of a commit (or of `EMPTY_TREE`)."""
        if sha == EMPTY_TREE:
            return {}
        return {e.path: e.blob for e in self.tree(sha)}

    def index_files(self) -> dict[str, str]:
        """path → blob of the staged source files (the merged stage of each path)."""
        done = self._run(["ls-files", "-s", "-z", "--full-name"])
        files = {}
        for record in done.stdout.split(b"\0"):
            meta, _, path = record.partition(b"\t")
            if not path:
                continue
            mode, oid, stage = meta.decode().split(" ")
            name = path.decode(errors="surrogateescape")
            if stage == "0" and mode not in (_SYMLINK, _SUBMODULE) and _source(name):
                files[name] = oid
        return files

    def work_tree_files(self) -> list[str]:
        """The source files of the work tree git knows or would add (not ignored)."""
        command = ["ls-files", "-z", "--full-name", "--cached", "--others", "--exclude-standard"]
        done = self._run(command)
        names = {p.decode(errors="surrogateescape") for p in done.stdout.split(b"\0") if p}
        return sorted(name for name in names if _source(name))

    def text_at(self, spec: str) -> bytes | None:
        """The blob ``spec`` (``sha:path`` or ``:path`` for the index), None when absent."""
        done = self._run(["cat-file", "blob", spec], check=False)
        return done.stdout if done.returncode == 0 else None


def _source(path: str) -> bool:
    """A file of a language slopmark reads (by suffix, as `languages.grammar_of` sees it)."""
    return posixpath.splitext(path)[1].lower() in _SUFFIXES


def _kept(path: str, globs: Sequence[str]) -> bool:
    parts = path.split("/")
    return not EXCLUDED_DIRS.intersection(parts[:-1]) and not (globs and excluded(path, globs))


def _excludes(config: bytes | None, where: str) -> list[str]:
    """``[tool.slopmark] exclude`` of a side's pyproject.toml (as `code measure` reads it)."""
    if config is None:
        return []
    try:
        data = tomllib.loads(config.decode("utf-8"))
    except (tomllib.TOMLDecodeError, UnicodeDecodeError) as error:
        message = f"{where}: not valid TOML: {error}; fix it or remove [tool.slopmark]"
        raise BadInput(message) from None
    found = data.get("tool", {}).get("slopmark", {}).get("exclude", [])
    if not isinstance(found, list) or not all(isinstance(e, str) for e in found):
        raise BadInput(f"{where}: [tool.slopmark] exclude must be a list of glob strings")
    return found


def _blob_side(
    repo: DiffRepository,
    label: str,
    files: dict[str, str],
    config: tuple[bytes | None, str],
    options: tuple[Sequence[str], int],
) -> Side:
    excludes, max_bytes = options
    globs = [*excludes, *_excludes(*config)]
    kept = {path: oid for path, oid in files.items() if _kept(path, globs)}
    sizes = repo.blob_sizes(sorted(set(kept.values()))) if kept else {}
    versions, skipped = {}, []
    for path, oid in sorted(kept.items()):
        if sizes.get(oid, 0) > max_bytes:
            skipped.append(Skipped(path, f"{sizes[oid] / 2**20:.1f} MiB is over the size limit"))
        else:
            versions[path] = Version(path, oid=oid)
    return Side(label, versions, tuple(skipped))


def revision_side(repo: DiffRepository, rev: str, excludes: Sequence[str], max_bytes: int) -> Side:
    """The files of revision ``rev`` (HEAD of a repository without commits: none)."""
    if rev == "HEAD" and not repo.has_commits():
        return Side("HEAD (no commits yet)", {})
    sha = repo.commit(rev)
    config = (repo.text_at(f"{sha}:pyproject.toml"), f"{rev}:pyproject.toml")
    return _blob_side(repo, rev, repo.revision_files(sha), config, (excludes, max_bytes))


def index_side(repo: DiffRepository, excludes: Sequence[str], max_bytes: int) -> Side:
    """The staged files (what the next commit would hold)."""
    _need_work_tree(repo)
    config = (repo.text_at(":pyproject.toml"), "pyproject.toml (staged)")
    return _blob_side(repo, "index", repo.index_files(), config, (excludes, max_bytes))


def work_tree_side(repo: DiffRepository, excludes: Sequence[str], max_bytes: int) -> Side:
    """The work tree's files, tracked or not ignored, as they are on disk."""
    top = _need_work_tree(repo)
    config_path = top / "pyproject.toml"
    config = config_path.read_bytes() if config_path.is_file() else None
    globs = [*excludes, *_excludes(config, str(config_path))]
    versions, skipped = {}, []
    folder = str(top)
    for path in repo.work_tree_files():
        location = os.path.join(folder, path)
        try:
            found = os.lstat(location)
        except FileNotFoundError:
            continue  # deleted in the work tree, not yet staged
        except OSError as error:
            found = None
            reason: str | None = f"unreadable: {error.strerror}"
        if not _kept(path, globs):
            continue
        if found is not None:
            reason = _unusable(found, max_bytes)
        if reason:
            skipped.append(Skipped(path, reason))
        else:
            versions[path] = Version(path, location=location)
    return Side("work tree", versions, tuple(skipped))


def folder_side(path: Path, excludes: Sequence[str], max_bytes: int) -> Side:
    """A folder as `code measure` sees it."""
    found = discover(path, excludes, max_bytes)
    versions = {f.path: Version(f.path, location=f.location) for f in found.files}
    return Side(str(path), versions, found.skipped)


def _need_work_tree(repo: DiffRepository) -> Path:
    if repo.top is None:
        raise BadInput(
            f"{repo.location}: a repository without a work tree (bare); "
            "pass two revisions: slopmark code diff BASE HEAD"
        )
    return repo.top


def _unusable(found: os.stat_result, max_bytes: int) -> str | None:
    if stat.S_ISLNK(found.st_mode):
        return "symlink (not followed)"
    if not stat.S_ISREG(found.st_mode):
        return "not a regular file"
    size = found.st_size
    if size > max_bytes:
        return f"{size / 2**20:.1f} MiB is over the {max_bytes / 2**20:.0f} MiB limit (generated?)"
    return None
