"""The prompt templates: the built-ins render the spec, and bad templates are bad input."""

from __future__ import annotations

from pathlib import Path

import pytest

from slopmark.code.bench.prompts import load_prompt, prompt_names
from slopmark.errors import BadInput

SPEC = "# Word count\n\nPrint the number of words in each file given.\n"


def render(name: str, is_continuation: bool, entry_file: str = "main.py") -> str:
    prompt = load_prompt(name)
    return prompt.render(spec=SPEC, is_continuation=is_continuation, entry_file=entry_file)


def test_the_builtin_prompts_are_listed() -> None:
    assert prompt_names() == ["anti-slop", "just-solve", "plan-first"]


@pytest.mark.parametrize("name", ["anti-slop", "just-solve", "plan-first"])
def test_every_builtin_holds_the_spec_the_entry_file_and_requirements(name: str) -> None:
    first = render(name, is_continuation=False, entry_file="wc.py")
    assert f"<specification>\n{SPEC}\n</specification>" in first
    assert "`python wc.py`" in first and "requirements.txt" in first
    assert "The workspace is\nempty" in first and "previous" not in first
    later = render(name, is_continuation=True, entry_file="wc.py")
    assert later.startswith("The workspace holds the program you wrote for the earlier parts")
    assert "Extend your existing code" in later and "workspace is\nempty" not in later
    assert "{{" not in first + later and "{%" not in first + later


def test_anti_slop_names_the_slop_to_avoid() -> None:
    text = render("anti-slop", is_continuation=False)
    for phrase in ("god\n  function", "if/elif ladders", "copy and paste", "defensively"):
        assert phrase in text
    assert "god" not in render("just-solve", is_continuation=False)


def test_plan_first_orders_plan_build_verify_refactor() -> None:
    for is_continuation in (False, True):
        text = render("plan-first", is_continuation)
        words = ("Plan", "Write", "Verify", "Refactor")
        steps = [text.index(f"{n}. {word}") for n, word in enumerate(words, start=1)]
        assert steps == sorted(steps)
    assert "what in the current design has to change" in render("plan-first", True)


def test_an_unknown_prompt_name_suggests_the_closest() -> None:
    with pytest.raises(BadInput, match="unknown prompt 'just-solv'; did you mean 'just-solve'"):
        load_prompt("just-solv")


def test_a_prompt_file_is_loaded_by_path(tmp_path: Path) -> None:
    path = tmp_path / "terse.jinja"
    path.write_text("{{ spec }}{% if is_continuation %} (extend {{ entry_file }}){% endif %}")
    prompt = load_prompt(str(path))
    assert prompt.name == "terse"
    assert prompt.render(spec="S", is_continuation=True, entry_file="m.py") == "S (extend m.py)"
    assert prompt.render(spec="S", is_continuation=False, entry_file="m.py") == "S"


def test_a_missing_prompt_file_is_bad_input(tmp_path: Path) -> None:
    with pytest.raises(BadInput, match="no such prompt file"):
        load_prompt(str(tmp_path / "absent.jinja"))


def test_a_template_with_a_syntax_error_names_its_line(tmp_path: Path) -> None:
    path = tmp_path / "broken.jinja"
    path.write_text("line one\n{% if spec %}\nno endif\n")
    with pytest.raises(BadInput, match=f"prompt {path}:\\d+: not a valid Jinja template"):
        load_prompt(str(path))


def test_a_template_using_an_unknown_variable_fails_when_loaded(tmp_path: Path) -> None:
    path = tmp_path / "typo.jinja"
    path.write_text("{% if is_continuation %}{{ spce }}{% endif %}")
    with pytest.raises(BadInput, match="'spce' is undefined; a prompt may only use spec"):
        load_prompt(str(path))
