"""A generated repository whose history is not a line: a maintenance branch merged back,
and a second root (an unrelated history) merged with ``--allow-unrelated-histories``."""

from __future__ import annotations

import subprocess
from dataclasses import dataclass
from pathlib import Path

COMPLEX = "def busy(a):\n" + "".join(f"    if a == {i}:\n        return {i}\n" for i in range(12))


@dataclass(frozen=True)
class Shas:
    """The commits by subject, and the repository."""

    repo: Path
    by_subject: dict[str, str]

    def __getitem__(self, subject: str) -> str:
        return self.by_subject[subject]

    def of(self, *subjects: str) -> list[str]:
        return [self.by_subject[s] for s in subjects]


def git(repo: Path, *args: str) -> str:
    done = subprocess.run(["git", "-C", str(repo), *args], capture_output=True, text=True,
                          check=True)  # fmt: skip
    return done.stdout


def _commit(repo: Path, files: dict[str, str], subject: str, day: int) -> None:
    for name, text in files.items():
        target = repo / name
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(text)
    git(repo, "add", "-A")
    _author(repo, "commit", "-qm", subject, day=day)


def _author(repo: Path, *args: str, day: int) -> None:
    date = f"2022-03-{day:02d}T12:00:00"
    subprocess.run(
        ["git", "-c", "user.email=t@t", "-c", "user.name=t", "-C", str(repo), *args],
        check=True, capture_output=True,
        env={"GIT_AUTHOR_DATE": date, "GIT_COMMITTER_DATE": date, "PATH": "/usr/bin:/bin"},
    )  # fmt: skip


def make_tangled_repo(repo: Path) -> Shas:
    """main: m1 m2 m3 merge-maint merge-core m4 docs (HEAD, no source change); maint (from
    m2): b1 b2; core (a second root): r1 r2."""
    repo.mkdir(parents=True)
    git(repo, "init", "-q", "-b", "main")
    _commit(repo, {"pkg/a.py": "def f(x):\n    return x\n"}, "m1", 1)
    _commit(repo, {"pkg/a.py": "def f(x):\n    return x + 1\n"}, "m2", 2)
    git(repo, "checkout", "-q", "-b", "maint")
    _commit(repo, {"pkg/a.py": "def f(x):\n    return x + 2\n"}, "b1", 3)
    _commit(repo, {"pkg/fix.py": COMPLEX}, "b2", 4)
    git(repo, "checkout", "-q", "main")
    _commit(repo, {"pkg/c.py": "def g(y):\n    return y\n"}, "m3", 5)
    _author(repo, "merge", "-q", "--no-ff", "-m", "merge-maint", "maint", day=6)
    git(repo, "checkout", "-q", "--orphan", "core")
    git(repo, "rm", "-rqf", ".")
    _commit(repo, {"core/x.py": COMPLEX + COMPLEX.replace("busy", "busier")}, "r1", 7)
    _commit(repo, {"core/y.py": "def h():\n    return 1\n"}, "r2", 8)
    git(repo, "checkout", "-q", "main")
    _author(repo, "merge", "-q", "--allow-unrelated-histories", "-m", "merge-core", "core",
            day=9)  # fmt: skip
    _commit(repo, {"pkg/a.py": "def f(x):\n    return x + 3\n"}, "m4", 10)
    _commit(repo, {"README.md": "docs only\n"}, "docs", 11)
    listing = git(repo, "log", "--all", "--format=%H %s")
    return Shas(repo, {s: h for h, s in (line.split(" ", 1) for line in listing.splitlines())})
