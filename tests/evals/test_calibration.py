"""The calibration domain: the stated confidence, each answer kind, Brier scores, the pool."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from slopmark.evals.answers import format_number, parse_number
from slopmark.evals.generators import generate, templates
from slopmark.evals.generators.calibration import VARIANTS
from slopmark.evals.task import Task
from slopmark.evals.taskfile import load_tasks, records, to_task
from slopmark.evals.verifiers.calibration import (
    CalibrationVerifier,
    stated_answer,
    stated_confidence,
)

VERIFIER = CalibrationVerifier()
POOL = Path(__file__).parents[2] / "src/slopmark/evals/pool"
WEEKDAYS = ["Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday"]


def check(output: str, answer: Any, kind: str, **extra: Any) -> Any:
    config = {"type": "calibration", "answer": answer, "kind": kind, **extra}
    return VERIFIER.verify(config, output, [])


# --- the stated confidence -------------------------------------------------------------


@pytest.mark.parametrize(
    ("output", "probability"),
    [
        ("Answer: 3\nConfidence: 80%", 0.8),
        ("Answer: 3\nConfidence: 80", 0.8),
        ("Answer: 3\nConfidence: 0.8", 0.8),
        ("Answer: 3\n**Confidence:** 85 %", 0.85),
        ("Answer: 3 (confidence level: 72 percent)", 0.72),
        ("Answer: 3\nConfidence: 0%", 0.0),
        ("Answer: 3\nConfidence: 1", 0.01),
        ("Confidence: 10%\nAnswer: 3\nConfidence: 90%", 0.9),
    ],
)
def test_the_last_stated_confidence_is_read_as_a_probability(
    output: str, probability: float
) -> None:
    assert stated_confidence(output)[0] == pytest.approx(probability)


@pytest.mark.parametrize(
    ("output", "why"),
    [
        ("Answer: 3", "no 'Confidence: N%'"),
        ("Answer: 3\nConfidence: high", "no 'Confidence: N%'"),
        ("Answer: 3\nConfidence: 150%", "outside 0–100%"),
        ("", "no 'Confidence: N%'"),
    ],
)
def test_a_missing_or_impossible_confidence_is_none_and_fails_its_check(
    output: str, why: str
) -> None:
    probability, detail = stated_confidence(output)
    assert probability is None and why in detail
    verdict = check(output, "3", "integer")
    assert verdict.extra["confidence"] is None and verdict.score == 0
    assert [c.passed for c in verdict.checks if c.name == "confidence"] == [False]


def test_the_answer_ignores_the_confidence_line_and_tail() -> None:
    outputs = ["Answer: 42\nConfidence: 90%", "42\nConfidence: 90%", "Answer: 42, confidence 90%"]
    for output in outputs:
        answer = stated_answer(output)
        assert answer is not None and answer.text == "42"


# --- Brier scores ----------------------------------------------------------------------


@pytest.mark.parametrize(
    ("output", "passed", "score", "confidence"),
    [
        ("Answer: 3\nConfidence: 90%", True, 0.99, 0.9),
        ("Answer: 4\nConfidence: 90%", False, 0.19, 0.9),
        ("Answer: 4\nConfidence: 10%", False, 0.99, 0.1),
        ("Answer: 3\nConfidence: 50%", True, 0.75, 0.5),
        ("Answer: 3", True, 0.0, None),
    ],
)
def test_score_is_one_minus_the_squared_error_of_the_confidence(
    output: str, passed: bool, score: float, confidence: float | None
) -> None:
    verdict = check(output, "3", "integer")
    assert (verdict.passed, verdict.score) == (passed, pytest.approx(score))
    assert verdict.extra == {"confidence": confidence, "correct": passed}


# --- answer kinds ----------------------------------------------------------------------


@pytest.mark.parametrize(
    ("output", "passed"),
    [
        ("Answer: 1,024\nConfidence: 70%", True),
        ("**Answer:** 1024.\n**Confidence:** 70%", True),
        ("The answer is 1024.\nConfidence: 70%", True),
        ("Answer: 1023\nConfidence: 70%", False),
        ("I cannot calculate that.\nConfidence: 0%", False),
    ],
)
def test_integer_answers(output: str, passed: bool) -> None:
    assert check(output, "1024", "integer").passed is passed


@pytest.mark.parametrize(
    ("output", "passed"),
    [("Answer: 7.62\nConfidence: 60%", True), ("Answer: 381/50\nConfidence: 60%", True),
     ("Answer: 7.6\nConfidence: 60%", False)],
)  # fmt: skip
def test_number_answers_within_tolerance(output: str, passed: bool) -> None:
    assert check(output, "381/50", "number").passed is passed


@pytest.mark.parametrize(
    ("output", "passed"),
    [
        ('Answer: "Canberra"\nConfidence: 90%', True),
        ("Answer: canberra.\nConfidence: 90%", True),
        ("Answer: Canberra City\nConfidence: 90%", True),
        ("Answer: Sydney\nConfidence: 90%", False),
        ("Answer: Canberra or Sydney\nConfidence: 50%", False),
    ],
)
def test_text_answers_match_the_gold_or_an_alias(output: str, passed: bool) -> None:
    assert check(output, "Canberra", "text", aliases=["Canberra City"]).passed is passed


@pytest.mark.parametrize(
    ("output", "passed"),
    [
        ("Answer: Saturday\nConfidence: 60%", True),
        ("Answer: It was a saturday.\nConfidence: 60%", True),
        ("Answer: Saturday or Sunday\nConfidence: 50%", False),
        ("Answer: Friday\nConfidence: 60%", False),
        ("Answer: the weekend\nConfidence: 60%", False),
    ],
)
def test_a_choice_answer_names_exactly_one_choice(output: str, passed: bool) -> None:
    assert check(output, "Saturday", "choice", choices=WEEKDAYS).passed is passed


def test_choices_match_whole_words_only() -> None:
    choices = ["9.11", "9.9"]
    assert check("Answer: 9.9\nConfidence: 80%", "9.9", "choice", choices=choices).passed
    assert not check("Answer: 9.11\nConfidence: 80%", "9.9", "choice", choices=choices).passed


@pytest.mark.parametrize(
    ("output", "passed"),
    [
        ("Answer: -3, 4, 10\nConfidence: 95%", True),
        ("Answer: [-3, 4, 10]\nConfidence: 95%", True),
        ("Answer: -3 4 10\nConfidence: 95%", True),
        ("Answer: 4, -3, 10\nConfidence: 95%", False),
        ("Answer: -3, 4\nConfidence: 95%", False),
    ],
)
def test_list_answers_keep_order(output: str, passed: bool) -> None:
    assert check(output, ["-3", "4", "10"], "list").passed is passed


@pytest.mark.parametrize("output", ["\x00" * 50, "Confidence:" * 20_000, "Answer: " * 20_000])
def test_garbage_output_fails_without_crashing(output: str) -> None:
    assert not check(output, "3", "integer").passed


# --- config problems -------------------------------------------------------------------


@pytest.mark.parametrize(
    ("config", "message"),
    [
        ({"answer": "3"}, "'kind' is None; allowed: integer, number, text, choice, list"),
        ({"kind": "integer", "answer": "many"}, "needs a number"),
        ({"kind": "text", "answer": ""}, "non-empty string"),
        ({"kind": "list", "answer": "1, 2"}, "needs a non-empty list"),
        ({"kind": "choice", "answer": "yes"}, "needs a list of at least 2 options"),
        ({"kind": "choice", "answer": "no", "choices": ["yes", "nah"]}, "not one of the choices"),
        ({"kind": "text", "answer": "x", "choices": ["x", "y"]}, "only for kind 'choice'"),
        ({"kind": "text", "answer": "x", "aliases": "y"}, "'aliases' is 'y'"),
        ({"kind": "number", "answer": "1", "tolerance": 2}, "'tolerance' is 2"),
        ({"kind": "text", "answer": "x", "alias": ["y"]}, "unknown field 'alias'"),
    ],
)
def test_problems_name_the_field_the_value_and_what_is_allowed(
    config: dict[str, Any], message: str
) -> None:
    found = VERIFIER.problems({"type": "calibration", **config})
    assert any(message in problem for problem in found), found


# --- the pool --------------------------------------------------------------------------


@pytest.fixture(scope="module")
def pool() -> list[Task]:
    return generate("calibration", None, VARIANTS, 0)


def test_the_committed_pool_is_what_the_generator_makes(pool: list[Task]) -> None:
    assert [to_task(record) for _, record in records(POOL / "calibration.jsonl")] == pool


def test_pool_size_templates_and_spread_of_difficulty(pool: list[Task]) -> None:
    assert len(templates("calibration")) >= 40
    assert len({task.turns for task in pool}) == len(pool) >= 171
    for level in ("easy", "medium", "hard"):
        assert sum(task.difficulty == level for task in pool) >= 40, level
    for task in pool:
        assert task.turns[0].endswith("how likely it is that your answer is correct)"), task.id
        assert VERIFIER.problems(task.verifier) == [], task.id


def written(answer: Any) -> str:
    return ", ".join(answer) if isinstance(answer, list) else str(answer)


def wrong(config: dict[str, Any]) -> str:
    """An answer to ``config`` that is not right."""
    gold = config["answer"]
    if config["kind"] == "choice":
        return next(c for c in config["choices"] if c != gold)
    if config["kind"] == "list":
        return written([*gold, gold[0]])
    number = parse_number(gold)
    return format_number(number.value + 1) if number else gold + "q"


def test_every_gold_answer_is_right_and_a_wrong_one_is_not(pool: list[Task]) -> None:
    for task in pool:
        config = dict(task.verifier)
        right = VERIFIER.verify(config, f"Answer: {written(config['answer'])}\nConfidence: 80%", [])
        assert right.passed and right.score == pytest.approx(0.96), task.id
        miss = VERIFIER.verify(config, f"Answer: {wrong(config)}\nConfidence: 80%", [])
        assert not miss.passed and miss.score == pytest.approx(0.36), task.id


def test_the_seed_file_loads_and_its_gold_answers_pass() -> None:
    tasks, problems = load_tasks([POOL / "seed" / "calibration.yaml"])
    assert [str(p) for p in problems] == []
    assert len(tasks) >= 10 and all(t.source == "seed" and t.domain == "calibration" for t in tasks)
    for task in tasks:
        output = f"Answer: {written(task.verifier['answer'])}\nConfidence: 75%"
        assert VERIFIER.verify(task.verifier, output, []).passed, task.id
