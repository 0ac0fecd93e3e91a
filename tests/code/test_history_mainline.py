"""`code history` follows the first-parent line, ends at the revision's own commit, flags
a second root, and measures only the subfolder it is pointed at (issue 34, items 1-2)."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest

from clirun import cli_json, run_cli
from mainline_repo import Shas, make_tangled_repo

pytestmark = pytest.mark.slow  # starts git and python

MAINLINE = ("m1", "m2", "m3", "merge-maint", "merge-core", "m4", "docs")


@pytest.fixture(scope="module")
def tangled(tmp_path_factory: pytest.TempPathFactory) -> Shas:
    return make_tangled_repo(tmp_path_factory.mktemp("tangled") / "repo")


def shas(history: dict[str, object]) -> list[str]:
    return [c["sha"] for c in history["commits"]]  # type: ignore[attr-defined]


def test_the_history_follows_the_first_parent_line_to_head(tangled: Shas) -> None:
    history = cli_json("code", "history", str(tangled.repo))
    assert shas(history) == tangled.of(*MAINLINE)  # docs: HEAD, though it changes no source
    assert history["head"] == tangled["docs"] and history["all_branches"] is False
    assert {c["lineage"] for c in history["commits"]} == {"mainline"}
    assert history["roots"] == tangled.of("m1", "r1")
    assert history["second_roots"] == [tangled["r1"]]


def test_every_branch_on_request_with_the_second_root_flagged(tangled: Shas) -> None:
    history = cli_json("code", "history", str(tangled.repo), "--all-branches")
    everything = {*tangled.of(*MAINLINE), *tangled.of("b1", "b2", "r1", "r2")}
    assert set(shas(history)) == everything and shas(history)[-1] == tangled["docs"]
    lineage = {c["sha"]: c["lineage"] for c in history["commits"]}
    assert [lineage[s] for s in tangled.of("b1", "b2", "r1", "r2")] == [
        "branch", "branch", "second-root", "second-root",
    ]  # fmt: skip
    assert [lineage[s] for s in tangled.of(*MAINLINE)] == ["mainline"] * len(MAINLINE)
    text = run_cli("code", "history", str(tangled.repo), "--all-branches")
    assert text.returncode == 0, text.stderr
    flat = " ".join(text.stdout.split())
    assert f"warning: 2 root commits: {tangled['r1'][:10]} started unrelated histories" in flat
    assert "4 of 11 points off the first-parent line, 2 from a second root's history" in flat


@pytest.mark.parametrize("seed", [0, 1, 2, 3])
def test_head_is_the_last_point_of_every_sample(tangled: Shas, seed: int) -> None:
    history = cli_json("code", "history", str(tangled.repo), "--sample", "3", "--seed", str(seed))
    picked = shas(history)
    assert len(picked) == 3 and picked[-1] == tangled["docs"]
    order = tangled.of(*MAINLINE)
    assert picked == sorted(picked, key=order.index)  # oldest first, all on the line
    latest = cli_json("code", "history", str(tangled.repo), "--commits", "2")
    assert shas(latest) == tangled.of("m4", "docs")
    ranged = cli_json("code", "history", str(tangled.repo), "--rev", f"{tangled['m3']}..HEAD")
    assert shas(ranged) == tangled.of("merge-maint", "merge-core", "m4", "docs")


def test_a_subfolder_history_measures_only_that_folder(tangled: Shas, tmp_path: Path) -> None:
    history = cli_json("code", "history", str(tangled.repo / "pkg"))
    # commits touching pkg/ on the line (merge-core brings only core/), then HEAD
    assert shas(history) == tangled.of("m1", "m2", "m3", "merge-maint", "m4", "docs")
    for point in history["commits"]:
        export = tmp_path / point["sha"]
        export.mkdir()
        archive = subprocess.run(["git", "-C", str(tangled.repo), "archive", point["sha"],
                                  "--", "pkg"], capture_output=True, check=True)  # fmt: skip
        subprocess.run(["tar", "-x", "-C", str(export)], input=archive.stdout, check=True)
        measured = cli_json("code", "measure", str(export / "pkg"))
        assert point["files"] == len(measured["files"]), point["subject"]
        for key in ("sloc", "erosion", "verbosity"):
            assert point[key] == measured[key], (point["subject"], key)
    whole = cli_json("code", "history", str(tangled.repo), "--commits", "1")
    assert history["commits"][-1]["files"] == 3 and whole["commits"][-1]["files"] == 5
