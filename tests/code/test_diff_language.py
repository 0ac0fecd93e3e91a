"""`code diff --language`: in a mixed tree, compare the chosen languages only, as
`code measure --language` measures them; the JSON and SARIF name each file's language."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from clirun import run_cli
from diff.repos import branchy, new_repo, write

pytestmark = pytest.mark.slow  # starts python


def js_branchy(name: str, cc: int) -> str:
    """A JavaScript function of cyclomatic complexity ``cc``."""
    arms = "".join(
        f"  if (value.step({arm}) > scale) {{ return {arm}; }}\n" for arm in range(cc - 1)
    )
    return f"function {name}(value, scale) {{\n{arms}  return -scale;\n}}\n"


@pytest.fixture
def mixed(tmp_path: Path) -> Path:
    """A repository of Python, JavaScript and Go, and a work tree that adds a complex
    function to the Python and the JavaScript file."""
    files = {"lib/core.py": branchy("core", 3), "web/app.js": js_branchy("render", 3),
             "cmd/main.go": "package main\n\nfunc main() {\n}\n"}  # fmt: skip
    repo = new_repo(tmp_path / "mixed", files)
    python = branchy("core", 3) + "\n\n" + branchy("grown", 12)
    write(
        repo, {"lib/core.py": python, "web/app.js": js_branchy("render", 3) + js_branchy("r", 13)}
    )
    return repo


def diff_json(repo: Path, *args: str) -> Any:
    done = run_cli("code", "diff", "-C", str(repo), "--json", *args)
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)


def test_one_language_is_compared_alone(mixed: Path) -> None:
    report = diff_json(mixed, "--language", "javascript")
    assert report["languages"] == ["javascript"]
    assert [(f["path"], f["language"]) for f in report["files"]] == [("web/app.js", "javascript")]
    added = {(c["kind"], c["path"], c["subject"]) for c in report["added"]}
    assert added == {("new-complex", "web/app.js", "r")}
    measured = run_cli("code", "measure", str(mixed), "--language", "javascript", "--json")
    totals = json.loads(measured.stdout)
    assert report["totals"]["files"] == {"before": 1, "after": 1, "delta": 0}
    for name in ("callables", "sloc", "erosion", "verbosity"):
        assert report["totals"][name]["after"] == totals[name], name


def test_every_language_by_default_and_several_by_choice(mixed: Path) -> None:
    every = diff_json(mixed)
    assert every["languages"] == ["python", "javascript", "typescript", "go", "java", "rust"]
    assert {(f["path"], f["language"]) for f in every["files"]} == {
        ("lib/core.py", "python"), ("web/app.js", "javascript")}  # fmt: skip
    assert every["totals"]["files"]["after"] == 3
    chosen = diff_json(mixed, "--language", "Python", "--language", "go")
    assert chosen["languages"] == ["python", "go"]
    assert [f["path"] for f in chosen["files"]] == ["lib/core.py"]
    assert chosen["totals"]["files"]["after"] == 2
    assert {c["subject"] for c in chosen["added"]} == {"grown"}


def test_sarif_results_and_artifacts_name_their_language(mixed: Path, tmp_path: Path) -> None:
    sarif = tmp_path / "diff.sarif"
    done = run_cli("code", "diff", "-C", str(mixed), "--sarif", str(sarif))
    assert done.returncode == 0, done.stderr
    run = json.loads(sarif.read_text(encoding="utf-8"))["runs"][0]
    found = {(r["locations"][0]["physicalLocation"]["artifactLocation"]["uri"],
              r["properties"]["language"]) for r in run["results"]}  # fmt: skip
    assert found == {("lib/core.py", "python"), ("web/app.js", "javascript")}
    artifacts = {(a["location"]["uri"], a["sourceLanguage"]) for a in run["artifacts"]}
    assert artifacts == found
    only_python = tmp_path / "python.sarif"
    done = run_cli("code", "diff", "-C", str(mixed), "--language", "python",
                   "--sarif", str(only_python))  # fmt: skip
    assert done.returncode == 0, done.stderr
    run = json.loads(only_python.read_text(encoding="utf-8"))["runs"][0]
    assert {r["properties"]["language"] for r in run["results"]} == {"python"}


def test_two_folders_are_filtered_the_same_way(tmp_path: Path) -> None:
    for side, cc in (("old", 3), ("new", 12)):
        write(tmp_path / side, {"a.py": branchy("f", cc), "b.js": js_branchy("g", cc)})
    done = run_cli("code", "diff", str(tmp_path / "old"), str(tmp_path / "new"),
                   "--language", "python", "--json")  # fmt: skip
    assert done.returncode == 0, done.stderr
    report = json.loads(done.stdout)
    assert [f["path"] for f in report["files"]] == ["a.py"]
    assert {(c["kind"], c["subject"]) for c in report["added"]} == {("cc-rise", "f")}
