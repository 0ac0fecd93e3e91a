"""`code study` on histories that are not a line, its progress lines, a mid-study report's
pending count, and duplicate repositories refused (issue 34, items 1, 2 and 6)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from mainline_repo import Shas, make_tangled_repo
from slopmark.code.study.records import CommitPoint, RepoRecord, StudySettings
from slopmark.code.study.repos import read_repos
from slopmark.code.study.stored import ensure_study, store_repo
from slopmark.errors import BadInput
from slopmark.store import open_store

from .conftest import cli, make_repo

pytestmark = pytest.mark.slow  # starts git and python

MAINLINE = ("m1", "m2", "m3", "merge-maint", "merge-core", "m4", "docs")


@pytest.fixture(scope="module")
def tangled(tmp_path_factory: pytest.TempPathFactory) -> Shas:
    return make_tangled_repo(tmp_path_factory.mktemp("tangled") / "repo")


def run_study(listing: Path, tmp_path: Path, *extra: str) -> tuple[dict[str, object], str]:
    """The study's report (JSON) and what the run printed on stderr."""
    db, out = f"sqlite:///{tmp_path / 's.db'}", tmp_path / "study"
    done = cli("code", "study", str(listing), "--db", db, "--out", str(out), *extra)
    assert done.returncode in (0, 1), done.stderr
    report = cli("code", "study", "report", str(out), "--json")
    assert report.returncode == 0, report.stderr
    return json.loads(report.stdout), done.stderr


def test_a_study_follows_the_first_parent_line_to_head(tangled: Shas, tmp_path: Path) -> None:
    listing = tmp_path / "REPOS.txt"
    listing.write_text(f"{tangled.repo}\n")
    report, _ = run_study(listing, tmp_path)
    (repo,) = report["repositories"]  # type: ignore[misc]
    assert [c["sha"] for c in repo["commits"]] == tangled.of(*MAINLINE)
    assert repo["head"] == repo["commits"][-1]["sha"] == tangled["docs"]
    assert {c["lineage"] for c in repo["commits"]} == {"mainline"}
    assert repo["roots"] == tangled.of("m1", "r1")
    assert report["repos"]["second_root"] == 1  # type: ignore[index]


def test_an_all_branches_study_flags_the_second_root(tangled: Shas, tmp_path: Path) -> None:
    listing = tmp_path / "REPOS.txt"
    listing.write_text(f"{tangled.repo}\n")
    report, _ = run_study(listing, tmp_path, "--all-branches")
    (repo,) = report["repositories"]  # type: ignore[misc]
    lineage = {c["sha"]: c["lineage"] for c in repo["commits"]}
    assert [lineage[s] for s in tangled.of("r1", "r2")] == ["second-root", "second-root"]
    assert repo["commits"][-1]["sha"] == tangled["docs"] and len(lineage) == 11
    text = cli("code", "study", "report", str(tmp_path / "study"))
    assert text.returncode == 0, text.stderr
    flat = " ".join(text.stdout.split())
    assert f"warning {tangled.repo}: 2 root commits: {tangled['r1'][:10]}" in flat
    assert "4 of 11 points off the first-parent line, 2 from a second root's history" in flat


def test_off_a_terminal_each_finished_repository_is_one_line(tmp_path: Path) -> None:
    make_repo(tmp_path / "real", 6, 1)
    listing = tmp_path / "REPOS.txt"
    listing.write_text("real\nmissing\n")
    report, stderr = run_study(listing, tmp_path, "--jobs", "1")
    real = report["repositories"][0]  # type: ignore[index]
    erosions = [c["erosion"] for c in real["commits"]]
    lines = [line for line in stderr.splitlines() if line.startswith("[")]
    assert sorted(line[:6] for line in lines) == ["[1/2] ", "[2/2] "]
    measured = f"{tmp_path / 'real'}: measured 6 commits "
    measured += f"(erosion {erosions[0]:.3f}→{erosions[-1]:.3f})"
    assert any(line[6:] == measured for line in lines), lines
    failed = f"{tmp_path / 'missing'}: failed: no such repository path on node "
    assert any(line[6:].startswith(failed) for line in lines), lines


def test_a_report_mid_study_counts_the_pending_repositories(tmp_path: Path) -> None:
    db = f"sqlite:///{tmp_path / 's.db'}"
    engine = open_store(db)
    ensure_study(engine, "half", str(tmp_path / "REPOS.txt"), StudySettings(), total=29)
    for index in range(12):
        store_repo(engine, "half", record(f"r{index}", [(0.1, 0.2), (0.2, 0.3)]))
    engine.dispose()
    text = cli("code", "study", "report", "half", "--db", db)
    assert text.returncode == 0, text.stderr
    assert "12 of 29 repositories measured, 17 pending, 0 failed" in " ".join(text.stdout.split())
    report = json.loads(cli("code", "study", "report", "half", "--db", db, "--json").stdout)
    assert report["repos"]["total"] == 29 and report["repos"]["pending"] == 17
    assert report["repos"]["ok"] == 12


def test_the_same_repository_twice_is_refused_with_both_lines(tmp_path: Path) -> None:
    make_repo(tmp_path / "real", 3, 1)
    listing = tmp_path / "REPOS.txt"
    listing.write_text(f"# study\nreal\n\nfile://{tmp_path / 'real'}/\n")
    done = cli("code", "study", str(listing), "--db", f"sqlite:///{tmp_path / 's.db'}")
    assert done.returncode == 2
    assert done.stderr.count("\n") == 1
    assert f"REPOS.txt:4: 'file://{tmp_path / 'real'}/' repeats line 2" in done.stderr
    assert not (tmp_path / "s.db").exists()  # nothing measured


@pytest.mark.parametrize(
    ("first", "second"),
    [
        ("https://example.invalid/team/r.git", "git@example.invalid:team/r"),
        ("https://user:token@Example.invalid/team/r/", "ssh://git@example.invalid/team/r.git"),
        ("./r", "r"),
        ("r/.git", "file://{folder}/r"),
    ],
)
def test_one_remote_written_two_ways_is_one_repository(
    tmp_path: Path, first: str, second: str
) -> None:
    listing = tmp_path / "REPOS.txt"
    listing.write_text(f"{first}\n{second.format(folder=tmp_path)}\n")
    with pytest.raises(BadInput, match=r"REPOS.txt:2: .* repeats line 1 \(the same repository"):
        read_repos(listing)
    distinct = tmp_path / "DISTINCT.txt"
    distinct.write_text("https://example.invalid/team/r\nhttps://example.invalid/team/s\n"
                        "https://example.invalid:8443/team/r\n")  # fmt: skip
    assert len(read_repos(distinct)) == 3


def record(repo: str, values: list[tuple[float, float]]) -> RepoRecord:
    points = tuple(CommitPoint(i, f"{i:040x}", "2021-01-01", "c", 1, 10, 1, 0, e, v)
                   for i, (e, v) in enumerate(values))  # fmt: skip
    return RepoRecord(repo, 1, "ok", commits=points)
