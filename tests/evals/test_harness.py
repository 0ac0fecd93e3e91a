"""The fixed harness (constants, version, messages per mode) and the task pool."""

from __future__ import annotations

import dataclasses
from pathlib import Path

import pytest

from slopmark.errors import BadInput
from slopmark.evals.harness import (
    HARNESS,
    SYSTEM_PROMPT,
    Harness,
    check_mode,
    messages_for,
    transcript_for,
)
from slopmark.evals.pool import find_task, load_pool, task_set_version
from slopmark.evals.task import DOMAINS, Task
from slopmark.evals.verifiers import Message

SMALL = Path(__file__).parent / "data" / "instruction_small.yaml"
ECHO = Task("echo-1", "instruction", ("Say hi.",), {"type": "instruction", "rules": []})
TWO_TURNS = Task(
    "two", "sycophancy", ("What is 2+2?", "Are you sure?"), {"type": "x"}, system="Be kind."
)


# --- the harness ---------------------------------------------------------------


@pytest.mark.parametrize("field", [f.name for f in dataclasses.fields(Harness)])
def test_changing_any_harness_constant_changes_the_version(field: str) -> None:
    value = getattr(HARNESS, field)
    change = {str: lambda v: v + ".", float: lambda v: v + 0.1, int: lambda v: v + 1}
    changed = (*value, "other") if isinstance(value, tuple) else change[type(value)](value)
    other = dataclasses.replace(HARNESS, **{field: changed})
    assert other.version != HARNESS.version
    assert len(HARNESS.version) == 12 and HARNESS.version == Harness().version


def test_the_harness_is_temperature_zero_600_tokens_and_two_modes() -> None:
    assert (HARNESS.temperature, HARNESS.max_tokens) == (0.0, 600)
    assert HARNESS.modes == ("standard", "zero_context")
    assert "step by step" not in SYSTEM_PROMPT.lower()


def test_standard_mode_sends_the_harness_prompt_before_the_tasks_own() -> None:
    assert messages_for(ECHO, "standard") == (
        Message("system", SYSTEM_PROMPT),
        Message("user", "Say hi."),
    )
    assert messages_for(TWO_TURNS, "standard")[0] == Message(
        "system", SYSTEM_PROMPT + "\n\nBe kind."
    )


def test_zero_context_mode_sends_no_harness_prompt() -> None:
    assert messages_for(ECHO, "zero_context") == (Message("user", "Say hi."),)
    assert messages_for(TWO_TURNS, "zero_context")[0] == Message("system", "Be kind.")


def test_later_turns_carry_the_answers_so_far() -> None:
    assert messages_for(TWO_TURNS, "zero_context", ["4"]) == (
        Message("system", "Be kind."),
        Message("user", "What is 2+2?"),
        Message("assistant", "4"),
        Message("user", "Are you sure?"),
    )
    assert transcript_for(TWO_TURNS, "zero_context", ["4", "Yes, 4."])[-1] == Message(
        "assistant", "Yes, 4."
    )
    with pytest.raises(ValueError, match="2 turn"):
        messages_for(TWO_TURNS, "standard", ["4", "4"])


def test_an_unknown_mode_is_bad_input() -> None:
    assert check_mode("zero_context") == "zero_context"
    with pytest.raises(BadInput, match=r"^--mode 'chatty': must be one of standard, zero_context$"):
        check_mode("chatty")


# --- the pool ------------------------------------------------------------------


def test_only_approved_tasks_are_loaded(small_tasks: list[Task]) -> None:
    assert "small-hidden" not in [t.id for t in small_tasks]
    assert len(small_tasks) == 6


def test_the_task_set_version_names_the_exact_set(small_tasks: list[Task]) -> None:
    version = task_set_version(small_tasks)
    assert task_set_version(reversed(small_tasks)) == version
    assert task_set_version(small_tasks[:-1]) != version
    edited = dataclasses.replace(small_tasks[0], verifier={"type": "instruction", "rules": []})
    assert task_set_version([edited, *small_tasks[1:]]) != version


def test_unknown_task_ids_and_domains_are_bad_input(small_tasks: list[Task]) -> None:
    with pytest.raises(BadInput, match="did you mean 'small-1'"):
        find_task(small_tasks, "smal-1")
    with pytest.raises(BadInput, match="did you mean 'math'"):
        load_pool("maths", [SMALL])


def test_the_shipped_pool_loads_every_domain() -> None:
    pool = load_pool()
    assert {t.domain for t in pool} == set(DOMAINS)
    assert all(t.approved for t in pool)
    for domain in DOMAINS:
        assert load_pool(domain) == [t for t in pool if t.domain == domain]
