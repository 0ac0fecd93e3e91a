"""Bad input to `code diff` and friends: one clear line, exit 2, never a traceback
(acceptance 5; the cache folder cases are in test_cache.py)."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

import pytest

from clirun import run_cli

from .repos import branchy, commit, git, new_repo, write

pytestmark = pytest.mark.slow  # starts python


def one_line_error(done: subprocess.CompletedProcess[str], *words: str) -> str:
    assert done.returncode == 2, (done.stdout, done.stderr)
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1, done.stderr
    assert lines[0].startswith("slopmark: error: ")
    for word in words:
        assert word in lines[0], lines[0]
    return lines[0]


@pytest.fixture
def repo(tmp_path: Path) -> Path:
    repo = new_repo(tmp_path / "repo", {"a.py": "def f():\n    return 1\n"})
    commit(repo, {"b.py": "def g():\n    return 2\n"}, "two")
    commit(repo, {"c.py": "def h():\n    return 3\n"}, "three")
    return repo


def test_unknown_revision(repo: Path) -> None:
    one_line_error(run_cli("code", "diff", "-C", str(repo), "nope"), "unknown revision 'nope'")


def test_revision_that_looks_like_an_option_is_refused(repo: Path, tmp_path: Path) -> None:
    target = tmp_path / "written"
    done = run_cli("code", "diff", "-C", str(repo), "--", f"--output={target}", "HEAD")
    one_line_error(done, "must not be empty or start with '-'")
    assert not target.exists()


def test_shallow_clone_missing_base_says_fetch_deeper(repo: Path, tmp_path: Path) -> None:
    shallow = tmp_path / "shallow"
    subprocess.run(
        ["git", "clone", "-q", "--depth", "1", f"file://{repo}", str(shallow)], check=True
    )
    old = git(repo, "rev-parse", "HEAD~2").strip()
    line = one_line_error(run_cli("code", "diff", "-C", str(shallow), old), "shallow clone")
    assert "git fetch --deepen" in line


def test_not_a_repository(tmp_path: Path) -> None:
    one_line_error(run_cli("code", "diff", "-C", str(tmp_path)), "not a git repository")


def test_bare_repository_needs_two_revisions(repo: Path, tmp_path: Path) -> None:
    bare = tmp_path / "bare.git"
    subprocess.run(["git", "clone", "-q", "--bare", str(repo), str(bare)], check=True)
    one_line_error(run_cli("code", "diff", "-C", str(bare)), "without a work tree")
    done = run_cli("code", "diff", "-C", str(bare), "HEAD~1", "HEAD", "--json")
    assert done.returncode == 0, done.stderr


@pytest.mark.parametrize(
    ("args", "words"),
    [
        (["--fail-on", "new-stuff"], ["--fail-on 'new-stuff'"]),
        (["--max-increase", "sloc=3"], ["--max-increase 'sloc=3'"]),
        (["--max-increase", "erosion=lots"], ["must be a number"]),
        (["--staged", "HEAD", "HEAD~1"], ["--staged"]),
        (["--link-base", "javascript:alert(1)//"], ["--link-base 'javascript:alert(1)//'"]),
    ],
)
def test_bad_options(repo: Path, args: list[str], words: list[str]) -> None:
    one_line_error(run_cli("code", "diff", "-C", str(repo), *args), *words)


def test_binary_and_undecodable_files_in_the_diff(repo: Path) -> None:
    (repo / "blob.py").write_bytes(b"\x89PNG\r\n\x1a\n\x00\x00binary")
    (repo / "latin.py").write_bytes(b"# -*- coding: utf-8 -*-\nname = '\xff\xfe'\n")
    write(repo, {"c.py": "def h():\n    return 3\n\n\n" + branchy("busy", 12)})
    done = run_cli("code", "diff", "-C", str(repo), "--json")
    assert done.returncode == 0, done.stderr
    assert "Traceback" not in done.stderr
    report = json.loads(done.stdout)
    assert [c["subject"] for c in report["added"]] == ["busy"]
    skipped = {s["path"]: s["reason"] for s in report["skipped"]}
    assert "blob.py" in skipped
    text = run_cli("code", "diff", "-C", str(repo))
    assert text.returncode == 0
    assert sum("skipped blob.py" in line for line in text.stdout.splitlines()) == 1


def test_corrupt_baseline(repo: Path, tmp_path: Path) -> None:
    bad = tmp_path / "baseline.json"
    bad.write_text("{not json")
    one_line_error(run_cli("code", "diff", "-C", str(repo), "--baseline", str(bad)),
                   "not a slopmark baseline")  # fmt: skip
    one_line_error(run_cli("code", "measure", str(repo), "--baseline", str(tmp_path / "none")),
                   "cannot read")  # fmt: skip
