"""A repository's own git config never makes slopmark run a program.

Its ``.git/config`` can name commands git would start while slopmark reads it: an
fsmonitor, hooks, filter and textconv drivers, an external diff, a pager, and, for a
partial clone, the ssh command of the lazy fetch of a missing object. Each one here
writes a marker file; `code diff`, `code history` and `code study` run through the
real CLI and the marker never appears, while the results stay those of the same
repository without the traps.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

pytestmark = pytest.mark.slow  # starts python

#: Every config key that names a program, set to the marker script.
TRAPS = (
    "core.fsmonitor", "filter.trap.clean", "filter.trap.smudge", "filter.trap.process",
    "diff.trap.textconv", "diff.external", "core.pager", "core.sshCommand", "core.askPass",
    "core.editor", "gpg.program", "core.alternateRefsCommand", "uploadpack.packObjectsHook",
)  # fmt: skip
HOOKS = ("post-index-change", "reference-transaction", "pre-auto-gc", "post-checkout")


def git(repo: Path, *args: str) -> str:
    command = ["git", "-C", str(repo), "-c", "user.email=t@t", "-c", "user.name=t", *args]
    return subprocess.run(command, check=True, capture_output=True, text=True).stdout


def cli(cache: Path, *args: str) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("SLOPMARK_", "GIT_"))}
    env["SLOPMARK_CACHE"] = str(cache)
    return subprocess.run(
        [sys.executable, "-m", "slopmark", *args], capture_output=True, text=True, env=env,
        timeout=300, stdin=subprocess.DEVNULL,
    )  # fmt: skip


def cli_json(cache: Path, *args: str) -> Any:
    done = cli(cache, *args, "--json")
    assert done.returncode == 0, done.stderr[-2000:]
    return json.loads(done.stdout)


def marker_script(root: Path) -> tuple[Path, Path]:
    """(a script that appends its command line to the marker, the marker)."""
    marker, script = root / "marker.txt", root / "trap.sh"
    script.write_text(f'#!/bin/sh\necho "$0 $*" >> "{marker}"\n')
    script.chmod(0o755)
    return script, marker


def make_repo(repo: Path) -> None:
    """Three commits of a.py, a staged change, an unstaged one and an untracked file."""
    repo.mkdir()
    git(repo, "init", "-q")
    (repo / ".gitattributes").write_text("*.py filter=trap diff=trap\n")
    body = ""
    for number in range(3):
        body += f"def f{number}(x):\n    if x:\n        return {number}\n    return -1\n\n"
        (repo / "a.py").write_text(body)
        git(repo, "add", "-A")
        git(repo, "commit", "-qm", f"c{number}")
    (repo / "a.py").write_text(body + "def staged(x):\n    return x or 1\n")
    git(repo, "add", "a.py")
    (repo / "a.py").write_text(body + "def staged(x):\n    return x or 2 if x else 3\n")
    (repo / "b.py").write_text("def untracked(y):\n    return y if y else None\n")


def set_traps(repo: Path, script: Path) -> None:
    for key in TRAPS:
        git(repo, "config", key, str(script))
    hooks = repo / ".git" / "trap-hooks"
    hooks.mkdir()
    for hook in HOOKS:
        (hooks / hook).write_text(script.read_text())
        (hooks / hook).chmod(0o755)
    git(repo, "config", "core.hooksPath", str(hooks))


def make_partial_clone(repo: Path, script: Path) -> None:
    """A partial clone lacking its first commit's blob; fetching it would run ``script``
    as the ssh command of its promisor remote."""
    repo.mkdir()
    git(repo, "init", "-q")
    for number in range(2):
        (repo / "p.py").write_text("def p(x):\n    return x\n" * (number + 1))
        git(repo, "add", "p.py")
        git(repo, "commit", "-qm", f"p{number}")
    blob = git(repo, "rev-parse", "HEAD~1:p.py").strip()
    (repo / ".git" / "objects" / blob[:2] / blob[2:]).unlink()
    settings = {"core.repositoryformatversion": "1", "extensions.partialClone": "origin",
                "remote.origin.url": "ssh://example.invalid/p.git",
                "remote.origin.promisor": "true", "core.sshCommand": str(script)}  # fmt: skip
    for key, value in settings.items():
        git(repo, "config", key, value)


def reads(repo: Path, cache: Path) -> dict[str, Any]:
    """What slopmark says about ``repo``: the work tree, the index, two revisions, history."""
    diff = ("code", "diff", "-C", str(repo), "--no-cache")
    return {
        "work tree": cli_json(cache, *diff),
        "staged": cli_json(cache, *diff, "--staged"),
        "revisions": cli_json(cache, *diff, "HEAD~2", "HEAD"),
        "history": cli_json(cache, "code", "history", str(repo), "--no-cache", "--sample", "9"),
    }


def test_diff_and_history_start_nothing_the_repository_configures(tmp_path: Path) -> None:
    repo, cache = tmp_path / "repo", tmp_path / "cache"
    script, marker = marker_script(tmp_path)
    make_repo(repo)
    plain = reads(repo, cache)
    assert plain["work tree"]["totals"]["callables"] == {"before": 3, "after": 5, "delta": 2}
    assert plain["staged"]["totals"]["callables"]["after"] == 4
    set_traps(repo, script)
    assert git(repo, "config", "core.fsmonitor") == f"{script}\n"
    trapped = reads(repo, cache)
    assert not marker.exists(), marker.read_text()
    assert trapped == plain


def test_history_never_fetches_what_a_partial_clone_lacks(tmp_path: Path) -> None:
    script, marker = marker_script(tmp_path)
    make_partial_clone(tmp_path / "partial", script)
    found = cli_json(tmp_path / "cache", "code", "history", str(tmp_path / "partial"))
    assert not marker.exists(), marker.read_text()
    assert [c["callables"] for c in found["commits"]] == [0, 2]  # the first blob is missing


def test_a_study_starts_nothing_its_repositories_configure(tmp_path: Path) -> None:
    script, marker = marker_script(tmp_path)
    for name in ("repo", "cloned"):  # read in place, and cloned (one repository twice is refused)
        make_repo(tmp_path / name)
        set_traps(tmp_path / name, script)
    make_partial_clone(tmp_path / "partial", script)
    listing = tmp_path / "REPOS.txt"
    listing.write_text(f"repo\npartial\nfile://{tmp_path / 'cloned'}\n")
    db = f"sqlite:///{tmp_path / 's.db'}"
    done = cli(tmp_path / "cache", "code", "study", str(listing), "--db", db,
               "--out", str(tmp_path / "out"), "--json")  # fmt: skip
    assert done.returncode == 0, done.stderr[-2000:]
    assert not marker.exists(), marker.read_text()
    report = cli_json(tmp_path / "cache", "code", "study", "report", str(tmp_path / "out"))
    rows = {row["repo"]: row for row in report["repositories"]}
    assert [row["status"] for row in rows.values()] == ["ok"] * 3, rows
    assert rows[str(tmp_path / "repo")]["head"] == git(tmp_path / "repo", "rev-parse", "HEAD")[:-1]


@pytest.mark.parametrize("command", [["rev-parse", "--git-dir"], ["ls-files", "-s"]])
def test_the_safe_command_turns_off_what_runs_programs(command: list[str]) -> None:
    from slopmark.code.measure.git import git_command

    built = git_command(command, Path("."))
    settings = {built[i + 1] for i, part in enumerate(built) if part == "-c"}
    assert {"core.fsmonitor=", "core.hooksPath=/dev/null", "protocol.allow=never"} <= settings
    assert built[-len(command) :] == command and "--no-pager" in built
    assert "protocol.allow=never" not in git_command(["clone"], fetch=True)


def test_a_work_tree_the_repository_points_elsewhere_is_refused(tmp_path: Path) -> None:
    """``core.worktree`` in a repository's own config must not make `code diff` read another
    folder (here one holding a file no one asked to measure)."""
    repo, elsewhere = tmp_path / "repo", tmp_path / "elsewhere"
    elsewhere.mkdir()
    (elsewhere / "secret.py").write_text("def leaked():\n    return 1\n")
    subprocess.run(["git", "init", "-q", str(repo)], check=True)
    subprocess.run(["git", "-C", str(repo), "config", "core.worktree", str(elsewhere)], check=True)
    done = subprocess.run(
        [sys.executable, "-m", "slopmark", "code", "diff", "--repo", str(repo), "--json"],
        capture_output=True, text=True, check=False,
    )  # fmt: skip
    assert done.returncode == 2, done.stdout
    [line] = done.stderr.splitlines()
    assert "core.worktree" in line and "secret.py" not in done.stdout
