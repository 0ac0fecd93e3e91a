"""`code diff` on a repository with known edits reports exactly those (acceptance 1)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from clirun import run_cli

from .repos import branchy, commit, git, new_repo, write

pytestmark = pytest.mark.slow  # starts python

BLOCK = """\
    for row in rows:
        key = row.get("key")
        if not key:
            continue
        if row["amount"] > 0:
            totals.append(row["amount"])
        else:
            totals.insert(0, key)
        seen = len(totals)
        if seen > 100:
            break
        print(seen, key)
"""
MOVER = """\
def mover(items, factor):
    result = {}
    for index, item in enumerate(items):
        result[item] = index * factor
    return result
"""
HELPER = """\
def helper(value):
    doubled = value * 2
    return doubled
"""
RULE_LINE = "    flag = value == None\n"


def base_files() -> dict[str, str]:
    core = (
        '"""Core."""\n\n\ndef summarise(rows):\n    totals = []\n'
        + BLOCK
        + "    return totals\n\n\n"
        + branchy("moderate", 8)
        + "\n\n"
        + branchy("legacy", 12)
        + "\n\n"
        + MOVER
    )
    return {
        "pkg/core.py": core,
        "pkg/util.py": '"""Util."""\n\n\n' + HELPER,
        "pkg/other.py": "def other():\n    return 1\n",
        "pkg/old_name.py": "def named(a, b):\n    total = a + b\n    return total * 3\n",
    }


def edited(repo: Path) -> None:
    """The seven known edits, made in the work tree."""
    files = base_files()
    core = files["pkg/core.py"]
    core = core.replace(branchy("moderate", 8), branchy("moderate", 12))  # CC 8 -> 12
    core = core.replace("\n\n" + branchy("legacy", 12), "")  # a complex function deleted
    core = core.replace("\n\n" + MOVER, "\n")  # moved to other.py
    util = files["pkg/util.py"].replace(
        "    doubled = value * 2\n", "    doubled = value * 2\n" + RULE_LINE
    )  # a rule-hitting line
    util += "\n\n" + branchy("busy", 14)  # a new function of CC 14
    util += "\n\ndef tally(rows):\n    totals = []\n" + BLOCK + "    return sorted(totals)\n"
    write(repo, {
        "pkg/core.py": core,
        "pkg/util.py": util,
        "pkg/other.py": files["pkg/other.py"] + "\n\n" + MOVER,
    })  # fmt: skip
    git(repo, "mv", "pkg/old_name.py", "pkg/new_name.py")  # renamed, unchanged


@pytest.fixture
def repo(tmp_path: Path) -> Path:
    repo = new_repo(tmp_path / "repo", base_files())
    edited(repo)
    return repo


def summary(report: dict) -> tuple[set, set]:
    def key(change: dict) -> tuple:
        subject = change["subject"]
        return change["kind"], change["path"], subject, change["cc_before"], change["cc_after"]

    return {key(c) for c in report["added"]}, {key(c) for c in report["removed"]}


EXPECTED_ADDED = {
    ("new-complex", "pkg/util.py", "busy", None, 14),
    ("cc-rise", "pkg/core.py", "moderate", 8, 12),
    ("new-hits", "pkg/util.py", "equality-with-none", None, None),
    ("new-clones", "pkg/util.py", "tally", None, None),
}
EXPECTED_REMOVED = {("removed-complex", "pkg/core.py", "legacy", 12, None)}


def test_work_tree_diff_reports_exactly_the_edits(repo: Path) -> None:
    done = run_cli("code", "diff", "-C", str(repo), "--json")
    assert done.returncode == 0, done.stderr
    report = json.loads(done.stdout)
    added, removed = summary(report)
    assert added == EXPECTED_ADDED
    assert removed == EXPECTED_REMOVED
    files = {f["path"]: f for f in report["files"]}
    assert files["pkg/new_name.py"]["status"] == "renamed"
    assert files["pkg/new_name.py"]["old_path"] == "pkg/old_name.py"
    assert (files["pkg/new_name.py"]["added"], files["pkg/new_name.py"]["removed"]) == (0, 0)
    assert (files["pkg/other.py"]["added"], files["pkg/other.py"]["removed"]) == (0, 0)
    totals = report["totals"]
    assert totals["complex_callables"] == {"before": 1, "after": 2, "delta": 1}


def test_committed_diff_and_staged_diff_agree(repo: Path) -> None:
    git(repo, "add", "-A")
    staged = json.loads(run_cli("code", "diff", "-C", str(repo), "--staged", "--json").stdout)
    head = commit(repo, {}, "edits")
    committed = run_cli("code", "diff", "-C", str(repo), "HEAD~1", head, "--json")
    assert committed.returncode == 0, committed.stderr
    report = json.loads(committed.stdout)
    assert summary(report) == summary(staged) == (EXPECTED_ADDED, EXPECTED_REMOVED)


def test_gates_fail_with_the_function_named(repo: Path) -> None:
    done = run_cli("code", "diff", "-C", str(repo), "--fail-on", "new-complex,cc-rise")
    assert done.returncode == 1
    line = done.stderr.strip()
    assert "\n" not in line
    assert "`busy` (pkg/util.py:" in line and "`moderate`" in line
    passing = run_cli("code", "diff", "-C", str(repo), "--fail-on", "new-complex",
                      "--baseline", str(write_baseline_of(repo)))  # fmt: skip
    assert passing.returncode == 0, passing.stderr


def write_baseline_of(repo: Path) -> Path:
    out = repo.parent / "baseline.json"
    done = run_cli("code", "measure", str(repo), "--write-baseline", str(out), "--top", "0")
    assert done.returncode == 0, done.stderr
    return out


def test_max_increase_gates_on_erosion(repo: Path) -> None:
    done = run_cli("code", "diff", "-C", str(repo), "--max-increase", "erosion=0.001")
    assert done.returncode == 1
    assert "erosion rose" in done.stderr
    loose = run_cli("code", "diff", "-C", str(repo), "--max-increase", "erosion=0.9")
    assert loose.returncode == 0, loose.stderr


def test_markdown_and_sarif(repo: Path, tmp_path: Path) -> None:
    md, sarif = tmp_path / "c.md", tmp_path / "c.sarif"
    done = run_cli("code", "diff", "-C", str(repo), "--markdown", str(md), "--sarif", str(sarif))
    assert done.returncode == 0, done.stderr
    text = md.read_text()
    assert "| erosion |" in text
    assert "[pkg/util.py:" in text and "](pkg/util.py#L" in text
    results = json.loads(sarif.read_text())["runs"][0]["results"]
    assert len(results) == len(EXPECTED_ADDED)
    assert all(r["partialFingerprints"]["slopmark/v1"] for r in results)
    assert {r["ruleId"] for r in results} == {
        "complex-callable",
        "equality-with-none",
        "duplicated-block",
    }


def js_branchy(name: str, cc: int) -> str:
    """A JavaScript function of cyclomatic complexity ``cc`` (``cc - 1`` `if` arms)."""
    arms = "".join(f"  if (value.step({arm}) > scale) {{ return scale * {arm + 1}; }}\n"
                   for arm in range(cc - 1))  # fmt: skip
    return f"function {name}(value, scale) {{\n{arms}  return -scale;\n}}\n"


def test_other_languages_are_diffed_like_python(tmp_path: Path) -> None:
    files = {"web/app.js": js_branchy("render", 3), "lib/core.py": branchy("core", 4),
             "cmd/main.go": "package main\n\nfunc main() {\n}\n"}  # fmt: skip
    repo = new_repo(tmp_path / "mixed", files)
    write(repo, {"web/app.js": js_branchy("render", 3) + "\n" + js_branchy("route", 13)})
    done = run_cli("code", "diff", "-C", str(repo), "--json")
    assert done.returncode == 0, done.stderr
    report = json.loads(done.stdout)
    added, removed = summary(report)
    assert added == {("new-complex", "web/app.js", "route", None, 13)}
    assert removed == set()
    assert [f["path"] for f in report["files"]] == ["web/app.js"]
    measured = json.loads(run_cli("code", "measure", str(repo), "--json").stdout)
    for name in ("callables", "sloc", "erosion", "verbosity"):
        assert report["totals"][name]["after"] == measured[name], name
    assert report["totals"]["files"] == {"before": 3, "after": 3, "delta": 0}
