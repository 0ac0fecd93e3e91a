"""Rule sets (issue 36): ``metadata.set``, the frozen ``paper`` pack and ``--rules-set``."""

from __future__ import annotations

import hashlib
import json
import re
import subprocess
from dataclasses import replace
from pathlib import Path

import pytest

from clirun import run_cli
from slopmark.code.bench.runner import BenchConfig, open_run_dir
from slopmark.code.measure.cache.files import engine_profile
from slopmark.code.measure.measure_tree import MeasureOptions, measure_tree
from slopmark.code.measure.metrics import Settings
from slopmark.code.measure.rules import (
    LANG_DIR,
    PACK_DIR,
    PAPER_DIR,
    check_rule_set,
    load_catalog,
)
from slopmark.code.measure.tree_store import tree_record
from slopmark.errors import BadInput

#: sha256 of every file of rules/paper/ (relative path, NUL, bytes, NUL; sorted by path):
#: the packs as they were at commit e854467, and the folder's README. Never update it: the
#: paper set is frozen (its README says why); change pack/ or lang/ instead.
PAPER_DIGEST = "188b65ac99456a30abf1f8b3dc52c4b84c16a0fbe128aa64589eb32cad217a38"

PEDANTIC_RULE = """\
id: print-call-pedantic
language: python
severity: info
message: a print call
rule: {pattern: print($$$ARGS)}
metadata: {category: misc, set: pedantic}
"""
DEFAULT_RULE = """\
id: len-call-default
language: python
message: a len call
rule: {pattern: len($X)}
"""


def _digest(folder: Path) -> str:
    digest = hashlib.sha256()
    for path in sorted(p for p in folder.rglob("*") if p.is_file()):
        digest.update(path.relative_to(folder).as_posix().encode() + b"\0")
        digest.update(path.read_bytes() + b"\0")
    return digest.hexdigest()


def test_the_paper_set_is_frozen() -> None:
    assert _digest(PAPER_DIR) == PAPER_DIGEST, (
        "rules/paper/ is frozen (see its README): restore it and change pack/ or lang/"
    )


def test_the_paper_set_runs_only_its_frozen_copy() -> None:
    paper = load_catalog(rule_set="paper")
    assert paper and {r.rule_set for r in paper} == {"paper"}
    assert all(Path(r.source).is_relative_to(PAPER_DIR) for r in paper)
    assert not any(Path(r.source).is_relative_to(PAPER_DIR) for r in load_catalog())
    assert {PACK_DIR.name, LANG_DIR.name} <= {p.name for p in PAPER_DIR.iterdir()}


@pytest.fixture
def rules(tmp_path: Path) -> Path:
    (tmp_path / "pedantic.yml").write_text(PEDANTIC_RULE)
    (tmp_path / "default.yml").write_text(DEFAULT_RULE)
    return tmp_path


def test_pedantic_rules_are_left_out_of_the_default_set(rules: Path) -> None:
    default = {r.id: r.rule_set for r in load_catalog([rules])}
    pedantic = {r.id: r.rule_set for r in load_catalog([rules], "pedantic")}
    assert "print-call-pedantic" not in default and default["len-call-default"] == "default"
    assert pedantic["print-call-pedantic"] == "pedantic"
    assert set(pedantic) - set(default) >= {"print-call-pedantic"}
    paper = {r.id: r.rule_set for r in load_catalog([rules], "paper")}
    assert paper["len-call-default"] == "default"  # the user's own rules are not frozen


def test_an_unknown_set_is_refused(tmp_path: Path) -> None:
    (tmp_path / "bad.yml").write_text(PEDANTIC_RULE.replace("set: pedantic", "set: strict"))
    with pytest.raises(BadInput, match=r"bad\.yml: rule 'print-call-pedantic': metadata\.set "
                       r"'strict' is not a rule set; write 'pedantic'"):  # fmt: skip
        load_catalog([tmp_path])
    with pytest.raises(BadInput, match="unknown rule set .papr.; did you mean .paper."):
        check_rule_set("papr")


def test_the_cache_keys_sets_apart() -> None:
    """The same rules in the paper set and in the default set keep separate results."""
    paper, default = load_catalog(rule_set="paper"), load_catalog()
    assert engine_profile(paper) != engine_profile(default)


@pytest.mark.slow
def test_every_output_names_its_set(tmp_path: Path) -> None:
    (tmp_path / "a.py").write_text("def f(x):\n    if x == True:\n        return 1\n    return 2\n")
    sarif = tmp_path / "out.sarif"
    for rule_set in ("paper", "default", "pedantic"):
        done = run_cli("code", "measure", str(tmp_path), "--json", "--rules-set", rule_set,
                       "--sarif", str(sarif))  # fmt: skip
        assert done.returncode == 0, done.stderr
        report = json.loads(done.stdout)
        assert report["rule_set"] == report["settings"]["rule_set"] == rule_set
        assert json.loads(sarif.read_text())["runs"][0]["properties"] == {"ruleSet": rule_set}
    table = run_cli("code", "measure", str(tmp_path), "--rules-set", "paper")
    assert re.search(r"^  rule set +paper *$", table.stdout, re.MULTILINE), table.stdout
    bad = run_cli("code", "measure", str(tmp_path), "--rules-set", "strict")
    assert bad.returncode == 2 and "unknown rule set 'strict'" in bad.stderr


def test_a_stored_report_keeps_its_set(tmp_path: Path) -> None:
    (tmp_path / "a.py").write_text("def f(x):\n    return x\n")
    options = MeasureOptions(settings=Settings(rule_set="paper"))
    report = measure_tree(tmp_path, options)
    record = tree_record(report, load_catalog(rule_set="paper"))
    assert record.settings["rule_set"] == "paper"


def test_a_bench_run_folder_resumes_only_with_its_set(tmp_path: Path) -> None:
    """A run folder from before the sets ran the paper's pack."""
    config = BenchConfig(tmp_path / "run", "replay", None, "just-solve", "bwrap")
    config.run_dir.mkdir()
    old = {"agent": "replay", "model": None, "prompt": "just-solve", "sandbox": "bwrap"}
    (config.run_dir / "run.json").write_text(json.dumps(old))
    open_run_dir(config, [])
    assert json.loads((config.run_dir / "run.json").read_text())["rule_set"] == "paper"
    with pytest.raises(BadInput, match="started with --rules-set paper, not default"):
        open_run_dir(replace(config, rule_set="default"), [])


@pytest.mark.slow
def test_diff_names_its_set(tmp_path: Path) -> None:
    repo = tmp_path / "repo"
    repo.mkdir()
    (repo / "a.py").write_text("def f(x):\n    return x\n")
    for args in (("init", "-q"), ("add", "."), ("commit", "-qm", "one")):
        subprocess.run(["git", "-C", str(repo), "-c", "user.name=t", "-c", "user.email=t@t",
                        *args], check=True)  # fmt: skip
    (repo / "a.py").write_text("def f(x):\n    if x == True:\n        return 1\n    return x\n")
    sarif = tmp_path / "diff.sarif"
    done = run_cli("code", "diff", "-C", str(repo), "--json", "--rules-set", "paper",
                   "--sarif", str(sarif))  # fmt: skip
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["rule_set"] == "paper"
    assert json.loads(sarif.read_text())["runs"][0]["properties"] == {"ruleSet": "paper"}
    assert json.loads(run_cli("code", "diff", "-C", str(repo), "--json").stdout)["rule_set"] == (
        "default"
    )
