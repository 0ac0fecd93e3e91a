"""Checkpoint 1: job files in two formats, execution order, levels, cycles, input errors."""

from __future__ import annotations

import json
import subprocess

import pytest

PIPELINE_TEXT = """\
# a comment
[fetch]

[build]
deps = fetch

[lint]

[test]
deps = build, lint
"""

PIPELINE_JSON = {
    "jobs": [
        {"id": "fetch"},
        {"id": "build", "deps": ["fetch"]},
        {"id": "lint", "deps": []},
        {"id": "test", "deps": ["build", "lint"]},
    ]
}


def json_jobs(*jobs: dict[str, object]) -> str:
    return json.dumps({"jobs": list(jobs)})


def assert_input_error(result: subprocess.CompletedProcess[str], code: int = 2) -> None:
    assert result.returncode == code, result.stderr
    assert result.stdout == ""
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1, result.stderr
    assert lines[0].startswith("error: ")


def test_order_text_format(run, write):
    result = run("order", write("pipeline.jobs", PIPELINE_TEXT))
    assert result.returncode == 0, result.stderr
    assert result.stdout == "fetch\nbuild\nlint\ntest\n"


def test_order_json_format(run, write):
    result = run("order", write("pipeline.json", json.dumps(PIPELINE_JSON)))
    assert result.returncode == 0, result.stderr
    assert result.stdout == "fetch\nbuild\nlint\ntest\n"


def test_order_tie_break_is_plain_string_order(run, write):
    names = ["job2", "job10", "Beta", "alpha", "a-b", "a.b", "a_b"]
    result = run("order", write("ties.json", json_jobs(*({"id": n} for n in names))))
    assert result.returncode == 0, result.stderr
    assert result.stdout.splitlines() == sorted(names)


def test_order_deep_chain_and_diamond(run, write):
    text = """\
[z]
deps = y
[y]
deps = x1, x2
[x2]
deps = w
[x1]
deps = w
[w]
[a]
deps = x2
"""
    result = run("order", write("diamond.jobs", text))
    assert result.returncode == 0, result.stderr
    assert result.stdout == "w\nx1\nx2\na\ny\nz\n"


def test_cycle_reports_path_and_exit_1(run, write):
    jobs = json_jobs(
        {"id": "a", "deps": ["c"]}, {"id": "b", "deps": ["a"]}, {"id": "c", "deps": ["b"]}
    )
    result = run("order", write("cycle.json", jobs))
    assert_input_error(result, code=1)
    assert result.stderr.strip() == "error: dependency cycle: a -> c -> b -> a"


def test_cycle_not_through_first_job(run, write):
    text = "[a]\ndeps = b\n[b]\ndeps = c\n[c]\ndeps = b, d\n[d]\n"
    result = run("order", write("tail.jobs", text))
    assert_input_error(result, code=1)
    assert result.stderr.strip() == "error: dependency cycle: b -> c -> b"


@pytest.mark.functionality
def test_self_dependency_is_a_cycle(run, write):
    result = run("order", write("self.jobs", "[ok]\n[loop]\ndeps = loop, ok\n"))
    assert_input_error(result, code=1)
    assert result.stderr.strip() == "error: dependency cycle: loop -> loop"


@pytest.mark.functionality
def test_first_cycle_in_id_order_wins(run, write):
    jobs = json_jobs(
        {"id": "p", "deps": ["q"]},
        {"id": "q", "deps": ["p"]},
        {"id": "m", "deps": ["n"]},
        {"id": "n", "deps": ["o"]},
        {"id": "o", "deps": ["n", "m"]},
    )
    result = run("order", write("two.json", jobs))
    assert_input_error(result, code=1)
    assert result.stderr.strip() == "error: dependency cycle: m -> n -> o -> m"


@pytest.mark.functionality
def test_levels(run, write):
    result = run("order", write("pipeline.jobs", PIPELINE_TEXT), "--levels")
    assert result.returncode == 0, result.stderr
    assert result.stdout == "fetch lint\nbuild\ntest\n"


@pytest.mark.functionality
def test_levels_use_longest_dependency_chain(run, write):
    text = "[d]\ndeps = a, c\n[c]\ndeps = b\n[b]\ndeps = a\n[a]\n[e]\ndeps = a\n"
    result = run("order", write("chain.jobs", text), "--levels")
    assert result.returncode == 0, result.stderr
    assert result.stdout == "a\nb e\nc\nd\n"


@pytest.mark.functionality
def test_text_format_whitespace_comments_and_duplicate_deps(run, write):
    text = "\n  # leading comment\n  [ second ]  \n deps =  first ,first\n\n[first]\n   # x\n"
    result = run("order", write("messy.jobs", text))
    assert result.returncode == 0, result.stderr
    assert result.stdout == "first\nsecond\n"


@pytest.mark.functionality
def test_empty_job_list(run, write):
    result = run("order", write("empty.json", '{"jobs": []}'))
    assert result.returncode == 0, result.stderr
    assert result.stdout == ""


@pytest.mark.error
def test_unknown_dependency(run, write):
    result = run("order", write("bad.json", json_jobs({"id": "test", "deps": ["compile"]})))
    assert_input_error(result)
    assert "compile" in result.stderr


@pytest.mark.error
def test_duplicate_job_id(run, write):
    result = run("order", write("dup.jobs", "[a]\n[b]\n[a]\ndeps = b\n"))
    assert_input_error(result)
    assert "'a'" in result.stderr or '"a"' in result.stderr or " a" in result.stderr


@pytest.mark.error
@pytest.mark.parametrize(
    "text",
    [
        "deps = a\n[a]\n",
        "[a]\ncolour = red\n",
        "[a]\nthis line has no equals sign\n",
        "[a]\n[b]\ndeps = a\ndeps = a\n",
        "[bad id]\n",
    ],
    ids=["key-before-section", "unknown-key", "no-equals", "repeated-key", "bad-id"],
)
def test_text_syntax_errors(run, write, text):
    assert_input_error(run("order", write("bad.jobs", text)))


@pytest.mark.error
@pytest.mark.parametrize(
    "document",
    [
        '{"jobs": [',
        '[{"id": "a"}]',
        '{"jobs": [{"deps": []}]}',
        '{"jobs": [{"id": "a", "deps": "b"}]}',
        '{"jobs": [{"id": "a", "colour": "red"}]}',
        '{"jobs": [{"id": "a/b"}]}',
    ],
    ids=["truncated", "not-object", "no-id", "deps-not-list", "unknown-key", "bad-id"],
)
def test_json_errors(run, write, document):
    assert_input_error(run("order", write("bad.json", document)))


@pytest.mark.error
def test_missing_file(run):
    assert_input_error(run("order", "nowhere.json"))


@pytest.mark.error
def test_unsupported_extension(run, write):
    assert_input_error(run("order", write("jobs.yaml", "[a]\n")))
