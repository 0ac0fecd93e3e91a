"""`code diff` measures both sides with the base side's settings: a change cannot switch
off its own gate, and the suppressions it adds are findings (issue 29, item 2a)."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path
from typing import Any

import pytest

from clirun import run_cli

from .repos import branchy, commit, git, new_repo, write

pytestmark = pytest.mark.slow  # starts python

APP = "def main():\n    return 0\n"
EXCLUDE_SLOP = '[tool.slopmark]\nexclude = ["slop.py"]\n'


def _diff(*args: str) -> tuple[subprocess.CompletedProcess[str], dict[str, Any]]:
    done = run_cli("code", "diff", *args, "--json", "--no-cache")
    assert done.returncode in (0, 1), done.stderr
    return done, json.loads(done.stdout)


def _kinds(report: dict[str, Any], side: str = "added") -> list[tuple[str, str, str]]:
    return [(c["kind"], c["path"], c["subject"]) for c in report[side]]


def _change_with_its_own_exclude(tmp_path: Path, mode: str) -> list[str]:
    """A change adding a CC-14 function and a pyproject.toml that excludes it, made
    ready for ``mode``; the arguments that diff it."""
    change = {"slop.py": branchy("dispatch", 14), "pyproject.toml": EXCLUDE_SLOP}
    if mode == "folders":
        base, head = tmp_path / "base", tmp_path / "head"
        write(base, {"app.py": APP})
        write(head, {"app.py": APP, **change})
        return [str(base), str(head)]
    repo = new_repo(tmp_path / "repo", {"app.py": APP})
    if mode == "revisions":
        commit(repo, change, "slop that excludes itself")
        return ["-C", str(repo), "HEAD~1", "HEAD"]
    write(repo, change)
    if mode == "staged":
        git(repo, "add", "-A")
        return ["-C", str(repo), "--staged"]
    return ["-C", str(repo)]


def test_the_reproduction_exits_1_with_and_without_the_added_pyproject(tmp_path: Path) -> None:
    repo = new_repo(tmp_path / "repo", {"app.py": APP})
    plain = commit(repo, {"slop.py": branchy("dispatch", 14)}, "slop")
    git(repo, "checkout", "-q", "-b", "sneaky", "HEAD~1")
    sneaky = commit(repo, {"slop.py": branchy("dispatch", 14), "pyproject.toml": EXCLUDE_SLOP})
    for head in (plain, sneaky):
        done = run_cli("code", "diff", "-C", str(repo), "main~1", head, "--fail-on", "new-complex")
        assert done.returncode == 1, (done.stdout, done.stderr)
        assert "new-complex: `dispatch` (slop.py:1, CC 14)" in done.stderr
        assert "no slop added or removed" not in done.stdout
    wrapped = " ".join(done.stdout.split())  # lines wrap at 80 columns in a pipe
    assert "`[tool.slopmark] exclude` adds 'slop.py' (hides slop.py)" in wrapped


@pytest.mark.parametrize("mode", ["revisions", "staged", "work tree", "folders"])
def test_the_head_side_settings_are_reported_not_applied(tmp_path: Path, mode: str) -> None:
    args = _change_with_its_own_exclude(tmp_path, mode)
    done, report = _diff(*args, "--fail-on", "new-suppressions")
    assert done.returncode == 1
    assert "new-suppressions: `exclude 'slop.py'` (pyproject.toml:2)" in done.stderr
    assert _kinds(report) == [
        ("new-suppressions", "pyproject.toml", "exclude 'slop.py'"),
        ("new-complex", "slop.py", "dispatch"),
    ]
    suppression = report["added"][0]
    assert suppression["line"] == 2 and suppression["rule"] == "added-suppression"
    assert suppression["message"] == "`[tool.slopmark] exclude` adds 'slop.py' (hides slop.py)"
    assert report["totals"]["complex_callables"] == {"before": 0, "after": 1, "delta": 1}


def test_the_base_side_settings_measure_both_sides(tmp_path: Path) -> None:
    """The base's exclude still hides its files on the head side; dropping it is reported."""
    repo = new_repo(tmp_path / "repo", {"app.py": APP, "pyproject.toml": EXCLUDE_SLOP})
    commit(repo, {"slop.py": branchy("dispatch", 14)}, "excluded by the base")
    done, report = _diff("-C", str(repo), "HEAD~1", "HEAD", "--fail-on", "new-complex")
    assert done.returncode == 0 and report["added"] == []
    (repo / "pyproject.toml").unlink()
    done, report = _diff("-C", str(repo), "HEAD", "--fail-on", "new-complex")
    assert done.returncode == 0, "the base side's exclude still applies"
    assert [(c["kind"], c["message"]) for c in report["removed"]] == [
        ("removed-suppressions", "`[tool.slopmark] exclude` drops 'slop.py' (hid slop.py)")
    ]


HIT = "    if value == None:\n        return 1\n"
SUPPRESSED = "    if value == None:  # slopmark: ignore[equality-with-none]\n        return 1\n"


def _function(*body: str) -> str:
    return "def check(value):\n" + "".join(body) + "    return 0\n"


def test_an_ignore_comment_the_change_adds_is_a_finding_and_hides_nothing(tmp_path: Path) -> None:
    repo = new_repo(tmp_path / "repo", {"app.py": APP})
    write(repo, {"app.py": APP + "\n\n" + _function(SUPPRESSED)})
    done, report = _diff("-C", str(repo), "--fail-on", "new-suppressions")
    assert done.returncode == 1
    assert "new-suppressions: `ignore[equality-with-none]` (app.py:6)" in done.stderr
    assert _kinds(report) == [
        ("new-hits", "app.py", "equality-with-none"),
        ("new-suppressions", "app.py", "ignore[equality-with-none]"),
    ]
    assert report["totals"]["rule_hits"] == {"before": 0, "after": 1, "delta": 1}
    assert run_cli("code", "diff", "-C", str(repo), "--fail-on", "new-hits").returncode == 1


def test_a_suppression_added_to_an_old_hit_is_reported_alone(tmp_path: Path) -> None:
    repo = new_repo(tmp_path / "repo", {"app.py": APP + "\n\n" + _function(HIT)})
    write(repo, {"app.py": APP + "\n\n" + _function(SUPPRESSED)})
    done, report = _diff("-C", str(repo))
    assert _kinds(report) == [("new-suppressions", "app.py", "ignore[equality-with-none]")]
    assert report["totals"]["rule_hits"] == {"before": 1, "after": 1, "delta": 0}


def test_the_base_side_suppressions_still_apply(tmp_path: Path) -> None:
    """A suppression the base had (kept, or moved with its code) is no finding; one the
    change removes is listed as removed."""
    old = APP + "\n\n" + _function(SUPPRESSED)
    repo = new_repo(tmp_path / "repo", {"app.py": old, "other.py": APP})
    write(repo, {"app.py": old + "\n\ndef more():\n    return 1\n"})
    done, report = _diff("-C", str(repo), "--fail-on", "new-hits,new-suppressions")
    assert done.returncode == 0 and report["added"] == [] and report["removed"] == []
    write(repo, {"app.py": APP, "other.py": APP + "\n\n" + _function(SUPPRESSED)})
    done, report = _diff("-C", str(repo), "--fail-on", "new-hits,new-suppressions")
    assert done.returncode == 0 and report["added"] == [], "moved code keeps its suppression"
    write(repo, {"app.py": APP, "other.py": APP})
    done, report = _diff("-C", str(repo))
    assert _kinds(report, "removed") == [
        ("removed-suppressions", "app.py", "ignore[equality-with-none]")
    ]


def test_markdown_and_sarif_show_the_new_kind(tmp_path: Path) -> None:
    args = _change_with_its_own_exclude(tmp_path, "work tree")
    sarif, markdown = tmp_path / "out.sarif", tmp_path / "out.md"
    done = run_cli("code", "diff", *args, "--sarif", str(sarif), "--markdown", str(markdown))
    assert done.returncode == 0, done.stderr
    wrapped = " ".join(done.stdout.split())  # a change too long for 80 columns takes 2 lines
    assert "new-suppressions pyproject.toml:2 `[tool.slopmark] exclude` adds" in wrapped
    text = markdown.read_text()
    assert "| new-suppressions | [pyproject.toml:2](pyproject.toml#L2) |" in text
    run = json.loads(sarif.read_text())["runs"][0]
    results = {r["ruleId"]: r["properties"]["change"] for r in run["results"]}
    assert results == {"added-suppression": "new-suppressions", "complex-callable": "new-complex"}
    assert "added-suppression" in {r["id"] for r in run["tool"]["driver"]["rules"]}


BIG = 21 * 2**19  # 10.5 MiB


def _big(name: str) -> str:
    line = "VALUE = 0  # generated\n"
    return f"# {name}\n" + line * (BIG // len(line))


def test_files_over_the_size_limit_are_listed_as_skipped(tmp_path: Path) -> None:
    """A big file the change adds is listed in every format; one it leaves alone is not."""
    repo = new_repo(tmp_path / "repo", {"app.py": APP, "kept_big.py": _big("kept")})
    write(repo, {"app.py": APP + "\n\ndef more():\n    return 1\n", "new_big.py": _big("new")})
    sarif, markdown = tmp_path / "out.sarif", tmp_path / "out.md"
    done = run_cli("code", "diff", "-C", str(repo), "--sarif", str(sarif), "--markdown",
                   str(markdown))  # fmt: skip
    assert done.returncode == 0, done.stderr
    reason = "10.5 MiB is over the 10 MiB limit (generated?)"
    assert f"skipped new_big.py: {reason}" in done.stdout
    assert "kept_big.py" not in done.stdout
    assert f"| new_big.py | {reason} |" in markdown.read_text()
    notes = json.loads(sarif.read_text())["runs"][0]["invocations"][0]
    assert [n["message"]["text"] for n in notes["toolExecutionNotifications"]] == [
        f"skipped new_big.py: {reason}"
    ]
    git(repo, "add", "-A")
    git(repo, "commit", "-qm", "big")
    for args in (["HEAD~1", "HEAD"], ["--staged", "HEAD~1"]):
        _, report = _diff("-C", str(repo), *args)
        assert report["skipped"] == [{"path": "new_big.py", "reason": reason}], args


def test_measure_names_the_languages_when_nothing_was_measured(tmp_path: Path) -> None:
    (tmp_path / "app.py").write_text(APP)
    done = run_cli("code", "measure", str(tmp_path), "--language", "go", "--fail-over",
                   "erosion=0.4")  # fmt: skip
    assert done.returncode == 1
    assert "(0 go files measured, 0 skipped)" in done.stderr
    assert "Python" not in done.stderr
