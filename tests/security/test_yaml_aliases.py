"""Every YAML reader refuses aliases: a 1 KB alias bomb is one line and exit 2, not a
memory blow-up (task files, bench problem configs, model configs, rule files)."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from security.bounded import one_line_error, run_capped

pytestmark = pytest.mark.slow  # starts python

WORDCOUNT = Path(__file__).parent.parent / "code" / "bench" / "data" / "wordcount"


def bomb(levels: int = 9, width: int = 9) -> str:
    """A flow list of nested aliases: ``width ** levels`` strings once expanded."""
    first = "&a0 [" + ", ".join(["lol"] * width) + "]"
    rest = [f"&a{n} [" + ", ".join([f"*a{n - 1}"] * width) + "]" for n in range(1, levels)]
    return "[" + ", ".join([first, *rest]) + "]"


def test_bomb_is_small() -> None:
    assert len(bomb()) < 1024


def test_a_task_file_with_an_alias_is_refused_by_validate_and_list(tmp_path: Path) -> None:
    tasks = tmp_path / "tasks.yaml"
    tasks.write_text(
        "- id: bomb\n  domain: math\n  prompt: what is 1+1?\n"
        f"  verifier: {{type: math, answer: '2'}}\n  tags: {bomb()}\n",
        encoding="utf-8",
    )
    for args in (["tasks", "validate", str(tasks)], ["tasks", "list", "--tasks", str(tasks)]):
        line = one_line_error(run_capped(*args))
        assert str(tasks) in line and "alias" in line and ":5:" in line


def test_a_bench_problem_config_with_an_alias_is_refused(tmp_path: Path) -> None:
    problems = tmp_path / "problems"
    shutil.copytree(WORDCOUNT, problems / "wordcount")
    config = problems / "wordcount" / "config.yaml"
    text = config.read_text(encoding="utf-8")
    config.write_text(text.replace("description: Count", f"description: {bomb()}\nx: Count"))
    line = one_line_error(run_capped("code", "bench", "list", "--problems", str(problems)))
    assert str(config) in line and "alias" in line


def test_a_model_config_with_an_alias_is_refused(tmp_path: Path) -> None:
    paper = tmp_path / "paper"
    paper.mkdir()
    (paper / "main.tex").write_text(
        "\\documentclass{article}\\begin{document}\\section{Intro}Hello.\\end{document}\n"
    )
    config = tmp_path / "models.yaml"
    config.write_text(
        "labeller:\n  base_url: http://127.0.0.1:9/v1\n  model: m\n"
        f"  prompt_prefix: {bomb()}\n",
        encoding="utf-8",
    )
    done = run_capped("paper", "measure", str(paper), "--model-config", str(config))
    line = one_line_error(done)
    assert str(config) in line and "alias" in line


def test_a_rule_file_with_an_alias_is_refused(tmp_path: Path) -> None:
    rules = tmp_path / "rules"
    rules.mkdir()
    (rules / "bomb.yml").write_text(
        "id: bomb\nlanguage: python\nrule: {pattern: 'print($A)'}\n"
        f"metadata: {{what: {bomb()}}}\n"
    )
    (tmp_path / "src").mkdir()
    (tmp_path / "src" / "a.py").write_text("print(1)\n")
    done = run_capped("code", "measure", str(tmp_path / "src"), "--rules", str(rules))
    line = one_line_error(done)
    assert "bomb.yml" in line and "alias" in line


def test_an_ampersand_without_an_alias_reads_as_the_safe_loader_reads_it() -> None:
    import yaml

    from slopmark.yamlconfig import load_yaml, load_yaml_all

    text = "pattern: 'a && b'\nanchored: &x [1, 2]\nplain: ok & fine\n"
    assert load_yaml(text) == yaml.load(text, Loader=yaml.SafeLoader)  # noqa: S506
    assert load_yaml_all(text + "---\n- &y z\n") == [load_yaml(text), ["z"]]


def test_an_alias_after_an_anchor_is_refused_with_its_line() -> None:
    import pytest
    import yaml

    from slopmark.yamlconfig import load_yaml

    with pytest.raises(yaml.YAMLError, match=r"(?s)alias \*x.*line 3"):
        load_yaml("a: &x [1]\nb: 'c & d'\nc: *x\n")
