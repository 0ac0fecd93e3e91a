"""Scratch git repositories for the `code diff` tests, and code of known complexity."""

from __future__ import annotations

import subprocess
from pathlib import Path


def git(repo: Path, *args: str) -> str:
    done = subprocess.run(
        ["git", "-C", str(repo), "-c", "user.email=t@t", "-c", "user.name=t", *args],
        capture_output=True,
        text=True,
        check=True,
    )
    return done.stdout


def write(repo: Path, files: dict[str, str]) -> None:
    for name, text in files.items():
        target = repo / name
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(text, encoding="utf-8")


def commit(repo: Path, files: dict[str, str], message: str = "change") -> str:
    write(repo, files)
    git(repo, "add", "-A")
    git(repo, "commit", "-qm", message, "--allow-empty")
    return git(repo, "rev-parse", "HEAD").strip()


def new_repo(path: Path, files: dict[str, str]) -> Path:
    path.mkdir(parents=True, exist_ok=True)
    git(path, "init", "-q", "-b", "main")
    if files:
        commit(path, files, "base")
    return path


def branchy(name: str, cc: int, indent: str = "") -> str:
    """A function of cyclomatic complexity ``cc``: ``cc - 1`` distinct `if`/`elif` arms."""
    lines = [f"{indent}def {name}(value, scale):"]
    for arm in range(cc - 1):
        keyword = "if" if arm == 0 else "elif"
        lines.append(f"{indent}    {keyword} value.step({arm}) > scale:")
        lines.append(f"{indent}        return scale * {arm + 1} + {arm * 7 + 1}")
    lines.append(f"{indent}    return -scale")
    return "\n".join(lines) + "\n"
