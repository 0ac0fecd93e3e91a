"""Task files: every problem reported with file, line, task id and field; the tasks CLI."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from clirun import run_cli
from slopmark.evals.generators import generate
from slopmark.evals.pool import POOL_DIR
from slopmark.evals.taskfile import load_tasks

GOOD = """\
- id: good-1
  domain: math
  prompt: What is 2 + 2?
  verifier: {type: math, answer: "4", kind: integer}
  source: seed
"""


def problems_of(tmp_path: Path, name: str, text: str) -> list[str]:
    path = tmp_path / name
    path.write_text(text)
    _, problems = load_tasks([path])
    return [str(p) for p in problems]


V = "verifier: {type: math, answer: '1', kind: integer}"
BAD_RECORDS = [
    (f"domain: math\n  prompt: hi\n  {V}", "field 'id': 'id' is a required property"),
    (f"id: t\n  domain: maths\n  prompt: hi\n  {V}", "field 'domain': 'maths' is not one of"),
    (f"id: t\n  domain: math\n  prompt: 7\n  {V}", "field 'prompt': 7 is not of type 'string'"),
    (
        f"id: t\n  domain: math\n  prompt: hi\n  {V.replace('math,', 'mth,')}",
        "field 'verifier.type': unknown verifier 'mth'; did you mean 'math'?",
    ),
    (
        f"id: t\n  domain: math\n  prompt: hi\n  {V}\n  colour: red",
        "field 'colour': Additional properties are not allowed",
    ),
    (f"id: t\n  domain: math\n  {V}", "is not valid under any of the given schemas"),
]


@pytest.mark.parametrize(("record", "expected"), BAD_RECORDS)
def test_each_problem_names_file_line_task_and_field(
    tmp_path: Path, record: str, expected: str
) -> None:
    found = problems_of(tmp_path, "tasks.yaml", GOOD + "- " + record + "\n")
    assert len(found) == 1, found
    assert found[0].startswith(f"{tmp_path / 'tasks.yaml'}:6:")
    assert expected in found[0]


def test_duplicate_ids_point_at_the_first_definition(tmp_path: Path) -> None:
    found = problems_of(tmp_path, "tasks.yaml", GOOD + GOOD)
    assert found == [
        f"{tmp_path / 'tasks.yaml'}:6: task 'good-1': field 'id': duplicate id, "
        f"first defined at {tmp_path / 'tasks.yaml'}:1"
    ]


def test_jsonl_lines_are_located(tmp_path: Path) -> None:
    good = {
        "id": "a",
        "domain": "math",
        "prompt": "1+1?",
        "verifier": {"type": "math", "answer": "2", "kind": "integer"},
    }
    bad = dict(good, id="b", difficulty="impossible")
    text = json.dumps(good) + "\n\n" + json.dumps(bad) + "\n"
    found = problems_of(tmp_path, "tasks.jsonl", text)
    assert len(found) == 1 and found[0].startswith(f"{tmp_path / 'tasks.jsonl'}:3: task 'b':")
    assert "field 'difficulty'" in found[0] and "allowed: easy, medium, hard" in found[0]


@pytest.mark.slow
def test_validate_cli_exits_2_with_one_line_per_problem(tmp_path: Path) -> None:
    path = tmp_path / "bad.yaml"
    path.write_text(
        GOOD + GOOD + "- id: x\n  domain: nope\n  prompt: hi\n  verifier: {type: math}\n"
    )
    done = run_cli("tasks", "validate", str(path))
    assert done.returncode == 2
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 2 and all(line.startswith(f"{path}:") for line in lines)
    assert run_cli("tasks", "validate").returncode == 0  # the shipped pool is valid


@pytest.mark.slow
def test_list_json_counts_templates_and_hides_verifiers() -> None:
    done = run_cli("tasks", "list", "--domain", "math", "--json")
    assert done.returncode == 0, done.stderr
    listing = json.loads(done.stdout)
    (count,) = listing["counts"]
    assert count["domain"] == "math" and count["tasks"] >= 171 and count["templates"] >= 40
    assert all("verifier" not in task for task in listing["tasks"])


@pytest.mark.slow
def test_generate_cli_reproduces_the_shipped_pool(tmp_path: Path) -> None:
    out = tmp_path / "math.jsonl"
    shipped = [json.loads(line) for line in (POOL_DIR / "math.jsonl").read_text().splitlines()]
    per_template = max(t["variant"] for t in shipped) + 1
    done = run_cli(
        "tasks",
        "generate",
        "--domain",
        "math",
        "--variants",
        str(per_template),
        "--seed",
        "0",
        "--out",
        str(out),
    )
    assert done.returncode == 0, done.stderr
    generated = [json.loads(line) for line in out.read_text().splitlines()]
    assert generated == shipped
    assert len(generate("math", 2, 3, 0)) == 6


@pytest.mark.slow
def test_generate_rejects_unknown_domain() -> None:
    done = run_cli("tasks", "generate", "--domain", "poetry")
    assert done.returncode == 2 and "unknown domain" in done.stderr
