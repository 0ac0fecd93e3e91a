"""Read commits and file versions straight from a git object database (adapter).

Nothing is checked out: bare repositories and dirty work trees both work.

Every git command slopmark runs is built by `git_command` and run with
`git_environment` (`run_git`): the repository being read never decides what runs.
Its config could name programs for git to start; the commands used here
(rev-parse, rev-list, ls-tree, diff-tree, ls-files, cat-file, clone) would start
these ones, and they are turned off on the command line, which wins over any
config file: ``core.fsmonitor`` (ls-files and cat-file on the index), hooks
(``core.hooksPath``), transports (``protocol.allow``: a partial clone's lazy
fetch would otherwise run ``core.sshCommand`` or ``remote.*.uploadpack``; a
clone allows the usual ones but never ``ext::``), an external diff or textconv
(diff-tree's ``--no-ext-diff --no-textconv``) and the pager. The system config
is not read (``GIT_CONFIG_NOSYSTEM``); prompts, askpass and ssh are fixed by the
environment, which git prefers to config. Clean and smudge filters run only when
git hashes or checks out work-tree files, which none of these commands do.
"""

from __future__ import annotations

import os
import posixpath
import subprocess
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path

from slopmark.code.measure import levels
from slopmark.code.measure.languages import grammar_of, suffixes
from slopmark.errors import BadInput, EngineError

_SYMLINK_MODE = "120000"
#: file modes of entries that are neither regular files nor symlinks: trees, submodules
_NOT_FILES = ("040000", "160000")
_DELETED = "000000"


@dataclass(frozen=True, slots=True)
class Commit:
    sha: str
    date: str
    subject: str


@dataclass(frozen=True, slots=True)
class Entry:
    """A file of a commit's tree: its path and blob id."""

    path: str
    blob: str


#: ``-c`` settings of every git call: nothing the repository configures is started.
SAFE_CONFIG = (
    "core.fsmonitor=",
    "core.hooksPath=/dev/null",
    "protocol.ext.allow=never",
)
#: Reading a repository needs no transport: a lazy fetch goes nowhere.
NO_TRANSPORT = ("protocol.allow=never",)
#: The environment of every git call: no system config, no prompt, no pager, batch ssh.
GIT_ENV = {
    "GIT_CONFIG_NOSYSTEM": "1",
    "GIT_TERMINAL_PROMPT": "0",
    "GIT_ASKPASS": "true",
    "SSH_ASKPASS": "true",
    "GIT_SSH_COMMAND": "ssh -o BatchMode=yes",
    "GIT_PAGER": "cat",
    "GIT_NO_LAZY_FETCH": "1",
}


def git_command(
    args: Sequence[str], location: Path | None = None, fetch: bool = False
) -> list[str]:
    """``git ARGS`` (in ``location``) with every repository-configured program off;
    ``fetch`` allows the transports a clone needs (never ``ext::``)."""
    settings = SAFE_CONFIG if fetch else (*SAFE_CONFIG, *NO_TRANSPORT)
    where = ["-C", str(location)] if location is not None else []
    return ["git", "--no-pager", *(f for s in settings for f in ("-c", s)), *where, *args]


def git_environment() -> dict[str, str]:
    return {**os.environ, **GIT_ENV}


def run_git(
    args: Sequence[str],
    location: Path | None = None,
    *,
    stdin: bytes | None = None,
    timeout: float | None = None,
    fetch: bool = False,
) -> subprocess.CompletedProcess[bytes]:
    """Run `git_command` (output captured; `subprocess.TimeoutExpired` after ``timeout``)."""
    try:
        return subprocess.run(
            git_command(args, location, fetch), input=stdin, capture_output=True,
            env=git_environment(), timeout=timeout,
            stdin=subprocess.DEVNULL if stdin is None else None,
        )  # fmt: skip
    except FileNotFoundError as error:
        raise EngineError("git is not installed; install git to read repositories") from error


def check_revision(rev: str) -> str:
    """``rev`` unless git could read it as an option (it starts with ``-``) or it is empty.

    Every revision reaches git after ``--end-of-options`` as well; this check
    turns the attempt into a clear error instead of git's "bad revision".
    """
    if not rev.strip() or rev.startswith("-"):
        raise BadInput(
            f"revision {rev!r}: not a revision (starts with '-' or is empty); "
            "pass a branch, tag, sha or A..B"
        )
    return rev


class Repository:
    def __init__(self, location: Path) -> None:
        self.location = location
        if not location.exists():
            raise BadInput(f"{location}: no such directory; pass a git repository")
        probe = self._run(["rev-parse", "--git-dir"], check=False)
        if probe.returncode != 0:
            raise BadInput(
                f"{location}: not a git repository; pass a folder under git (bare is fine)"
            )

    def _run(
        self, args: list[str], check: bool = True, stdin: bytes | None = None
    ) -> subprocess.CompletedProcess[bytes]:
        done = run_git(args, self.location, stdin=stdin)
        if check and done.returncode != 0:
            lines = done.stderr.decode(errors="replace").strip().splitlines() or ["failed"]
            raise BadInput(f"git {' '.join(args)}: {lines[0]}")
        return done

    @property
    def prefix(self) -> str:
        """The folder of the repository this one was opened at (``src/flask/``; "" at the
        top or in a bare repository): git takes pathspecs relative to it."""
        done = self._run(["rev-parse", "--show-prefix"], check=False)
        return done.stdout.decode(errors="surrogateescape").strip()

    def source_commits(self, rev: str, first_parent: bool = True) -> list[Commit]:
        """Commits of ``rev`` (a revision or range) that touch source files, oldest first:
        those of its first-parent line (``first_parent``), else every reachable one."""
        check_revision(rev)
        command = ["rev-list", "--topo-order", "--reverse", "--format=%H%x00%cI%x00%s"]
        if first_parent:
            command.insert(1, "--first-parent")
        sources = [f"*{suffix}" for suffix in suffixes()]
        return self._commits([*command, "--end-of-options", rev, "--", *sources], rev)

    def tip(self, rev: str) -> Commit:
        """The revision's own commit (``B`` of ``A..B``): a history's last point."""
        check_revision(rev)
        command = ["rev-list", "--max-count=1", "--format=%H%x00%cI%x00%s"]
        found = self._commits([*command, "--end-of-options", rev, "--"], rev)
        if not found:
            raise BadInput(f"{self.location}: revision {rev!r} holds no commit; pass A..B with B "
                           "not an ancestor of A")  # fmt: skip
        return found[0]

    def shas(self, *args: str) -> list[str]:
        """The commit ids ``git rev-list ARGS --end-of-options REV --`` lists (the last of
        ``args`` is the revision)."""
        *options, rev = args
        done = self._run(["rev-list", *options, "--end-of-options", check_revision(rev), "--"])
        return done.stdout.decode().split()

    def _commits(self, command: list[str], rev: str) -> list[Commit]:
        done = self._run(command, check=False)
        if done.returncode != 0:
            message = done.stderr.decode(errors="replace").strip().splitlines()
            detail = message[0] if message else "unknown revision"
            raise BadInput(
                f"{self.location}: revision {rev!r} not usable: {detail}; "
                "pass a branch, tag, sha or A..B"
            )
        commits = []
        for line in done.stdout.decode(errors="replace").splitlines():
            if line.startswith("commit "):
                continue
            sha, date, subject = (line.split("\x00") + ["", ""])[:3]
            commits.append(Commit(sha, date, subject))
        return commits

    def tree(self, sha: str) -> list[Entry]:
        """The source blobs of a commit (symlinks left out), sorted by path."""
        check_revision(sha)
        done = self._run(["ls-tree", "-r", "-z", "--full-tree", "--end-of-options", sha])
        files: dict[str, str] = {}
        for record in done.stdout.split(b"\x00"):
            if not record:
                continue
            meta, _, path = record.partition(b"\t")
            mode, _kind, blob = meta.decode().split(" ")
            _set(files, path.decode(errors="surrogateescape"), mode, blob)
        return _entries(files)

    def trees(self, shas: Sequence[str]) -> dict[str, list[Entry]]:
        """`tree` of each commit: the first listed whole, each later one as its predecessor
        in ``shas`` changed by their difference, every difference from one git process."""
        if not shas:
            return {}
        files = {e.path: e.blob for e in self.tree(shas[0])}
        found = {shas[0]: _entries(files)}
        pairs = "".join(f"{now} {before}\n" for before, now in zip(shas, shas[1:], strict=False))
        if pairs:
            command = ["diff-tree", "--stdin", "-r", "-z", "--no-renames", "--always",
                       "--no-ext-diff", "--no-textconv"]  # fmt: skip
            output = self._run(command, stdin=pairs.encode()).stdout
            for sha, changes in _differences(output):
                for path, mode, blob in changes:
                    _set(files, path, mode, blob)
                found[sha] = _entries(files)
        missing = [sha for sha in shas if sha not in found]
        if missing:
            raise EngineError(f"git diff-tree gave no difference for commit {missing[0]}")
        return found

    def build_texts(self, sha: str) -> dict[str, str]:
        """path → text of the build files of commit ``sha`` that set a language level
        (`slopmark.code.measure.levels`): regular files within `levels.MAX_BUILD_BYTES`,
        UTF-8, read through one ``git cat-file --batch``."""
        done = self._run(["ls-tree", "-r", "-z", "-l", "--full-tree", "--end-of-options", sha])
        wanted: dict[str, list[str]] = {}
        for record in done.stdout.split(b"\0"):
            meta, _, path = record.partition(b"\t")
            name = path.decode(errors="surrogateescape")
            blob = _build_blob(meta.decode().split(), name)
            if blob is not None:
                wanted.setdefault(blob, []).append(name)
        texts = {}
        for blob, data in self.blobs(sorted(wanted)):
            try:
                texts.update(dict.fromkeys(wanted[blob], data.decode("utf-8")))
            except UnicodeDecodeError:
                continue  # not UTF-8: its level is unknown
        return texts

    def blob_sizes(self, blobs: Iterable[str]) -> dict[str, int]:
        request = "".join(f"{b}\n" for b in blobs).encode()
        done = self._run(["cat-file", "--batch-check"], stdin=request)
        sizes = {}
        for line in done.stdout.decode().splitlines():
            fields = line.split(" ")
            if len(fields) == 3:  # else "<id> missing": not in the object database
                sizes[fields[0]] = int(fields[2])
        return sizes

    def blobs(self, blobs: list[str]) -> Iterator[tuple[str, bytes]]:
        """(id, content) of each blob, read through one ``git cat-file --batch``; a blob
        the object database lacks (a partial clone's, never fetched) is left out."""
        request = "".join(f"{b}\n" for b in blobs).encode()
        data = self._run(["cat-file", "--batch"], stdin=request).stdout
        pos = 0
        for _ in blobs:
            header_end = data.index(b"\n", pos)
            fields = data[pos:header_end].decode().split(" ")
            start = pos = header_end + 1
            if len(fields) == 3:  # else "<id> missing"
                size = int(fields[2])
                yield fields[0], data[start : start + size]
                pos = start + size + 1


def _build_blob(fields: list[str], name: str) -> str | None:
    """The blob of an ``ls-tree -l`` record (mode, type, blob, size) when it is a build
    file a level is read from, a regular file within the size limit."""
    if len(fields) != 4 or fields[0] not in ("100644", "100755") or not fields[3].isdigit():
        return None
    if int(fields[3]) > levels.MAX_BUILD_BYTES or posixpath.basename(name) not in levels.PARSERS:
        return None
    return fields[2]


def _differences(output: bytes) -> Iterator[tuple[str, list[tuple[str, str, str]]]]:
    """Each commit of ``git diff-tree --stdin -z --always`` output with its changed files
    as (path, new mode, new blob)."""
    sha: str | None = None
    changes: list[tuple[str, str, str]] = []
    fields = iter(output.split(b"\x00"))
    for field in fields:
        text = field.decode(errors="surrogateescape")
        if text.startswith(":"):  # ":old_mode new_mode old_blob new_blob status", then the path
            _old_mode, mode, _old_blob, blob, _status = text[1:].split(" ")
            changes.append((next(fields).decode(errors="surrogateescape"), mode, blob))
        elif text.strip():  # the next commit, the one compared with its predecessor
            if sha is not None:
                yield sha, changes
            sha, changes = text.strip(), []
    if sha is not None:
        yield sha, changes


def _set(files: dict[str, str], path: str, mode: str, blob: str) -> None:
    """Record the source file at ``path`` (a regular file) or forget it (gone, a symlink,
    a submodule)."""
    if grammar_of(path) is None:
        return
    if mode in (_DELETED, _SYMLINK_MODE, *_NOT_FILES):
        files.pop(path, None)
    else:
        files[path] = blob


def _entries(files: dict[str, str]) -> list[Entry]:
    return [Entry(path, blob) for path, blob in sorted(files.items())]
