"""The persistence domain: reading the final state, partial scores, config problems, the pool."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest

from slopmark.evals.generators import generate, templates
from slopmark.evals.generators.persistence import VARIANTS
from slopmark.evals.generators.persistence.machine import STEPS
from slopmark.evals.task import Task
from slopmark.evals.taskfile import load_tasks, records, to_task
from slopmark.evals.verifiers.persistence import PersistenceVerifier, last_line

VERIFIER = PersistenceVerifier()
POOL = Path(__file__).parents[2] / "src/slopmark/evals/pool"


def check(output: str, fmt: str, expected: Any) -> Any:
    return VERIFIER.verify({"type": "persistence", "format": fmt, "expected": expected}, output, [])


def test_the_state_is_read_from_the_last_non_empty_line_outside_code_fences() -> None:
    assert last_line("[1]\n\n**[4, 2]**  \n\n```\n") == "[4, 2]"
    assert last_line("  \n```\n```") is None


# --- formats ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("output", "passed", "score"),
    [
        ("[4, 2, 7, 1]", True, 1.0),
        ("Tracing...\npush 4 -> [4]\n\nFinal stack (bottom to top): [4, 2, 7, 1]", True, 1.0),
        ("`[4,2,7,1]`", True, 1.0),
        ("Stack: 4, 2, 7, 1.", True, 1.0),
        ("```\n[4, 2, 7, 1]\n```", True, 1.0),
        ("4 2 7 1", True, 1.0),
        ("[4, 2, 7]", False, 0.75),
        ("[1, 7, 2, 4]", False, 0.0),
        ("[4, 2, 7, 1, 1]", False, 0.8),
        ("[4, 2, 7, 1]\nHope this helps!", False, 0.0),
        ("I'm sorry, I can't keep track of that.", False, 0.0),
    ],
)
def test_sequences_compare_position_by_position(output: str, passed: bool, score: float) -> None:
    verdict = check(output, "sequence", ["4", "2", "7", "1"])
    assert (verdict.passed, verdict.score) == (passed, pytest.approx(score))


@pytest.mark.parametrize("output", ["[]", "Final stack: empty", "queue: (empty)", "[ ]"])
def test_an_empty_sequence_can_be_written_several_ways(output: str) -> None:
    assert check(output, "sequence", []).passed


def test_a_sequence_check_names_the_position_and_both_items() -> None:
    verdict = check("[4, 9, 7, 1]", "sequence", ["4", "2", "7", "1"])
    failed = [c for c in verdict.checks if not c.passed]
    assert [(c.name, c.detail) for c in failed] == [("item 2", "expected 2, got 9")]


@pytest.mark.parametrize(
    ("output", "passed", "score"),
    [
        ("[6, 1, 4]", True, 1.0),
        ("Lamps on: 1, 4, 6", True, 1.0),
        ("[1, 4]", False, 2 / 3),
        ("[1, 4, 6, 7]", False, 3 / 4),
        ("[]", False, 0.0),
    ],
)
def test_sets_ignore_order_and_score_by_overlap(output: str, passed: bool, score: float) -> None:
    verdict = check(output, "set", ["1", "4", "6"])
    assert (verdict.passed, verdict.score) == (passed, pytest.approx(score))


@pytest.mark.parametrize(
    ("output", "passed", "score"),
    [
        ("A=14, B=5, C=7", True, 1.0),
        ("Final state: A = 14; B = 5; C = 7", True, 1.0),
        ("a: 14 | b: 5 | c: 7", True, 1.0),
        ("**A=14**, **B=5**, **C=7**", True, 1.0),
        ("C=7, A=14, B=5", True, 1.0),
        ("A=14, B=6, C=7", False, 2 / 3),
        ("A=14, C=7", False, 2 / 3),
        ("A=14, B=5, C=7\n\nLet me know if you need the steps.", False, 0.0),
        ("", False, 0.0),
    ],
)
def test_mappings_score_the_share_of_keys_right(output: str, passed: bool, score: float) -> None:
    verdict = check(output, "mapping", {"A": "14", "B": "5", "C": "7"})
    assert (verdict.passed, verdict.score) == (passed, pytest.approx(score))


@pytest.mark.parametrize(
    ("output", "expected", "passed"),
    [
        ("Ana=$10, Ben=165.00", {"Ana": "10", "Ben": "165"}, True),
        ("balance=1,250, fees=45", {"balance": "1250", "fees": "45"}, True),
        ("x=-2, y=-1, facing=w", {"x": "-2", "y": "-1", "facing": "W"}, True),
        ("x=-2, y=-1, facing=West", {"x": "-2", "y": "-1", "facing": "W"}, False),
        ("spot1=K1, spot2=empty", {"spot1": "K1", "spot2": "empty"}, True),
    ],
)
def test_mapping_values_compare_numbers_by_value_and_words_ignoring_case(
    output: str, expected: dict[str, str], passed: bool
) -> None:
    assert check(output, "mapping", expected).passed is passed


def test_a_missing_key_is_reported_as_missing() -> None:
    verdict = check("A=14", "mapping", {"A": "14", "B": "5"})
    assert [c.detail for c in verdict.checks if c.name == "B"] == ["missing; expected 5"]


@pytest.mark.parametrize(
    ("output", "passed"),
    [
        ('"EDRAGGIB"', True),
        ('Final string: "EDRAGGIB"', True),
        ("EDRAGGIB", True),
        ('"edraggib"', False),
        ('"EDRAGGI"', False),
    ],
)
def test_text_is_the_quoted_part_and_case_matters(output: str, passed: bool) -> None:
    assert check(output, "text", "EDRAGGIB").passed is passed


@pytest.mark.parametrize("output", ["\x00" * 10, "[" * 100_000, "=" * 100_000, "a=" * 50_000])
def test_garbage_and_huge_output_fail_without_crashing(output: str) -> None:
    assert not check(output, "mapping", {"a": "1", "b": "2"}).passed
    assert not check(output, "sequence", ["1"]).passed


# --- config problems ------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("config", "message"),
    [
        ({"expected": [1]}, "'format' is None; allowed: sequence, set, mapping, text"),
        ({"format": "list", "expected": [1]}, "'format' is 'list'"),
        ({"format": "mapping", "expected": ["1"]}, "format 'mapping' needs a dict"),
        ({"format": "text", "expected": 3}, "format 'text' needs a str"),
        ({"format": "mapping", "expected": {}}, "needs at least one key"),
        ({"format": "sequence", "expected": [[1]]}, "strings or numbers"),
        ({"format": "set", "expected": [], "expect": 1}, "unknown field 'expect'"),
    ],
)
def test_problems_name_the_field_the_value_and_what_is_allowed(
    config: dict[str, Any], message: str
) -> None:
    found = VERIFIER.problems({"type": "persistence", **config})
    assert any(message in problem for problem in found), found


# --- the pool ---------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def pool() -> list[Task]:
    return generate("persistence", None, VARIANTS, 0)


def test_the_committed_pool_is_what_the_generator_makes(pool: list[Task]) -> None:
    assert [to_task(record) for _, record in records(POOL / "persistence.jsonl")] == pool


def test_pool_size_templates_formats_and_step_counts(pool: list[Task]) -> None:
    assert len(templates("persistence")) >= 40
    assert len({task.turns for task in pool}) == len(pool) >= 171
    assert {task.verifier["format"] for task in pool} == {"sequence", "set", "mapping", "text"}
    for task in pool:
        steps = len(re.findall(r"^\d+\. ", task.turns[0], re.MULTILINE))
        low, high = STEPS[task.difficulty]
        assert low <= steps <= high, task.id
        assert VERIFIER.problems(task.verifier) == [], task.id


def written(config: dict[str, Any]) -> str:
    """The final line a correct answer writes, in the format the prompt asks for."""
    expected = config["expected"]
    if config["format"] == "mapping":
        return ", ".join(f"{key}={value}" for key, value in expected.items())
    if config["format"] == "text":
        return f'"{expected}"'
    return "[" + ", ".join(expected) + "]"


def broken(config: dict[str, Any]) -> dict[str, Any]:
    """``config`` with one component of its state wrong."""
    expected = config["expected"]
    if config["format"] == "mapping":
        first = next(iter(expected))
        return {**config, "expected": {**expected, first: expected[first] + "9"}}
    if config["format"] == "text":
        return {**config, "expected": expected + "q"}
    return {**config, "expected": [*expected, "zz"]}


def test_every_task_passes_its_state_and_fails_one_wrong_component(pool: list[Task]) -> None:
    for task in pool:
        config = dict(task.verifier)
        assert VERIFIER.verify(config, f"Tracking...\n\n{written(config)}", []).passed, task.id
        wrong = VERIFIER.verify(config, written(broken(config)), [])
        assert not wrong.passed and wrong.score < 1, task.id


def test_the_seed_file_loads_and_its_states_pass() -> None:
    tasks, problems = load_tasks([POOL / "seed" / "persistence.yaml"])
    assert [str(p) for p in problems] == []
    assert len(tasks) >= 10 and all(t.source == "seed" and t.domain == "persistence" for t in tasks)
    for task in tasks:
        assert VERIFIER.verify(task.verifier, written(dict(task.verifier)), []).passed, task.id
