"""The math domain: answer extraction, every answer kind, SymPy's time limit, the pool."""

from __future__ import annotations

import time
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest

from slopmark.evals import symbolic
from slopmark.evals.answers import final_answer, format_number, math_part, parse_number
from slopmark.evals.generators import generate, templates
from slopmark.evals.generators.math import VARIANTS
from slopmark.evals.task import Task
from slopmark.evals.taskfile import load_tasks, records, to_task
from slopmark.evals.verifiers.math import MathVerifier

VERIFIER = MathVerifier()
POOL = Path(__file__).parents[2] / "src/slopmark/evals/pool"


def check(output: str, answer: Any, kind: str, **extra: Any) -> Any:
    return VERIFIER.verify({"type": "math", "answer": answer, "kind": kind, **extra}, output, [])


# --- finding the final answer ------------------------------------------------------


@pytest.mark.parametrize(
    ("output", "text", "source"),
    [
        ("Work...\nAnswer: 1,024", "1,024", "marker"),
        ("**Final answer:** 42.", "42", "marker"),
        ("The answer is 7", "7", "marker"),
        ("Answer:\n\n  -3/4\n", "-3/4", "marker"),
        ("so $\\boxed{\\frac{3}{4}}$ and Answer: 9", "\\frac{3}{4}", "boxed"),
        ("x = 3\n\n- x = 17\n", "x = 17", "last line"),
        ("```\n12\n```", "12", "last line"),
        ("x**2 + 1", "x**2 + 1", "last line"),
    ],
)
def test_the_final_answer_is_boxed_then_marked_then_the_last_line(
    output: str, text: str, source: str
) -> None:
    answer = final_answer(output)
    assert answer is not None and (answer.text, answer.source) == (text, source)


@pytest.mark.parametrize("output", ["", "   \n\n ", "```\n```"])
def test_blank_output_has_no_final_answer(output: str) -> None:
    assert final_answer(output) is None


@pytest.mark.parametrize(
    ("text", "value", "percent"),
    [
        ("1,024", Fraction(1024), False),
        ("-3/4", Fraction(-3, 4), False),
        ("\\frac{3}{4}", Fraction(3, 4), False),
        ("12.5%", Fraction(25, 2), True),
        ("$7", Fraction(7), False),
        ("1.5e3", Fraction(1500), False),
        ("\u22125", Fraction(-5), False),
        ("three", Fraction(3), False),
    ],
)
def test_numbers_are_read_as_people_write_them(text: str, value: Fraction, percent: bool) -> None:
    number = parse_number(text)
    assert number is not None and (number.value, number.percent) == (value, percent)


@pytest.mark.parametrize("text", ["1,2,3", "x", "", "3 apples", "1/0"])
def test_text_that_is_not_exactly_one_number_is_none(text: str) -> None:
    assert parse_number(text) is None


@pytest.mark.parametrize(
    ("text", "math"),
    [
        ("The derivative is 6x + 2", "6x + 2"),
        ("6x + 2 is the derivative", "6x + 2"),
        ("f'(x) = 3x^2 + 2 (by the power rule)", "3x^2 + 2"),
        ("5\\sqrt{2}", "5sqrt(2)"),
        ("x^2 + xy + y^2", "x^2 + xy + y^2"),
    ],
)
def test_the_math_part_drops_the_prose_around_it(text: str, math: str) -> None:
    assert math_part(text) == math


def test_extraction_of_huge_output_is_fast() -> None:
    start = time.monotonic()
    for output in ["(" * 200_000, "1" * 200_000, "Answer: " + "x(" * 50_000, "\\frac{" * 50_000]:
        check(output, "1", "integer")
    assert time.monotonic() - start < 2


# --- the kinds -----------------------------------------------------------------------


@pytest.mark.parametrize(
    ("output", "passed"),
    [
        ("1,024", True),
        ("Answer: 1024.", True),
        ("2^10 = 1024", True),
        ("**Answer:** $1024$", True),
        ("Answer: 1024.0", True),
        ("After 10 doublings there are 1024 cells.", True),
        ("Answer: 1,025", False),
        ("Answer: 1024.5", False),
        ("I can't help with that.", False),
        ("", False),
    ],
)
def test_integer_answers_match_exactly(output: str, passed: bool) -> None:
    assert check(output, "1024", "integer").passed is passed


@pytest.mark.parametrize(
    ("output", "answer", "passed"),
    [
        ("Answer: 0.75", "3/4", True),
        ("Answer: \\frac{6}{8}", "3/4", True),
        ("Answer: 75%", "3/4", True),
        ("Answer: 0.7", "3/4", False),
        ("Answer: 0.3333333", "1/3", True),
        ("Answer: 0.33", "1/3", False),
        ("Answer: 25π", "25*pi", True),
        ("Answer: \\frac{961\\pi}{4}", "961*pi/4", True),
        ("Answer: 78.54", "25*pi", False),
        ("Answer: 7.5 metres", "15/2", True),
        ("Answer: 5\\sqrt{2}", "sqrt(50)", True),
    ],
)
@pytest.mark.slow
def test_number_answers_compare_by_value(output: str, answer: str, passed: bool) -> None:
    assert check(output, answer, "number").passed is passed


@pytest.mark.parametrize(
    ("output", "passed"),
    [
        ("Answer: 6x + 2", True),
        ("f'(x) = 2 + 6*x", True),
        ("Answer: 2(3x + 1)", True),
        ("Answer: 6x^1 + 2x^0", True),
        ("The derivative is 6x + 3", False),
        ("Answer: 6x", False),
        ("Answer: __import__('os').system('true')", False),
        ("I don't know.", False),
    ],
)
def test_expression_answers_are_compared_symbolically(output: str, passed: bool) -> None:
    verdict = check(output, "6*x + 2", "expression")
    assert verdict.passed is passed and not verdict.ambiguous


def test_form_factored_rejects_an_equal_expanded_answer() -> None:
    gold = "(x + 2)*(x + 3)"
    assert check("Answer: (x+3)(x+2)", gold, "expression", form="factored").passed
    verdict = check("Answer: x^2 + 5x + 6", gold, "expression", form="factored")
    assert not verdict.passed and "not factored" in verdict.checks[-1].detail


def test_form_expanded_rejects_an_unsimplified_answer() -> None:
    assert check("Answer: x + 5", "x + 5", "expression", form="expanded").passed
    verdict = check("Answer: (x^2 + 13x + 40)/(x + 8)", "x + 5", "expression", form="expanded")
    assert not verdict.passed and "not expanded" in verdict.checks[-1].detail


@pytest.mark.parametrize(
    ("output", "passed", "score"),
    [
        ("Answer: x = 2 or x = -3", True, 1.0),
        ("Answer: {-3, 2}", True, 1.0),
        ("x = -3, x = 2", True, 1.0),
        ("Answer: x = 2", False, 0.5),
        ("Answer: 2, -3, 5", False, 2 / 3),
        ("No real solutions.", False, 0.0),
    ],
)
def test_set_answers_ignore_order_and_score_the_share_found(
    output: str, passed: bool, score: float
) -> None:
    verdict = check(output, ["2", "-3"], "set")
    assert (verdict.passed, verdict.score) == (passed, pytest.approx(score))


@pytest.mark.parametrize(
    ("output", "passed", "score"),
    [
        ("Answer: x = 3, y = -2", True, 1.0),
        ("Answer: y = -2, x = 3", True, 1.0),
        ("Answer: (3, -2)", True, 1.0),
        ("Answer: (-2, 3)", False, 0.0),
        ("Answer: x = 3", False, 0.5),
    ],
)
def test_tuple_answers_keep_order_unless_named(output: str, passed: bool, score: float) -> None:
    verdict = check(output, ["3", "-2"], "tuple", names=["x", "y"])
    assert (verdict.passed, verdict.score) == (passed, score)


def test_a_failing_verdict_says_what_was_found_and_why() -> None:
    verdict = check("Answer: 12", "13", "integer")
    found, value = verdict.checks
    assert (found.name, found.passed) == ("final answer", True)
    assert (value.name, value.passed) == ("value", False)
    assert "12" in found.detail and value.detail == "12 ≠ 13"


# --- SymPy in a worker with a hard time limit -----------------------------------------


@pytest.mark.parametrize(
    "text",
    ["__import__('os')", "x.real", "'x'", "lambda: 1", "x if y else z", "[x]", "x; y", "a_b"],
)
def test_only_plain_math_reaches_the_parser(text: str) -> None:
    assert symbolic.unsafe_reason(text) is not None
    assert symbolic.compare(text, "1").method == "parse"


@pytest.mark.slow
def test_a_slow_expression_times_out_within_three_seconds_and_is_ambiguous() -> None:
    symbolic.compare("x", "x")  # a warm worker: start-up is not part of the limit
    start = time.monotonic()
    verdict = check("Answer: 2^(3^20) x", "x + 1", "expression")
    assert time.monotonic() - start < 3
    assert verdict.ambiguous and not verdict.passed and verdict.score == 0
    assert symbolic.compare("2x", "x + x").outcome == "equal", "the killed worker was replaced"


@pytest.mark.slow
def test_sampling_decides_when_simplification_runs_out_of_time() -> None:
    slow = "(x+y+z+w)^30*(x-y)"
    same = "(x+y+z+w)^29*(x^2 - y^2 + x z - y z + w x - w y)"
    found = symbolic.compare(slow, same, timeout=1.0)
    assert (found.outcome, found.method) == ("equal", "numeric")
    assert "timed out" in found.detail
    assert symbolic.compare(slow, same + " + 1", timeout=1.0).outcome == "different"


def test_decide_prefers_a_proof_then_sampling_then_unknown() -> None:
    numeric = ("numeric", "equal", "sampled")
    proof = ("symbolic", "equal", "proved")
    assert symbolic.decide([numeric, proof, ("done",)]).method == "symbolic"
    assert symbolic.decide([numeric]).method == "numeric"
    assert symbolic.decide([]).outcome == "unknown"
    assert symbolic.decide([("error", "unknown", "bad"), ("done",)]).method == "parse"


# --- config problems -------------------------------------------------------------------


@pytest.mark.parametrize(
    ("config", "message"),
    [
        ({"answer": "1"}, "'kind' is None; allowed: integer"),
        ({"kind": "integer", "answer": "1.5"}, "needs an integer"),
        ({"kind": "integer", "answer": 7}, "non-empty string"),
        ({"kind": "expression", "answer": "os.system(1)"}, "not plain math"),
        ({"kind": "set", "answer": "1, 2"}, "non-empty list"),
        ({"kind": "number", "answer": "1", "tolerance": -1}, "'tolerance' is -1"),
        ({"kind": "number", "answer": "1", "form": "factored"}, "'form' is 'factored'"),
        ({"kind": "tuple", "answer": ["1", "2"], "names": ["x"]}, "one variable name per"),
        ({"kind": "integer", "answer": "1", "answr": "2"}, "unknown field 'answr'"),
    ],
)
def test_problems_name_the_field_the_value_and_what_is_allowed(
    config: dict[str, Any], message: str
) -> None:
    found = VERIFIER.problems({"type": "math", **config})
    assert any(message in problem for problem in found), found


# --- the pool -----------------------------------------------------------------------------


@pytest.fixture(scope="module")
def pool() -> list[Task]:
    return generate("math", None, VARIANTS, 0)


def test_the_committed_pool_is_what_the_generator_makes(pool: list[Task]) -> None:
    assert [to_task(record) for _, record in records(POOL / "math.jsonl")] == pool


def test_pool_size_templates_and_kinds(pool: list[Task]) -> None:
    assert len(templates("math")) >= 40
    assert len({task.turns for task in pool}) == len(pool) >= 171
    kinds = {task.verifier["kind"] for task in pool}
    assert kinds == {"integer", "number", "expression", "set", "tuple"}
    assert {task.difficulty for task in pool} == {"easy", "medium", "hard"}
    assert all(VERIFIER.problems(task.verifier) == [] for task in pool)


def _written(gold: Any) -> str:
    return ", ".join(gold) if isinstance(gold, list) else str(gold)


def _wrong(gold: Any) -> Any:
    if isinstance(gold, list):
        return [_wrong(gold[0]), *gold[1:]]
    number = parse_number(gold)
    return format_number(number.value + 1) if number else f"({gold}) + 1"


@pytest.mark.slow
def test_every_gold_answer_passes_and_a_wrong_one_fails(pool: list[Task]) -> None:
    for task in pool:
        config = task.verifier
        assert VERIFIER.verify(config, f"Answer: {_written(config['answer'])}", []).passed, task.id
        wrong = VERIFIER.verify(config, f"Answer: {_written(_wrong(config['answer']))}", [])
        assert not wrong.passed and not wrong.ambiguous, task.id


def test_the_seed_file_loads_and_its_gold_answers_pass() -> None:
    tasks, problems = load_tasks([POOL / "seed" / "math.yaml"])
    assert [str(p) for p in problems] == []
    assert len(tasks) >= 10 and all(t.source == "seed" and t.domain == "math" for t in tasks)
    for task in tasks:
        gold = task.verifier["answer"]
        assert VERIFIER.verify(task.verifier, f"Answer: {_written(gold)}", []).passed, task.id


def test_age_problems_are_about_two_different_people(pool: list[Task]) -> None:
    import random
    import re

    make = templates("math")["ages"]
    questions = [make(random.Random(seed)).turns[0] for seed in range(400)]
    questions += [task.turns[0] for task in pool if task.template_id == "ages"]
    for question in questions:
        found = re.match(r"(\w+) is \d+ times as old as (\w+)\.", question)
        assert found is not None, question
        assert found.group(1) != found.group(2), question
