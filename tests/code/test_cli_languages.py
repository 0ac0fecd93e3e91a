"""Mixed trees through the real CLI: per-language rows, a pooled total, `--language`,
and the language in JSON and SARIF output."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from clirun import cli_json, run_cli

pytestmark = pytest.mark.slow  # starts python

GOLDEN = Path(__file__).parent / "golden"


def mixed_tree(tmp_path: Path) -> Path:
    tree = tmp_path / "mixed"
    shutil.copytree(GOLDEN / "lang", tree, ignore=shutil.ignore_patterns("*.json"))
    shutil.copy(GOLDEN / "code" / "branches.py", tree / "branches.py")
    return tree


def test_mixed_tree_has_a_row_per_language_and_a_pooled_total(tmp_path: Path) -> None:
    report = cli_json("code", "measure", str(mixed_tree(tmp_path)))
    rows = {row["language"]: row for row in report["languages"]}
    assert list(rows) == ["python", "javascript", "typescript", "go", "java", "rust"]
    assert sum(row["sloc"] for row in rows.values()) == report["sloc"]
    assert sum(row["callables"] for row in rows.values()) == report["callables"]
    assert {f["path"]: f["language"] for f in report["files"]}["typescript/component.tsx"] == (
        "typescript"
    )


def test_language_option_selects_and_rejects_unknown_names(tmp_path: Path) -> None:
    tree = mixed_tree(tmp_path)
    report = cli_json("code", "measure", str(tree), "--language", "go", "--language", "Rust")
    assert [row["language"] for row in report["languages"]] == ["go", "rust"]
    assert {f["language"] for f in report["files"]} == {"go", "rust"}
    done = run_cli("code", "measure", str(tree), "--language", "javascrpt")
    assert done.returncode == 2
    assert done.stderr.strip().splitlines() == [
        "slopmark: error: --language: unknown language 'javascrpt'; did you mean 'javascript'?"
    ]


def test_sarif_names_each_artifact_and_result_language(tmp_path: Path) -> None:
    out = tmp_path / "out.sarif"
    tree = str(mixed_tree(tmp_path))
    # every rule (the pedantic set), so the TypeScript rules the fixtures pin all run
    done = run_cli("code", "measure", tree, "--sarif", str(out), "--rules-set", "pedantic")
    assert done.returncode == 0, done.stderr
    run = json.loads(out.read_text())["runs"][0]
    languages = {a["location"]["uri"]: a["sourceLanguage"] for a in run["artifacts"]}
    assert languages["go/branches.go"] == "go" and languages["branches.py"] == "python"
    by_rule = {r["ruleId"]: r["properties"]["language"] for r in run["results"]}
    assert by_rule["go-nil-check-before-len"] == "go"
    assert by_rule["ts-non-null-assertion"] == "typescript"
