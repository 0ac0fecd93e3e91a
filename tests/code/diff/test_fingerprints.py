"""SARIF fingerprints survive line shifts and edits elsewhere in the file, and a baseline
then suppresses the finding (acceptance 2)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from clirun import run_cli

from .repos import branchy, commit, git, new_repo, write

pytestmark = pytest.mark.slow  # starts python

LOOP = "    for item in items:\n        if item:\n            total += item\n    return total\n"
SOURCE = (
    "def noisy(x):\n    if x == None:\n        return 0\n    return x\n\n\n"
    + branchy("busy", 12)
    + "\n\ndef first(items):\n    total = 0\n"
    + LOOP
    + "\n\ndef second(items):\n    total = 1\n"
    + LOOP
    + "\n\ndef other(a):\n    return a + 1\n"
)
SHIFTED = "import os\n\nLIMIT = 3\n# a comment\n\n\n" + SOURCE.replace(
    "def other(a):\n    return a + 1\n",
    "def other(a):\n    b = a * 2\n    return b + os.sep.count('/')\n",
)


def sarif_fingerprints(tree: Path, tmp_path: Path, name: str) -> dict[str, tuple[str, int]]:
    out = tmp_path / f"{name}.sarif"
    done = run_cli("code", "measure", str(tree), "--sarif", str(out), "--top", "0")
    assert done.returncode == 0, done.stderr
    results = json.loads(out.read_text())["runs"][0]["results"]
    return {
        r["partialFingerprints"]["slopmark/v1"]: (
            r["ruleId"],
            r["locations"][0]["physicalLocation"]["region"]["startLine"],
        )
        for r in results
    }


def test_measure_fingerprints_survive_shifts_and_unrelated_edits(make_tree, tmp_path: Path) -> None:
    tree = make_tree({"mod.py": SOURCE})
    before = sarif_fingerprints(tree, tmp_path, "before")
    rules = sorted(rule for rule, _ in before.values())
    assert rules.count("complex-callable") == 1 and rules.count("duplicated-block") == 4
    assert "equality-with-none" in rules
    (tree / "mod.py").write_text(SHIFTED)
    after = sarif_fingerprints(tree, tmp_path, "after")
    assert set(after) == set(before)  # same findings, same fingerprints...
    assert all(after[fp][1] == before[fp][1] + 6 for fp in before)  # ...six lines lower


def test_baseline_suppresses_known_findings_only(make_tree, tmp_path: Path) -> None:
    tree = make_tree({"mod.py": SOURCE})
    baseline = tmp_path / "baseline.json"
    wrote = run_cli("code", "measure", str(tree), "--write-baseline", str(baseline), "--top", "0")
    assert wrote.returncode == 0, wrote.stderr
    (tree / "mod.py").write_text(SHIFTED)
    known = run_cli("code", "measure", str(tree), "--baseline", str(baseline), "--json")
    assert known.returncode == 0, known.stderr
    assert json.loads(known.stdout)["baseline_new"] == []
    (tree / "mod.py").write_text(SHIFTED + "\n\ndef fresh(y):\n    return y != None\n")
    new = run_cli("code", "measure", str(tree), "--baseline", str(baseline), "--json")
    assert new.returncode == 1
    found = json.loads(new.stdout)["baseline_new"]
    line = SHIFTED.count("\n") + 4
    assert [(f["rule"], f["line"]) for f in found] == [("inequality-with-none", line)]
    assert f"1 finding not in the baseline: mod.py:{line} inequality-with-none" in new.stderr


def test_diff_fingerprints_are_stable_and_baselined(tmp_path: Path) -> None:
    repo = new_repo(tmp_path / "repo", {"mod.py": "def other(a):\n    return a + 1\n"})
    base = git(repo, "rev-parse", "HEAD").strip()
    one = commit(repo, {"mod.py": SOURCE}, "slop")
    two = commit(repo, {"mod.py": SHIFTED}, "shift and unrelated edit")

    def fingerprints(head: str) -> set[str]:
        out = tmp_path / f"{head}.sarif"
        done = run_cli("code", "diff", "-C", str(repo), base, head, "--sarif", str(out))
        assert done.returncode == 0, done.stderr
        results = json.loads(out.read_text())["runs"][0]["results"]
        return {r["partialFingerprints"]["slopmark/v1"] for r in results}

    first = fingerprints(one)
    assert len(first) == 5  # busy, two rule hits, two clone members: all new
    assert fingerprints(two) == first
    baseline = tmp_path / "baseline.json"
    git(repo, "checkout", "-q", one)
    run_cli("code", "measure", str(repo), "--write-baseline", str(baseline), "--top", "0")
    git(repo, "checkout", "-q", "main")
    write(repo, {"mod.py": SHIFTED})
    gates = ("--fail-on", "new-complex,new-hits,new-clones")
    done = run_cli("code", "diff", "-C", str(repo), base, two, "--json",
                   "--baseline", str(baseline), *gates)  # fmt: skip
    assert done.returncode == 0, done.stderr
    report = json.loads(done.stdout)
    assert report["added"] == [] and report["suppressed_by_baseline"] == 5
