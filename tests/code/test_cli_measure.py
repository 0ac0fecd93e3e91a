"""`slopmark code measure` through the real CLI in a subprocess."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from clirun import cli_json, run_cli
from slopmark import __version__

pytestmark = pytest.mark.slow  # starts python

VERBOSE = """\
def check(flag):
    if flag == True:
        return True
    else:
        return False
"""

CLONED = """\
def first(items):
    total = 0
    for item in items:
        if item > 3:
            total += item
    return total


def second(values):
    acc = 0
    for value in values:
        if value > 7:
            acc += value
    return acc
"""


def test_version() -> None:
    done = run_cli("--version")
    assert done.returncode == 0
    assert done.stdout.strip() == f"slopmark {__version__}"


@pytest.mark.parametrize(
    "command", [[], ["code"], ["code", "measure"], ["code", "history"], ["code", "rules"]]
)
def test_every_command_has_help(command: list[str]) -> None:
    done = run_cli(*command, "--help")
    assert done.returncode == 0
    assert "Usage" in done.stdout
    assert len(done.stdout.strip().splitlines()) > 3


def test_missing_path_is_bad_input(tmp_path: Path) -> None:
    done = run_cli("code", "measure", str(tmp_path / "nope"))
    assert done.returncode == 2
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1
    assert "nope" in lines[0] and "no such file" in lines[0]


def test_one_file_is_a_one_file_tree(make_tree) -> None:
    root = make_tree({"a.py": VERBOSE, "b.py": CLONED})
    report = cli_json("code", "measure", str(root / "a.py"))
    assert report["files_measured"] == 1
    assert [f["path"] for f in report["files"]] == ["a.py"]
    assert report["sloc"] == 5


def test_json_carries_callables_hits_and_clones(make_tree) -> None:
    root = make_tree({"a.py": VERBOSE, "b.py": CLONED})
    report = cli_json("code", "measure", str(root))
    files = {f["path"]: f for f in report["files"]}
    check = files["a.py"]["callables"][0]
    assert check == {
        "qualname": "check",
        "start": 1,
        "end": 5,
        "cc": 2,
        "sloc": 5,
        "mass": pytest.approx(2 * 5**0.5),
    }
    assert any(h["start"] == 2 for h in files["a.py"]["hits"])
    groups = report["clone_groups"]
    assert len(groups) == 2  # the two functions, and their two `for` loops
    members = {(m["path"], m["start"]) for g in groups for m in g["members"]}
    assert members == {("b.py", 1), ("b.py", 9), ("b.py", 3), ("b.py", 11)}
    assert files["b.py"]["clone_lines"] == 12
    assert report["verbosity"] == pytest.approx(report["flagged_lines"] / report["sloc"])


def test_sarif_output(make_tree, tmp_path: Path) -> None:
    import json

    root = make_tree({"a.py": VERBOSE, "b.py": CLONED})
    out = tmp_path / "out.sarif"
    done = run_cli("code", "measure", str(root), "--sarif", str(out))
    assert done.returncode == 0, done.stderr
    sarif = json.loads(out.read_text())
    assert sarif["version"] == "2.1.0"
    run = sarif["runs"][0]
    rule_ids = {r["id"] for r in run["tool"]["driver"]["rules"]}
    results = run["results"]
    assert all(r["ruleId"] in rule_ids for r in results)
    clones = [r for r in results if r["ruleId"] == "duplicated-block"]
    assert len(clones) == 4
    region = clones[0]["locations"][0]["physicalLocation"]["region"]
    assert region["startLine"] >= 1 and region["endLine"] >= region["startLine"]


def test_empty_tree_has_undefined_ratios(make_tree) -> None:
    root = make_tree({"only_comments.py": "# nothing here\n"})
    report = cli_json("code", "measure", str(root))
    assert report["erosion"] is None and report["verbosity"] is None
    done = run_cli("code", "measure", str(root))
    assert done.returncode == 0
    assert "undefined (n=0)" in done.stdout


def test_broken_files_are_skipped_with_reasons(make_tree) -> None:
    root = make_tree(
        {
            "good.py": VERBOSE,
            "broken.py": "def f(:\n    pass\n",
            "latin.py": b"# -*- coding: utf-8 -*-\nname = '\xff\xfe'\n",
            "nul.py": b"x = 1\x00\n",
        }
    )
    os.symlink(root, root / "loop")
    os.symlink(root / "good.py", root / "link.py")
    report = cli_json("code", "measure", str(root))
    skipped = {s["path"]: s["reason"] for s in report["skipped"]}
    assert "syntax error at line 1" in skipped["broken.py"]
    assert "nul.py" in skipped
    assert "symlink" in skipped["loop/"] and "symlink" in skipped["link.py"]
    # Python refuses bytes invalid in the declared encoding, so the file is not measured
    assert "not valid utf-8 (byte 0xff at offset 32)" in skipped["latin.py"]
    assert "Python would not run it" in skipped["latin.py"]
    assert report["files_measured"] == 1


def test_pathological_files_are_reported_and_the_rest_measured(make_tree) -> None:
    """Deep nesting, long chains, a late syntax error and a 100k-character line: each file
    is reported or measured on its own, never a crash or a hang of the whole run."""
    root = make_tree(
        {
            "good.py": VERBOSE,
            "parens.py": "x = " + "(" * 5000 + "1" + ")" * 5000 + "\n",
            "chain.py": "x = " + " + ".join(["a"] * 200_000) + "\n",
            "nested.py": ("y = " + "[" * 400 + "a == None" + "]" * 400 + "\n") * 40,
            "late_error.py": "a = 1\n" * 4 + "def f(x):\n    return x +\n",
            "minified.py": "x = [" + ", ".join(str(i) for i in range(20_000)) + "]\n",
        }
    )
    report = cli_json("code", "measure", str(root))
    skipped = {s["path"]: s["reason"] for s in report["skipped"]}
    assert "nesting is over 1000 levels" in skipped["parens.py"]
    assert "nesting is over 1000 levels" in skipped["chain.py"]
    assert "too many nodes nest deeper than 64 levels" in skipped["nested.py"]
    assert skipped["late_error.py"].startswith("syntax error at line 6, column ")
    measured = {f["path"]: f for f in report["files"]}
    assert set(measured) == {"good.py", "minified.py"}
    assert measured["minified.py"]["sloc"] == 1


def test_huge_generated_file_is_skipped(make_tree) -> None:
    line = "VALUE_%d = %d\n"
    big = "".join(line % (i, i) for i in range(1_300_000))
    assert len(big) > 20_000_000
    root = make_tree({"generated.py": big, "small.py": VERBOSE})
    report = cli_json("code", "measure", str(root))
    skipped = {s["path"]: s["reason"] for s in report["skipped"]}
    assert "over the 10 MiB limit" in skipped["generated.py"]
    assert report["files_measured"] == 1


def test_suppression_and_unknown_ids(make_tree) -> None:
    clean = cli_json("code", "measure", str(make_tree({"a.py": VERBOSE})))
    suppressed_source = VERBOSE.replace(
        "    if flag == True:",
        "    # slopmark: ignore["
        + ",".join(
            sorted({h["rule"] for f in clean["files"] for h in f["hits"] if h["start"] == 2})
        )
        + "]\n    if flag == True:",
    )
    root = make_tree({"a.py": suppressed_source})
    report = cli_json("code", "measure", str(root))
    assert not [h for f in report["files"] for h in f["hits"] if h["start"] == 3]
    (root / "a.py").write_text("x = 1  # slopmark: ignore[no-such-rule]\n")
    done = run_cli("code", "measure", str(root))
    assert done.returncode == 2
    assert "a.py:1: unknown rule id 'no-such-rule'" in done.stderr


def test_fail_over_gate(make_tree) -> None:
    plain = "".join(f"x{i} = {i}\n" for i in range(12))
    root = make_tree({"b.py": CLONED, "c.py": plain})  # 12 of 24 lines are clones
    assert run_cli("code", "measure", str(root), "--fail-over", "verbosity=0.5").returncode == 1
    assert run_cli("code", "measure", str(root), "--fail-over", "verbosity=0.51").returncode == 0
    bad = run_cli("code", "measure", str(root), "--fail-over", "speed=1")
    assert bad.returncode == 2 and "must be one of erosion, verbosity" in bad.stderr


def test_unknown_selected_rule_suggests(make_tree) -> None:
    done = run_cli(
        "code", "measure", str(make_tree({"a.py": VERBOSE})), "--select", "dict-keys-membershp"
    )
    assert done.returncode == 2
    assert "did you mean 'dict-keys-membership'" in done.stderr


def test_project_excludes_and_cli_excludes(make_tree) -> None:
    root = make_tree(
        {
            "pyproject.toml": '[tool.slopmark]\nexclude = ["gen/*"]\n',
            "gen/out.py": VERBOSE,
            "tests/test_x.py": VERBOSE,
            "app.py": VERBOSE,
        }
    )
    report = cli_json("code", "measure", str(root), "--exclude", "tests")
    assert [f["path"] for f in report["files"]] == ["app.py"]


def test_size_term_and_threshold_variants(make_tree) -> None:
    root = make_tree({"a.py": VERBOSE})
    linear = cli_json("code", "measure", str(root), "--size-term", "linear")
    assert linear["files"][0]["callables"][0]["mass"] == 10
    none = cli_json("code", "measure", str(root), "--size-term", "none", "--cc-threshold", "1")
    assert none["files"][0]["callables"][0]["mass"] == 2 and none["erosion"] == 1.0
    bad = run_cli("code", "measure", str(root), "--size-term", "cubic")
    assert bad.returncode == 2


CUSTOM_RULE = """\
id: print-call
language: python
severity: info
message: "print call"
metadata:
  min_hits: 2
rule:
  kind: call
  pattern: print($$$)
"""


def test_user_rule_directory_with_min_hits(make_tree, tmp_path: Path) -> None:
    rules = tmp_path / "my-rules"
    rules.mkdir()
    (rules / "print-call.yml").write_text(CUSTOM_RULE)
    root = make_tree({"one.py": "print(1)\n", "two.py": "print(1)\nprint(2)\n"})
    report = cli_json("code", "measure", str(root), "--rules", str(rules), "--select", "print-call")
    hits = {f["path"]: [h["start"] for h in f["hits"]] for f in report["files"]}
    assert hits == {"one.py": [], "two.py": [1, 2]}  # one.py is under min_hits
    assert report["rules_run"] == 1


def test_rule_rejected_by_engine_names_its_file(make_tree, tmp_path: Path) -> None:
    rules = tmp_path / "bad-rules"
    rules.mkdir()
    (rules / "broken.yml").write_text("id: broken\nlanguage: python\nrule:\n  kind: no_such_kind\n")
    done = run_cli("code", "measure", str(make_tree({"a.py": "x = 1\n"})), "--rules", str(rules))
    assert done.returncode == 2
    assert f"{rules / 'broken.yml'}: rule 'broken' is rejected by ast-grep" in done.stderr
    assert "no_such_kind" in done.stderr


def test_version_constant_matches_the_installed_metadata() -> None:
    from importlib.metadata import version

    assert version("slopmark") == __version__


def test_compact_json_text_is_json_dumps_of_the_report(make_tree) -> None:
    """The templated `--json` text equals `json.dumps` of `to_json` (escapes, floats)."""
    import json

    from slopmark.cli.code_report import json_text, to_json
    from slopmark.code.measure.measure_tree import measure_tree

    tree = make_tree({
        "é/ünï.py": 'def naïve_\u00e9(x):\n    """q"""\n    if x == None:\n'
                    '        return "\\"é\\""\n    return x\n\n\n'
                    "class K:\n    def m(self):\n        return dict()\n",
        "cl.py": CLONED, "v.py": VERBOSE, "empty.py": "",
    })  # fmt: skip
    report = measure_tree(tree)
    assert report.files and any(f.hits for f in report.files) and report.clone_groups
    # a message may quote source text, NULs and all: only the report's own places are filled
    extra = {"baseline_new": [{"message": "‘x’\n\0files\0 \0clone_groups\0"}]}
    expected = json.dumps(to_json(report) | extra, separators=(",", ":"))
    assert json_text(report, extra) == expected
