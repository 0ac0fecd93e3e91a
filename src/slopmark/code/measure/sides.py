"""The two sides `code diff` compares: git revisions, the index, the work tree or folders.

A side is the set of measured files as `Version`s (path → git blob, file on disk)
plus what tells the files apart: git revisions and the index are read from the object
database (nothing is checked out), the work tree from disk (tracked files and untracked
ones git does not ignore), a plain folder walked (symlinks are not followed). Revisions
a user names are checked before use: one that starts with ``-`` is refused, and git
always gets them after ``--end-of-options``.

Each side reads its own ``[tool.slopmark]`` settings (`ProjectConfig`) but is listed with
the settings it is given: `code diff` lists both sides with the base side's, so the
change under review never configures its own measurement. A skipped file keeps the id
of its content where one is known (its git blob id; on disk, the blob id git would give
it), so a diff lists the skips a change touches and not the ones it leaves as they were.
"""

from __future__ import annotations

import hashlib
import os
import posixpath
import stat
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from slopmark.code.measure.cache.files import Version
from slopmark.code.measure.discovery import Walk
from slopmark.code.measure.ecosystems import tracked_reason
from slopmark.code.measure.fileanalysis import Skipped
from slopmark.code.measure.git import Repository
from slopmark.code.measure.languages import suffixes
from slopmark.code.measure.project import CONFIG_FILE, ProjectConfig, hidden_by, project_config
from slopmark.errors import BadInput
from slopmark.regular import not_regular, over_limit, read_regular

_SYMLINK = "120000"
_SUBMODULE = "160000"
_SUFFIXES = frozenset(suffixes())
#: The tree of a repository without commits (git's well-known empty tree).
EMPTY_TREE = "4b825dc642cb6eb9a060e54bf8d69288fbee4904"
#: A pyproject.toml on disk larger than this is refused (settings are a few lines).
MAX_CONFIG_BYTES = 2**20
#: A skipped file larger than this gets no content id (it is listed in every diff).
MAX_HASHED_BYTES = 2**28


@dataclass(frozen=True)
class Side:
    """One side of a diff: its measured files by path, the ones skipped (with the ids of
    their contents, where known), its own settings, and the files the settings it was
    listed with hide."""

    label: str
    versions: dict[str, Version]
    skipped: tuple[Skipped, ...] = ()
    skipped_ids: Mapping[str, str] = field(default_factory=dict)
    config: ProjectConfig = ProjectConfig()
    hidden: tuple[str, ...] = ()


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
        if self.top is not None and not location.resolve().is_relative_to(self.top.resolve()):
            raise BadInput(
                f"{location}: its git config puts the work tree at {self.top} (core.worktree), "
                "outside the folder you named; pass that folder, or two revisions"
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

    def object_format(self) -> str:
        """The hash of the repository's object ids (``sha1`` or ``sha256``)."""
        done = self._run(["rev-parse", "--show-object-format"], check=False)
        found = done.stdout.decode(errors="replace").strip()
        return found if done.returncode == 0 and found in ("sha1", "sha256") else "sha1"

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
    """Whether ``path`` is listed: no glob hides it and no ecosystem rule leaves it out
    (`ecosystems.tracked_reason`: vendored packages, what the go tool ignores)."""
    return tracked_reason(path.rstrip("/")) is None and not hidden_by(path, globs)


def _split(
    paths: Iterable[str], excludes: Sequence[str], config: ProjectConfig
) -> tuple[list[str], list[str]]:
    """(paths listed, paths ``config``'s globs hide) of ``paths``; the rest are left out by
    ecosystem rules (`_kept`) or ``excludes`` (``--exclude``)."""
    kept: list[str] = []
    hidden: list[str] = []
    for path in paths:
        if _kept(path, excludes):
            (hidden if hidden_by(path, config.excludes) else kept).append(path)
    return kept, hidden


def _too_big(size: int, max_bytes: int) -> str:
    return f"{over_limit(size, max_bytes)} (generated?)"


def _blob_side(
    repo: DiffRepository,
    label: str,
    files: dict[str, str],
    configs: tuple[ProjectConfig, ProjectConfig],
    options: tuple[Sequence[str], int],
) -> Side:
    """A side read from git objects (``configs``: its own settings, those it is listed with)."""
    (excludes, max_bytes), (own, used) = options, configs
    kept, hidden = _split(sorted(files), excludes, used)
    sizes = repo.blob_sizes(sorted({files[p] for p in kept})) if kept else {}
    versions, skipped, ids = {}, [], {}
    for path in kept:
        oid = files[path]
        if sizes.get(oid, 0) > max_bytes:
            skipped.append(Skipped(path, _too_big(sizes[oid], max_bytes)))
            ids[path] = oid
        else:
            versions[path] = Version(path, oid=oid)
    return Side(label, versions, tuple(skipped), ids, own, tuple(hidden))


def revision_side(
    repo: DiffRepository,
    rev: str,
    excludes: Sequence[str],
    max_bytes: int,
    config: ProjectConfig | None = None,
) -> Side:
    """The files of revision ``rev`` (HEAD of a repository without commits: none), listed
    with ``config`` (default: the revision's own settings)."""
    where = f"{rev}:{CONFIG_FILE}"
    if rev == "HEAD" and not repo.has_commits():
        return Side("HEAD (no commits yet)", {}, config=ProjectConfig(where))
    sha = repo.commit(rev)
    own = project_config(repo.text_at(f"{sha}:{CONFIG_FILE}"), where)
    files = repo.revision_files(sha)
    return _blob_side(repo, rev, files, (own, config or own), (excludes, max_bytes))


def index_side(
    repo: DiffRepository, excludes: Sequence[str], max_bytes: int, config: ProjectConfig
) -> Side:
    """The staged files (what the next commit would hold), listed with ``config``."""
    _need_work_tree(repo)
    own = project_config(repo.text_at(f":{CONFIG_FILE}"), f"{CONFIG_FILE} (staged)")
    return _blob_side(repo, "index", repo.index_files(), (own, config), (excludes, max_bytes))


def work_tree_side(
    repo: DiffRepository, excludes: Sequence[str], max_bytes: int, config: ProjectConfig
) -> Side:
    """The work tree's files, tracked or not ignored, as they are on disk, listed with
    ``config``."""
    top = _need_work_tree(repo)
    listing = _Listing(str(top), repo.work_tree_files(), (), repo.object_format())
    return _disk_side("work tree", listing, (disk_config(top), config), (excludes, max_bytes))


def folder_side(
    path: Path, excludes: Sequence[str], max_bytes: int, config: ProjectConfig | None = None
) -> Side:
    """The source files under the folder ``path`` (symlinks are not followed), listed
    with ``config`` (default: the folder's own settings)."""
    own = disk_config(path)
    paths, links = _walk(path)
    listing = _Listing(str(path), paths, links, "sha1")
    return _disk_side(str(path), listing, (own, config or own), (excludes, max_bytes))


def disk_config(folder: Path) -> ProjectConfig:
    """The settings in ``folder``'s pyproject.toml: a regular file (a symlink or a special
    file is refused, never followed or opened)."""
    location = folder / CONFIG_FILE
    if not os.path.lexists(location):
        return ProjectConfig(str(location))
    advice = "make it a regular file in the folder, or remove it"
    text = read_regular(location, MAX_CONFIG_BYTES, follow=False, advice=advice)
    return project_config(text, str(location))


@dataclass(frozen=True)
class _Listing:
    """Files to list from disk: the folder, the source paths under it, its symlinked
    folders (``name/``) and the hash git would name their contents with."""

    folder: str
    paths: Sequence[str]
    links: Sequence[str]
    algorithm: str


def _disk_side(
    label: str,
    listing: _Listing,
    configs: tuple[ProjectConfig, ProjectConfig],
    options: tuple[Sequence[str], int],
) -> Side:
    (excludes, max_bytes), (own, used) = options, configs
    kept, hidden = _split([*listing.paths, *listing.links], excludes, used)
    versions, skipped, ids = {}, [], {}
    for path in kept:
        location = os.path.join(listing.folder, path.rstrip("/"))
        try:
            found = os.lstat(location)
        except FileNotFoundError:
            continue  # deleted in the work tree, not yet staged
        except OSError as error:
            skipped.append(Skipped(path, f"unreadable: {error.strerror}"))
            continue
        reason = _unusable(found, max_bytes)
        if reason is None:
            versions[path] = Version(path, location=location)
            continue
        skipped.append(Skipped(path, reason))
        content = _content_id(location, found, listing.algorithm)
        if content is not None:
            ids[path] = content
    return Side(label, versions, tuple(skipped), ids, own, tuple(hidden))


def _walk(root: Path) -> tuple[list[str], list[str]]:
    """(source files, symlinked folders as ``name/``) under ``root``, relative posix
    paths, found as `code measure` finds them (`slopmark.code.measure.discovery.Walk`:
    each ecosystem's rules, ``.gitignore`` files); symlinked folders are not followed."""
    walk = Walk(str(root), ())
    paths = walk.sources()
    links = [s.path for s in walk.skipped if s.path.endswith("/") and s.reason == Walk.LINK]
    return paths, links


def _need_work_tree(repo: DiffRepository) -> Path:
    if repo.top is None:
        raise BadInput(
            f"{repo.location}: a repository without a work tree (bare); "
            "pass two revisions: slopmark code diff BASE HEAD"
        )
    return repo.top


def _unusable(found: os.stat_result, max_bytes: int) -> str | None:
    if reason := not_regular(found.st_mode):
        return reason
    return _too_big(found.st_size, max_bytes) if found.st_size > max_bytes else None


def _content_id(location: str, found: os.stat_result, algorithm: str) -> str | None:
    """The id git would give a skipped file (a symlink: its target), None when it is not
    a regular file or symlink, or too big to hash."""
    try:
        if stat.S_ISLNK(found.st_mode):
            target = os.fsencode(os.readlink(location))
            return _blob_id(algorithm, len(target), [target])
        return _file_id(location, algorithm) if stat.S_ISREG(found.st_mode) else None
    except OSError:
        return None  # changed or gone since it was looked at: no id, so the skip is listed


def _file_id(location: str, algorithm: str) -> str | None:
    """The id of the regular file at ``location``, opened without following a symlink or
    waiting on a pipe put in its place (None: not a regular file now, or too big)."""
    handle = os.open(location, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK)
    with os.fdopen(handle, "rb") as file:
        found = os.fstat(file.fileno())
        if not stat.S_ISREG(found.st_mode) or found.st_size > MAX_HASHED_BYTES:
            return None
        return _blob_id(algorithm, found.st_size, iter(lambda: file.read(2**20), b""))


def _blob_id(algorithm: str, size: int, chunks: Iterable[bytes]) -> str:
    digest = hashlib.new(algorithm, f"blob {size}\0".encode())
    for chunk in chunks:
        digest.update(chunk)
    return digest.hexdigest()
