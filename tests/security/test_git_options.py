"""A revision never reaches git as an option: ``--rev=--output=FILE`` once made git empty FILE."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest

from security.bounded import one_line_error, run_capped
from slopmark.code.measure.git import Repository
from slopmark.errors import BadInput

pytestmark = pytest.mark.slow  # starts python


def _repo(root: Path) -> Path:
    repo = root / "repo"
    repo.mkdir()
    git = ["git", "-C", str(repo), "-c", "user.email=t@t", "-c", "user.name=t"]
    subprocess.run([*git, "init", "-q"], check=True)
    for number in range(3):
        (repo / "a.py").write_text(f"x = {number}\n")
        subprocess.run([*git, "add", "a.py"], check=True)
        subprocess.run([*git, "commit", "-qm", f"c{number}"], check=True)
    return repo


@pytest.mark.parametrize("rev", ["--output={victim}", "-o{victim}", "--all", "-", " "])
def test_a_revision_that_looks_like_an_option_is_refused(tmp_path: Path, rev: str) -> None:
    repo = _repo(tmp_path)
    victim = tmp_path / "victim.txt"
    victim.write_text("keep me\n")
    done = run_capped("code", "history", str(repo), "--rev", rev.format(victim=victim))
    line = one_line_error(done)
    assert "revision" in line and "starts with '-'" in line
    assert victim.read_text() == "keep me\n"


def test_every_git_call_passes_the_revision_after_end_of_options(tmp_path: Path) -> None:
    repository = Repository(_repo(tmp_path))
    commits = repository.source_commits("HEAD")
    assert len(commits) == 3
    assert [entry.path for entry in repository.tree(commits[-1].sha)] == ["a.py"]
    for rev in ("--output=x", "-p"):
        with pytest.raises(BadInput, match="not a revision"):
            repository.source_commits(rev)
        with pytest.raises(BadInput, match="not a revision"):
            repository.tree(rev)
    assert not (tmp_path / "repo" / "x").exists()
