"""Read commits and file versions straight from a git object database (adapter).

Nothing is checked out: bare repositories and dirty work trees both work.
"""

from __future__ import annotations

import subprocess
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path

from slopmark.errors import BadInput, EngineError

_SYMLINK_MODE = "120000"


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
        try:
            done = subprocess.run(
                ["git", "-C", str(self.location), *args], input=stdin, capture_output=True
            )
        except FileNotFoundError as error:
            raise EngineError("git is not installed; install git to measure history") from error
        if check and done.returncode != 0:
            raise BadInput(f"git {' '.join(args)}: {done.stderr.decode(errors='replace').strip()}")
        return done

    def source_commits(self, rev: str) -> list[Commit]:
        """Commits of ``rev`` (a revision or range) that touch ``*.py`` files, oldest first."""
        done = self._run(
            [
                "rev-list",
                "--topo-order",
                "--reverse",
                "--format=%H%x00%cI%x00%s",
                rev,
                "--",
                "*.py",
            ],
            check=False,
        )
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
        """The ``*.py`` blobs of a commit (symlinks left out)."""
        done = self._run(["ls-tree", "-r", "-z", "--full-tree", sha])
        entries = []
        for record in done.stdout.split(b"\x00"):
            if not record:
                continue
            meta, _, path = record.partition(b"\t")
            mode, kind, blob = meta.decode().split(" ")
            name = path.decode(errors="surrogateescape")
            if kind == "blob" and mode != _SYMLINK_MODE and name.endswith(".py"):
                entries.append(Entry(name, blob))
        return entries

    def blob_sizes(self, blobs: Iterable[str]) -> dict[str, int]:
        request = "".join(f"{b}\n" for b in blobs).encode()
        done = self._run(["cat-file", "--batch-check"], stdin=request)
        sizes = {}
        for line in done.stdout.decode().splitlines():
            blob, _, size = line.split(" ")
            sizes[blob] = int(size)
        return sizes

    def blobs(self, blobs: list[str]) -> Iterator[tuple[str, bytes]]:
        """(id, content) of each blob, read through one ``git cat-file --batch``."""
        request = "".join(f"{b}\n" for b in blobs).encode()
        data = self._run(["cat-file", "--batch"], stdin=request).stdout
        pos = 0
        for _ in blobs:
            header_end = data.index(b"\n", pos)
            blob, _, size = data[pos:header_end].decode().split(" ")
            start = header_end + 1
            yield blob, data[start : start + int(size)]
            pos = start + int(size) + 1
