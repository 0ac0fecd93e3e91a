"""`slopmark code history` on real git repositories built in the test."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest

from clirun import cli_json, run_cli

pytestmark = pytest.mark.slow  # starts python, tar

COMPLEX = (
    "def busy(a, b, c):\n"
    + "".join(f"    if a == {i}:\n        return {i}\n" for i in range(12))
    + "    return -1\n"
)


def git(repo: Path, *args: str) -> str:
    done = subprocess.run(
        ["git", "-C", str(repo), *args], capture_output=True, text=True, check=True
    )
    return done.stdout


def commit(repo: Path, files: dict[str, str], message: str) -> None:
    for name, text in files.items():
        target = repo / name
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(text)
    git(repo, "add", "-A")
    git(repo, "-c", "user.email=t@t", "-c", "user.name=t", "commit", "-qm", message)


@pytest.fixture
def repo(tmp_path: Path) -> Path:
    repo = tmp_path / "repo"
    repo.mkdir()
    git(repo, "init", "-q")
    commit(repo, {"pkg/a.py": "def f(x):\n    return x + 1\n"}, "one")
    commit(repo, {"README": "docs only\n"}, "docs")
    commit(repo, {"pkg/b.py": COMPLEX}, "two")
    commit(repo, {"pkg/a.py": "def f(x):\n    y = x + 1\n    return y\n"}, "three")
    return repo


def test_history_matches_measure_of_each_commit(repo: Path, tmp_path: Path) -> None:
    history = cli_json("code", "history", str(repo), "--commits", "3")
    assert [c["subject"] for c in history["commits"]] == ["one", "two", "three"]
    assert history["source_commits"] == 3
    for point in history["commits"]:
        export = tmp_path / point["sha"]
        export.mkdir()
        archive = subprocess.run(
            ["git", "-C", str(repo), "archive", point["sha"]], capture_output=True
        )
        subprocess.run(["tar", "-x", "-C", str(export)], input=archive.stdout, check=True)
        measured = cli_json("code", "measure", str(export))
        assert (point["sloc"], point["erosion"], point["verbosity"]) == (
            measured["sloc"],
            measured["erosion"],
            measured["verbosity"],
        )
    erosions = [c["erosion"] for c in history["commits"]]
    assert erosions[0] == 0.0 and erosions[1] > 0.5
    assert history["erosion_rose"] is True
    assert history["erosion_slope"] > 0
    assert history["blobs_measured"] == 3  # a.py twice, b.py once: each version parsed once


def test_bare_clone_and_dirty_tree(repo: Path, tmp_path: Path) -> None:
    bare = tmp_path / "bare.git"
    subprocess.run(["git", "clone", "-q", "--bare", str(repo), str(bare)], check=True)
    (repo / "pkg" / "a.py").write_text("this is not python(\n")  # uncommitted
    from_bare = cli_json("code", "history", str(bare), "--commits", "3")
    from_dirty = cli_json("code", "history", str(repo), "--commits", "3")
    assert from_bare["commits"] == from_dirty["commits"]


def test_sample_is_seeded(repo: Path) -> None:
    first = cli_json("code", "history", str(repo), "--sample", "2", "--seed", "7")
    again = cli_json("code", "history", str(repo), "--sample", "2", "--seed", "7")
    assert len(first["commits"]) == 2
    assert first["commits"] == again["commits"]


def test_range_selects_commits(repo: Path) -> None:
    history = cli_json("code", "history", str(repo), "--rev", "HEAD~2..HEAD", "--commits", "10")
    assert [c["subject"] for c in history["commits"]] == ["two", "three"]


def test_not_a_repository_or_unknown_revision(repo: Path, tmp_path: Path) -> None:
    plain = tmp_path / "plain"
    plain.mkdir()
    done = run_cli("code", "history", str(plain))
    assert done.returncode == 2 and "not a git repository" in done.stderr
    done = run_cli("code", "history", str(repo), "--rev", "no-such-branch")
    assert done.returncode == 2 and "no-such-branch" in done.stderr
    assert len(done.stderr.strip().splitlines()) == 1


def test_a_range_measures_every_commit_by_default(repo: Path) -> None:
    history = cli_json("code", "history", str(repo), "--rev", "HEAD~3..HEAD")
    assert [c["subject"] for c in history["commits"]] == ["two", "three"]  # "docs" touches no .py


def test_trees_from_differences_equal_each_commits_listing(tmp_path: Path) -> None:
    """`Repository.trees` (one listing, then differences) equals `tree` of every commit,
    through deletions, renames, symlinks, a submodule, a file turned into a folder, an
    executable bit, a non-ASCII path, a merge, and any order or subset of commits."""
    import random

    from slopmark.code.measure.git import Repository

    repo = tmp_path / "repo"
    repo.mkdir()
    git(repo, "init", "-q", "-b", "main")
    commit(repo, {"a.py": "a = 1\n", "pkg/b.py": "b = 1\n", "notes.txt": "x\n"}, "start")
    commit(repo, {"pkg/b.py": "b = 2\n", "pkg/c.py": "c = 1\n"}, "edit")
    git(repo, "mv", "pkg/c.py", "pkg/moved.py")
    (repo / "link.py").symlink_to("a.py")
    commit(repo, {"ünïcode dir/ß.py": "s = 1\n"}, "rename, symlink, non-ascii")
    git(repo, "checkout", "-q", "-b", "side")
    (repo / "a.py").chmod(0o755)
    commit(repo, {"side.py": "side = 1\n"}, "side branch")
    git(repo, "checkout", "-q", "main")
    git(repo, "rm", "-q", "pkg/b.py")
    commit(repo, {"pkg/b.py/inner.py": "inner = 1\n"}, "a file becomes a folder")
    sub = "0123456789abcdef0123456789abcdef01234567"
    git(repo, "update-index", "--add", "--cacheinfo", f"160000,{sub},vendored.py")
    git(repo, "-c", "user.email=t@t", "-c", "user.name=t", "commit", "-qm", "a submodule")
    git(repo, "-c", "user.email=t@t", "-c", "user.name=t", "merge", "-q", "--no-edit", "side")
    (repo / "link.py").unlink()
    commit(repo, {"link.py": "now a file\n"}, "symlink becomes a file")
    shas = git(repo, "rev-list", "--reverse", "--topo-order", "HEAD").split()
    store = Repository(repo)
    expected = {sha: store.tree(sha) for sha in shas}
    paths = {sha: [e.path for e in entries] for sha, entries in expected.items()}
    subjects = dict(
        reversed(line.split(" ", 1)) for line in git(repo, "log", "--format=%H %s").splitlines()
    )
    symlinked = ["a.py", "pkg/b.py", "pkg/moved.py", "ünïcode dir/ß.py"]  # link.py: a symlink
    assert paths[subjects["rename, symlink, non-ascii"]] == symlinked
    submodule = ["a.py", "pkg/b.py/inner.py", "pkg/moved.py", "ünïcode dir/ß.py"]
    assert paths[subjects["a submodule"]] == submodule  # vendored.py is a submodule
    assert paths[subjects["symlink becomes a file"]] == sorted([*submodule, "link.py", "side.py"])
    rng = random.Random(5)
    for picked in (shas, shas[::-1], shas[:1], *(rng.sample(shas, 4) for _ in range(5))):
        assert store.trees(picked) == {sha: expected[sha] for sha in picked}
