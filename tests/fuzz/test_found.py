"""Inputs the fuzzers found that crashed a reader or made it take quadratic time; each
now ends as a read or as one line (exit 2)."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from clirun import run_cli
from slopmark.paper.latex import parse_source
from slopmark.paper.latex.commands import MAX_UNCLOSED
from slopmark.paper.latex.scan import MAX_NESTING

pytestmark = pytest.mark.slow  # starts python

WORDCOUNT = Path(__file__).parent.parent / "code" / "bench" / "data" / "wordcount"
HEAD = "\\documentclass{article}\n\\begin{document}\n"


def _one_line(done: object) -> str:
    assert getattr(done, "returncode", None) == 2, done
    lines = str(getattr(done, "stderr", "")).strip().splitlines()
    assert len(lines) == 1 and "Traceback" not in lines[0], lines
    return lines[0]


def test_a_command_that_only_starts_like_iffalse_is_text() -> None:
    """``\\iffalseH`` (found by the LaTeX fuzzer) failed an assertion."""
    document = parse_source(HEAD + "A \\iffalseH B \\iffalse hidden \\fi C\n\\end{document}")
    assert "hidden" not in document.prose_view and "C" in document.prose_view


def test_many_iffalse_blocks_on_one_line_are_read_without_recursion() -> None:
    document = parse_source(HEAD + "\\iffalse x\\fi " * 5000 + "Kept.\n\\end{document}")
    assert document.prose_view.strip() == "Kept."


def test_an_unclosed_argument_stops_at_its_bound() -> None:
    """20,000 unclosed ``\\section{`` in one paragraph took each the rest of the text."""
    document = parse_source(HEAD + "\\section{" * 20_000 + "\n\\end{document}")
    assert len(document.sections) == 20_000
    assert max(len(section.title) for section in document.sections) <= MAX_UNCLOSED


def test_environments_nested_past_the_bound_are_text() -> None:
    document = parse_source(HEAD + "\\begin{tabular}{c}x " * (MAX_NESTING + 40) + "\\end{document}")
    assert len([f for f in document.floats if f.environment == "tabular"]) == MAX_NESTING
    assert any(f"nested deeper than {MAX_NESTING}" in note.message for note in document.notes)


@pytest.mark.parametrize(
    ("config", "says"),
    [
        (b"name: w\n\xdf\xcc: 1\n", "cannot be read as UTF-8"),
        (b"entry_file: main\ntimeout: soon\ncheckpoints: [checkpoint_1]\n", "'timeout'"),
        (b"entry_file: main\nversion: .nan\ncheckpoints: [checkpoint_1]\n", "'version'"),
        (b"entry_file: main\ncheckpoints: {checkpoint_1: {order: [1]}}\n", "order"),
        (b"entry_file: main\ncheckpoints: {checkpoint_1: {timeout: .inf}}\n", "timeout"),
        (b"entry_file: main\ncheckpoints: {checkpoint_1: {path: /etc, specification: passwd}}\n",
         "leaves the problem folder"),
        (b"entry_file: main\ncheckpoints: [checkpoint_1]\nstatic_assets: {a: ../../x}\n",
         "leaves the problem folder"),
        (b"entry_file: main\ncheckpoints: [checkpoint_1]\nstatic_assets: {a: \"x\\0y\"}\n",
         "leaves the problem folder"),
    ],
)  # fmt: skip
def test_a_bad_problem_config_is_one_line(tmp_path: Path, config: bytes, says: str) -> None:
    problem = tmp_path / "problems" / "w"
    shutil.copytree(WORDCOUNT, problem)
    (problem / "config.yaml").write_bytes(config)
    line = _one_line(run_cli("code", "bench", "list", "--problems", str(problem.parent)))
    assert "config.yaml" in line and says in line


def test_a_yaml_reader_error_in_a_task_file_is_one_line(tmp_path: Path) -> None:
    tasks = tmp_path / "tasks.yaml"
    tasks.write_bytes(b"a\xc2\x9a'Y\x1ftasks:\n")
    line = _one_line(run_cli("tasks", "validate", str(tasks)))
    assert "not valid YAML" in line and "#x009a" in line
