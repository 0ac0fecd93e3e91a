"""The json domain: parsing and fences, schema, the invariant language, function calls, the pool."""

from __future__ import annotations

import copy
import json
import random
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from slopmark.evals.generators import generate, templates
from slopmark.evals.generators.json_output import CASES, VARIANTS
from slopmark.evals.task import Task
from slopmark.evals.taskfile import load_tasks, records, to_task
from slopmark.evals.verifiers.json_output import JsonVerifier, resolve

VERIFIER = JsonVerifier()
POOL = Path(__file__).parents[2] / "src/slopmark/evals/pool"
ITEMS = {
    "type": "json",
    "schema": {
        "type": "object",
        "required": ["items"],
        "properties": {"items": {"type": "array", "items": {"type": "object"}}},
    },
}
DOC = {
    "start": "09:00",
    "end": "17:30",
    "budget": 50,
    "total": 100,
    "items": [
        {"id": "a", "share": 50, "price": 20, "tags": ["x"]},
        {"id": "b", "share": 30.5, "price": 30, "tags": []},
        {"id": "c", "share": 19.5, "price": 10, "tags": ["y", "z"]},
    ],
    "refs": ["a", "c"],
    "hours": {"coding": 20, "meetings": 5},
}


def verdict(config: dict[str, Any], output: Any) -> Any:
    text = output if isinstance(output, str) else json.dumps(output)
    return VERIFIER.verify({"type": "json", **config}, text, [])


def check(invariant: dict[str, Any], document: Any = DOC) -> Any:
    result = verdict({"invariants": [invariant]}, document)
    return result.checks[1]


# --- parsing and fences ----------------------------------------------------------------


@pytest.mark.parametrize(
    "output",
    [
        '{"items": []}',
        '\n\n  {"items": []}  \n',
        '```json\n{"items": []}\n```',
        '```JSON\n{"items": []}```',
        '```\n{"items": [{"a": 1}]}\n```\n',
    ],
)
def test_bare_and_fenced_json_parse_when_fences_are_allowed(output: str) -> None:
    result = VERIFIER.verify(ITEMS, output, [])
    assert (result.passed, result.score) == (True, 1.0), result.checks
    assert result.extra["fenced"] is output.strip().startswith("```")


@pytest.mark.parametrize(
    ("output", "why"),
    [
        ("", "the output is empty"),
        ("   \n ", "the output is empty"),
        ("```json\n\n```", "the output is empty"),
        ('Here is the JSON:\n```json\n{"items": []}\n```', "not JSON: Expecting value"),
        ('{"items": []}\nLet me know if you need anything else!', "not JSON: Extra data"),
        ('```json\n{"items": []}\n```\nThis lists no items.', "not JSON"),
        ('```python\n{"items": []}\n```', "not JSON"),
        ("{'items': []}", "not JSON: Expecting property name"),
        ('{"items": [],}', "not JSON"),
        ('{"items": [NaN]}', "NaN is not valid JSON"),
        ('{"items": [], "items": [1]}', "duplicate key(s) 'items'"),
        ("[" * 5000 + "]" * 5000, "not JSON"),
        ('{"a":' * 150 + "1" + "}" * 150, "nested deeper than 100 levels"),
        ("I'm sorry, but I can't help with that.", "not JSON"),
        ("1" * 5000, "not JSON"),
    ],
)
def test_anything_but_one_json_value_is_a_parse_failure_scoring_zero(output: str, why: str) -> None:
    result = VERIFIER.verify(ITEMS, output, [])
    assert (result.passed, result.score) == (False, 0.0)
    assert [c.name for c in result.checks] == ["parse"]
    assert why in result.checks[0].detail


def test_rejected_fences_make_a_fenced_answer_unparsed() -> None:
    config = {**ITEMS, "fences": "reject"}
    assert VERIFIER.verify(config, '{"items": []}', []).passed
    result = VERIFIER.verify(config, '```json\n{"items": []}\n```', [])
    assert (result.score, result.extra["fenced"]) == (0.0, True)
    assert "wrapped in a ``` fence" in result.checks[0].detail


def test_huge_valid_output_is_checked_without_trouble() -> None:
    document = {"items": [{"id": str(i), "share": 1} for i in range(20_000)]}
    config = {
        "invariants": [{"unique": "/items/*/id"}, {"sum": "/items/*/share", "equals": 20_000}]
    }
    assert verdict(config, document).passed


# --- schema -------------------------------------------------------------------------


def test_schema_check_names_where_the_answer_breaks_the_schema() -> None:
    schema = {
        "type": "object",
        "required": ["name", "when"],
        "properties": {"name": {"type": "string"}, "when": {"type": "string", "format": "date"}},
        "additionalProperties": False,
    }
    assert verdict({"schema": schema}, {"name": "x", "when": "2025-02-28"}).passed
    result = verdict({"schema": schema}, {"name": 3, "when": "2025-02-30", "extra": 1})
    assert (result.passed, result.score) == (False, 0.5)
    detail = result.checks[1].detail
    assert "/: Additional properties are not allowed ('extra' was unexpected)" in detail
    assert (
        "/name: 3 is not of type 'string'" in detail
        and "/when: '2025-02-30' is not a 'date'" in detail
    )


def test_schema_errors_beyond_three_are_counted() -> None:
    schema = {"type": "array", "items": {"type": "integer"}}
    result = verdict({"schema": schema}, ["a", "b", "c", "d", "e"])
    assert result.checks[1].detail.endswith("(+2 more)")


# --- invariants -----------------------------------------------------------------------

INVARIANTS: list[tuple[dict[str, Any], bool, str]] = [
    ({"sum": "/items/*/share", "equals": 100}, True, "the sum of 3 value(s) is 100; expected 100"),
    ({"sum": "/items/*/share", "equals": 99}, False, "is 100; expected 99"),
    ({"sum": "/items/*/share", "equals": "/total"}, True, "expected 100"),
    ({"sum": "/items/*/price", "at_most": "/budget"}, False, "is 60; expected at most 50"),
    ({"sum": "/items/*/price", "at_least": 60}, True, "expected at least 60"),
    ({"sum": "/items/*/share", "equals": 100.4, "tolerance": 0.5}, True, "expected 100.4"),
    ({"sum": "/hours/*", "equals": 25}, True, "the sum of 2 value(s) is 25"),
    ({"sum": "/items/*/id", "equals": 1}, False, "/items/0/id is a string, not a number"),
    ({"sum": "/items/*/share", "equals": "/items"}, False, "'/items' does not lead to one number"),
    ({"count": "/items", "equals": 3}, True, "the count is 3"),
    ({"count": "/items/*/tags", "equals": 3}, True, "the count is 3"),
    ({"count": "/hours", "at_least": 3}, False, "the count is 2; expected at least 3"),
    ({"count": "/budget", "equals": 1}, False, "/budget is a number, so '*' matches nothing there"),
    ({"compare": ["/start", "<", "/end"]}, True, "holds for 1 pair(s)"),
    ({"compare": ["/end", "<=", "/start"]}, False, 'first /end = "17:30" vs /start = "09:00"'),
    ({"compare": ["/items/*/price", "<=", "/budget"]}, True, "holds for 3 pair(s)"),
    (
        {"compare": ["/items/*/price", ">", 15]},
        False,
        "1 of 3 pair(s) fail, first /items/2/price = 10",
    ),
    ({"compare": ["/items/*/share", "<", "/items/*/price"]}, False, "3 of 3 pair(s) fail"),
    ({"compare": ["/items/0/id", "==", {"value": "a"}]}, True, "holds"),
    ({"compare": ["/items/0/tags", "==", {"value": ["x"]}]}, True, "holds"),
    ({"compare": ["/total", "==", 100.0]}, True, "holds"),
    ({"compare": ["/total", "!=", "/budget"]}, True, "holds"),
    ({"compare": ["/start", "<", 10]}, False, 'first /start = "09:00" vs 10'),
    ({"compare": ["/nowhere", "==", 1]}, False, "/ has no key 'nowhere'"),
    ({"compare": ["/items/7/id", "==", 1]}, False, "/items has no element '7' (it has 3)"),
    ({"compare": ["/start/x", "==", 1]}, False, "/start is a string, not an array or object"),
    ({"unique": "/items/*/id"}, True, "3 distinct value(s)"),
    ({"unique": "/items/*/tags/*"}, True, "3 distinct value(s)"),
    ({"unique": "/refs/*"}, True, "2 distinct"),
    ({"unique": "/items/*/price"}, True, "3 distinct"),
    ({"unique": ""}, True, "1 distinct"),
    ({"sorted": "/items/*/id"}, True, "3 value(s) in order"),
    ({"sorted": "/items/*/share", "order": "desc", "strict": True}, True, "in order"),
    (
        {"sorted": "/items/*/price"},
        False,
        "out of order: /items/1/price = 30 then /items/2/price = 10",
    ),
    ({"sorted": "/items/*/tags/*"}, True, "in order"),
    ({"subset": "/refs/*", "of": "/items/*/id"}, True, "every value is among /items/*/id"),
    ({"subset": "/items/*/id", "of": "/refs/*"}, False, '/items/1/id = "b" is not among /refs/*'),
]


@pytest.mark.parametrize(("invariant", "holds", "detail"), INVARIANTS)
def test_each_invariant_kind_passes_and_fails_with_a_clear_detail(
    invariant: dict[str, Any], holds: bool, detail: str
) -> None:
    result = check(invariant)
    assert result.passed is holds, result
    assert detail in result.detail


def test_compare_pairs_matches_whose_wildcards_agree() -> None:
    document = {"rows": [{"a": 1, "b": 2}, {"a": 5, "b": 6}], "cap": 5}
    pairs = check({"compare": ["/rows/*/a", "<", "/rows/*/b"]}, document)
    assert pairs.name == "compare"
    assert pairs.detail == "compare /rows/*/a < /rows/*/b: holds for 2 pair(s)"
    assert not check({"compare": ["/rows/*/a", "<", "/cap"]}, document).passed
    assert check({"compare": ["/cap", "!=", "/rows/*/b"]}, document).detail.endswith(
        ": holds for 2 pair(s)"
    )


def test_order_needs_two_numbers_or_two_strings_and_booleans_are_not_numbers() -> None:
    assert not check({"compare": ["/a", "<", "/b"]}, {"a": "1", "b": 2}).passed
    assert not check({"compare": ["/a", "==", 1]}, {"a": True}).passed
    assert not check({"unique": "/*"}, [1, 1.0]).passed
    assert check({"unique": "/*"}, [1, True, "1"]).passed
    assert not check({"sum": "/*", "equals": 1}, [True]).passed


def test_pointer_escapes_reach_keys_with_slash_and_tilde() -> None:
    document = {"a/b": {"~c": 3}}
    assert [m.where for m in resolve(document, "/a~1b/~0c")] == ["/a~1b/~0c"]
    assert [m.where for m in resolve(document, "/*/*")] == ["/a~1b/~0c"]
    assert check({"compare": ["/a~1b/~0c", "==", 3]}, document).passed


def test_a_wildcard_over_an_empty_array_matches_nothing() -> None:
    document: dict[str, Any] = {"tasks": []}
    assert check({"unique": "/tasks/*/id"}, document).passed
    assert check({"count": "/tasks", "equals": 0}, document).passed
    assert not check({"compare": ["/tasks/*/a", "<", 1]}, document).passed  # nothing to compare


# --- function calls --------------------------------------------------------------------

WEATHER = {
    "name": "get_weather",
    "parameters": {
        "type": "object",
        "properties": {
            "city": {"type": "string"},
            "units": {"enum": ["celsius", "fahrenheit"]},
            "window": {"type": "object", "properties": {"days": {"type": "integer"}}},
        },
        "required": ["city"],
    },
}
CALL_NAMES = [
    "parse", "call shape", "call name", "required arguments", "unknown arguments", "argument types",
]  # fmt: skip


def failing(output: Any) -> set[str]:
    result = verdict({"function_call": WEATHER}, output)
    assert [c.name for c in result.checks] == CALL_NAMES or result.checks[0].name == "parse"
    return {c.name for c in result.checks if not c.passed}


@pytest.mark.parametrize(
    ("output", "failed"),
    [
        ({"name": "get_weather", "arguments": {"city": "Oslo"}}, set()),
        ({"name": "get_weather", "arguments": {"city": "Oslo", "window": {"days": 3}}}, set()),
        ({"name": "weather", "arguments": {"city": "Oslo"}}, {"call name"}),
        ({"name": "get_weather", "arguments": {"units": "celsius"}}, {"required arguments"}),
        (
            {"name": "get_weather", "arguments": {"city": "Oslo", "country": "NO"}},
            {"unknown arguments"},
        ),
        (
            {
                "name": "get_weather",
                "arguments": {"city": "Oslo", "window": {"days": 3, "hours": 1}},
            },
            {"unknown arguments"},
        ),
        ({"name": "get_weather", "arguments": {"city": 7, "units": "kelvin"}}, {"argument types"}),
        ({"name": "get_weather", "arguments": {"city": "Oslo"}, "id": "call_1"}, {"call shape"}),
        (
            {"name": "get_weather", "arguments": '{"city": "Oslo"}'},
            set(CALL_NAMES[1:]) - {"call name"},
        ),
        (
            {
                "type": "function",
                "function": {"name": "get_weather", "arguments": {"city": "Oslo"}},
            },
            set(CALL_NAMES[1:]),
        ),
        ([{"name": "get_weather", "arguments": {"city": "Oslo"}}], set(CALL_NAMES[1:])),
        ("get_weather(city='Oslo')", {"parse"}),
    ],
)
def test_function_call_checks(output: Any, failed: set[str]) -> None:
    assert failing(output) == failed


def test_function_call_details_name_the_offending_argument() -> None:
    result = verdict(
        {"function_call": WEATHER},
        {"name": "x", "arguments": {"units": 1, "city": "Oslo", "foo": 2}},
    )
    details = {c.name: c.detail for c in result.checks}
    assert details["call name"] == "expected 'get_weather', got 'x'"
    assert "('foo' was unexpected)" in details["unknown arguments"]
    assert details["argument types"].startswith("/arguments/units: 1 is not one of")
    assert result.score == pytest.approx(3 / 6)


# --- config problems -------------------------------------------------------------------

BAD_CONFIGS: list[tuple[dict[str, Any], str]] = [
    ({"type": "json"}, "give at least one of schema, invariants, function_call"),
    ({"type": "json", "schema": {}, "strict": True}, "unknown key 'strict'"),
    (
        {"type": "json", "schema": {}, "fences": "strip"},
        "fences must be one of allow, reject, got 'strip'",
    ),
    (
        {"type": "json", "schema": {"type": "objekt"}},
        "schema: not a valid draft 2020-12 schema at '/type'",
    ),
    ({"type": "json", "schema": "object"}, "schema: must be a JSON Schema object"),
    ({"type": "json", "invariants": {"sum": "/a"}}, "invariants must be a list"),
    (
        {"type": "json", "invariants": [{"sum": "/a"}]},
        "give exactly one of equals, at_least, at_most",
    ),
    (
        {"type": "json", "invariants": [{"sum": "a", "equals": 1}]},
        "'sum': must be '' or a JSON Pointer",
    ),
    ({"type": "json", "invariants": [{"sum": "/a~2", "equals": 1}]}, "with ~0, ~1 escapes"),
    (
        {"type": "json", "invariants": [{"sum": "/a", "equals": 1, "tolerance": -1}]},
        "'tolerance': must be a number ≥ 0",
    ),
    (
        {"type": "json", "invariants": [{"count": "/a", "equals": 1, "at_most": 2}]},
        "give exactly one of",
    ),
    (
        {"type": "json", "invariants": [{"compare": ["/a", "=>", "/b"]}]},
        "operator '=>' is not one of",
    ),
    ({"type": "json", "invariants": [{"compare": ["/a", "<"]}]}, "must be [A, OP, B]"),
    (
        {"type": "json", "invariants": [{"compare": ["/a", "==", {"literal": 1}]}]},
        "a literal is {'value': X}",
    ),
    ({"type": "json", "invariants": [{"compare": ["/a", "==", [1]]}]}, "bad operand [1]"),
    (
        {"type": "json", "invariants": [{"sorted": "/a", "order": "up"}]},
        "'order': must be 'asc' or 'desc'",
    ),
    ({"type": "json", "invariants": [{"unique": "/a", "sum": "/b"}]}, "must hold exactly one of"),
    (
        {"type": "json", "invariants": [{"subset": "/a"}, {"eval": "1+1"}]},
        "invariants[1]: must hold exactly one",
    ),
    (
        {"type": "json", "invariants": [{"unique": "/a", "of": "/b"}]},
        "unknown key 'of'; allowed: unique",
    ),
    (
        {"type": "json", "function_call": {"name": "f"}},
        "function_call must be {'name': ..., 'parameters'",
    ),
    (
        {"type": "json", "function_call": {"name": "", "parameters": {"type": "object"}}},
        "name must be a non-empty",
    ),
    (
        {"type": "json", "function_call": {"name": "f", "parameters": {"type": "array"}}},
        '"type": "object"',
    ),
]


@pytest.mark.parametrize(("config", "message"), BAD_CONFIGS)
def test_problems_say_what_is_wrong_and_what_is_allowed(
    config: dict[str, Any], message: str
) -> None:
    found = VERIFIER.problems(config)
    assert any(message in problem for problem in found), found


def test_only_local_refs_are_allowed_and_a_remote_one_never_crashes_verify() -> None:
    remote = {"type": "json", "schema": {"$defs": {"a": {"$ref": "https://example.com/a.json"}}}}
    assert VERIFIER.problems(remote) == [
        "schema: $ref 'https://example.com/a.json' is not local; use '#/$defs/…'"
    ]
    unchecked = {"type": "json", "schema": {"$ref": "other.json"}}
    result = VERIFIER.verify(unchecked, "{}", [])
    assert "a $ref that cannot be resolved" in result.checks[1].detail


def test_good_configs_have_no_problems() -> None:
    invariants = [spec for spec, _, _ in INVARIANTS]
    assert (
        VERIFIER.problems({"type": "json", "fences": "reject", **ITEMS, "invariants": invariants})
        == []
    )
    assert VERIFIER.problems({"type": "json", "function_call": WEATHER}) == []


# --- the pool, its templates, and a reference for every task ---------------------------


@pytest.fixture(scope="module")
def pool() -> list[Task]:
    return generate("json", None, VARIANTS, 0)


@pytest.fixture(scope="module")
def references(pool: list[Task]) -> dict[str, Any]:
    """Each task's reference, drawn again with the seeds `generate` uses (matched by prompt)."""
    found: dict[str, Any] = {}
    for template_id in {task.template_id for task in pool}:
        assert template_id is not None
        drafts = {}
        for attempt in range(VARIANTS * 20):
            made = CASES[template_id](random.Random(f"0:json:{template_id}:{attempt}"))
            drafts.setdefault(made.draft.turns, made)
            if len(drafts) == VARIANTS:
                break
        for task in pool:
            if task.template_id == template_id:
                made = drafts[task.turns]
                assert made.draft.verifier == task.verifier
                found[task.id] = made.reference
    return found


def test_the_committed_pool_is_what_the_generator_makes(pool: list[Task]) -> None:
    committed = [to_task(record) for _, record in records(POOL / "json.jsonl")]
    assert committed == pool


def test_pool_size_templates_and_distinct_prompts(pool: list[Task]) -> None:
    assert len(templates("json")) >= 40
    assert len({task.turns for task in pool}) == len(pool) >= 171
    kinds = {key for task in pool for key in task.verifier if key != "type"}
    assert kinds == {"fences", "schema", "invariants", "function_call"}
    used = {next(iter(inv)) for task in pool for inv in task.verifier.get("invariants", [])}
    assert used >= {"sum", "count", "compare", "unique", "sorted", "subset"}


def test_every_generated_config_is_valid(pool: list[Task]) -> None:
    for task in pool:
        assert VERIFIER.problems(task.verifier) == [], task.id


def test_the_seed_file_loads_without_problems() -> None:
    tasks, problems = load_tasks([POOL / "seed" / "json.yaml"])
    assert [str(p) for p in problems] == []
    assert len(tasks) >= 10 and all(t.source == "seed" and t.domain == "json" for t in tasks)


SEED_ANSWERS = {
    "json.seed.person-record": {
        "name": "Ada Lovelace",
        "born": 1815,
        "died": 1852,
        "fields": ["mathematics", "computing"],
    },
    "json.seed.shopping-cart": {
        "items": [
            {"name": "notebook", "quantity": 3, "unit_price": 2.5, "subtotal": 7.5},
            {"name": "pen", "quantity": 2, "unit_price": 1.2, "subtotal": 2.4},
        ],
        "total": 9.9,
    },
    "json.seed.survey-percentages": [
        {"answer": "tea", "people": 90, "percent": 45},
        {"answer": "coffee", "people": 70, "percent": 35},
        {"answer": "neither", "people": 40, "percent": 20},
    ],
    "json.seed.first-primes": [2, 3, 5, 7, 11],
    "json.seed.clinic-hours": {
        "days": [
            {
                "day": day,
                "open": "08:30",
                "lunch_start": "12:30",
                "lunch_end": "13:30",
                "close": "17:00",
            }
            for day in ("Monday", "Tuesday", "Wednesday", "Thursday", "Friday")
        ]
    },
    "json.seed.trip-dates": {"check_in": "2025-03-28", "check_out": "2025-04-03", "nights": 6},
    "json.seed.deployment-config": {
        "app": "shop",
        "replicas": 3,
        "env": {"LOG_LEVEL": "info"},
        "containers": [{"name": "web", "port": 8080}, {"name": "metrics", "port": 9100}],
    },
    "json.seed.route-graph": {
        "stops": ["Depot", "Market", "Harbour"],
        "edges": [
            {"from": "Depot", "to": "Market", "minutes": 8},
            {"from": "Market", "to": "Harbour", "minutes": 12},
            {"from": "Harbour", "to": "Depot", "minutes": 15},
        ],
        "total_minutes": 35,
    },
    "json.seed.call-weather": {
        "name": "get_weather",
        "arguments": {"city": "Reykjavik", "unit": "C"},
    },
    "json.seed.call-no-extra-fields": {
        "name": "add_task",
        "arguments": {"title": "renew passport", "due": "2025-09-01"},
    },
    "json.seed.call-pick-the-tool": {
        "name": "set_timer",
        "arguments": {"minutes": 12, "label": "pasta"},
    },
    "json.seed.magic-square": {"rows": [[2, 7, 6], [9, 5, 1], [4, 3, 8]]},
}
SEED_WRONG = {
    "json.seed.person-record": {"name": "Ada Lovelace", "born": 1815, "died": 1852, "fields": []},
    "json.seed.shopping-cart": {"items": [{"name": "notebook", "subtotal": 7.5}], "total": 7.5},
    "json.seed.survey-percentages": [{"answer": "tea", "people": 90, "percent": 45.0}],
    "json.seed.first-primes": [1, 2, 3, 5, 7],
    "json.seed.clinic-hours": {"days": [{"day": "Monday", "open": "8:30"}]},
    "json.seed.trip-dates": {"check_in": "2025-03-28", "check_out": "2025-04-02", "nights": 6},
    "json.seed.deployment-config": {"app": "shop", "replicas": "3", "containers": [], "env": {}},
    "json.seed.route-graph": {"stops": ["Depot"], "edges": [], "total_minutes": 35},
    "json.seed.call-weather": {"name": "get_weather", "arguments": {"location": "Reykjavik"}},
    "json.seed.call-no-extra-fields": {
        "name": "add_task",
        "arguments": {"title": "renew passport", "due": "2025-09-01", "priority": "high"},
    },
    "json.seed.call-pick-the-tool": {"name": "play_music", "arguments": {"query": "pasta"}},
    "json.seed.magic-square": {"rows": [[1, 2, 3], [4, 5, 6], [7, 8, 9]]},
}


def test_every_seed_task_accepts_a_hand_written_answer_and_rejects_a_wrong_one() -> None:
    tasks, _ = load_tasks([POOL / "seed" / "json.yaml"])
    assert sorted(t.id for t in tasks) == sorted(SEED_ANSWERS) == sorted(SEED_WRONG)
    for task in tasks:
        right = VERIFIER.verify(task.verifier, json.dumps(SEED_ANSWERS[task.id]), [])
        assert right.passed, (task.id, [c for c in right.checks if not c.passed])
        assert not VERIFIER.verify(task.verifier, json.dumps(SEED_WRONG[task.id]), []).passed


def test_every_task_accepts_its_reference_bare_and_fenced_as_its_config_says(
    pool: list[Task], references: dict[str, Any]
) -> None:
    for task in pool:
        answer = json.dumps(references[task.id], indent=2)
        result = VERIFIER.verify(task.verifier, answer, [])
        assert result.passed, (task.id, [c for c in result.checks if not c.passed])
        fenced = VERIFIER.verify(task.verifier, f"```json\n{answer}\n```", [])
        assert fenced.passed is (task.verifier["fences"] == "allow"), task.id
        assert not VERIFIER.verify(task.verifier, "Here you go:\n" + answer, []).passed


# The broken variants: each mutation must make the check it targets fail.


def _set(document: Any, where: str, value: Any) -> None:
    *parents, last = [step.replace("~1", "/").replace("~0", "~") for step in where.split("/")[1:]]
    for step in parents:
        document = document[int(step) if isinstance(document, list) else step]
    document[int(last) if isinstance(document, list) else last] = value


def _beyond(value: Any, op: str) -> Any:
    """A value that makes ``x op value`` false."""
    if op in ("==", "!="):
        return "broken" if op == "==" else value
    high = op in ("<", "<=")
    if isinstance(value, str):
        return "~~~" if high else ""
    return value + 1000 if high else value - 1000


def break_invariant(document: Any, invariant: dict[str, Any]) -> bool:
    """Mutate ``document`` so that ``invariant`` fails; False if it cannot be broken."""
    kind = next(iter(invariant))
    if kind == "compare":
        left, op, right = invariant["compare"]
        target = resolve(document, right)[0].value if isinstance(right, str) else right
        target = target["value"] if isinstance(target, dict) and "value" in target else target
        _set(document, resolve(document, left)[0].where, _beyond(target, op))
        return True
    if kind == "count":
        container = resolve(document, invariant["count"])[0].value
        if isinstance(container, list):
            container.append(copy.deepcopy(container[-1]) if container else 0)
        else:
            container["extra"] = 1
        return True
    matches = resolve(document, invariant[kind])
    if kind == "sum":
        _set(document, matches[0].where, matches[0].value + 7)
    elif kind == "unique":
        _set(document, matches[1].where, matches[0].value)
    elif kind == "sorted":
        pair = next(i for i in range(len(matches) - 1) if matches[i].value != matches[i + 1].value)
        _set(document, matches[pair].where, matches[pair + 1].value)
        _set(document, matches[pair + 1].where, matches[pair].value)
    elif kind == "subset":
        if not matches:
            return False
        _set(document, matches[0].where, "not-a-member")
    return True


def test_breaking_any_invariant_of_any_task_fails_that_invariant(
    pool: list[Task], references: dict[str, Any]
) -> None:
    broken_somewhere = 0
    for task in pool:
        for index, invariant in enumerate(task.verifier.get("invariants", [])):
            document = copy.deepcopy(references[task.id])
            if not break_invariant(document, invariant):
                continue
            result = VERIFIER.verify(task.verifier, json.dumps(document), [])
            assert not result.passed, (task.id, invariant)
            assert not result.checks[1 + ("schema" in task.verifier) + index].passed, (
                task.id,
                invariant,
            )
            broken_somewhere += 1
    assert broken_somewhere > 500


def _extra_key(document: Any) -> Any:
    return [*document, "junk"] if isinstance(document, list) else {**document, "unexpected": 1}


CALL_BREAKERS: dict[str, Callable[[dict[str, Any], dict[str, Any]], Any]] = {
    "call name": lambda ref, spec: {**ref, "name": ref["name"] + "_v2"},
    "unknown arguments": lambda ref, spec: {
        **ref,
        "arguments": {**ref["arguments"], "priority": "high"},
    },
    "required arguments": lambda ref, spec: {
        **ref,
        "arguments": {k: v for k, v in ref["arguments"].items() if k != spec["required"][0]},
    },
    "argument types": lambda ref, spec: {
        **ref,
        "arguments": {**ref["arguments"], spec["required"][0]: {"wrong": True}},
    },
    "call shape": lambda ref, spec: {"type": "function", "function": ref},
}


def test_every_task_rejects_a_broken_structure(
    pool: list[Task], references: dict[str, Any]
) -> None:
    for task in pool:
        reference = references[task.id]
        if "schema" in task.verifier:
            result = VERIFIER.verify(task.verifier, json.dumps(_extra_key(reference)), [])
            assert not result.checks[1].passed, task.id
        call = task.verifier.get("function_call")
        for name, breaker in CALL_BREAKERS.items() if call else ():
            result = VERIFIER.verify(
                task.verifier, json.dumps(breaker(reference, call["parameters"])), []
            )
            assert not {c.name: c.passed for c in result.checks}[name], (task.id, name)
