"""The instruction domain: counting, every rule, config problems, the pool and its templates."""

from __future__ import annotations

import json
import re
from collections import defaultdict
from collections.abc import Mapping, Sequence
from itertools import cycle
from pathlib import Path
from typing import Any

import pytest

from slopmark.evals.generators import generate, templates
from slopmark.evals.generators.instruction import VARIANTS, cased
from slopmark.evals.task import Task
from slopmark.evals.taskfile import load_tasks, records, to_task
from slopmark.evals.verifiers.instruction import InstructionVerifier, read

VERIFIER = InstructionVerifier()
POOL = Path(__file__).parents[2] / "src/slopmark/evals/pool"


def verdict(output: str, *rules: dict[str, Any]) -> Any:
    return VERIFIER.verify({"type": "instruction", "rules": list(rules)}, output, [])


def holds(output: str, rule: dict[str, Any]) -> bool:
    return bool(verdict(output, rule).passed)


# --- how text is counted ----------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "count"),
    [
        ("don't stop the well-known 3.5 train", 6),
        ("**Bold** move - then — a #hashtag", 5),
        ("- * + # — ...", 0),
        ("  spaced\n\n\tout  words ", 3),
        ("", 0),
    ],
)
def test_words_are_whitespace_tokens_holding_a_letter_or_digit(text: str, count: int) -> None:
    assert len(read(text).words) == count


@pytest.mark.parametrize(
    ("text", "count"),
    [
        ("One. Two! Three? Four", 4),
        ('He said "stop." Then left.', 2),
        ("Pi is 3.14 today. Yes.", 2),
        ("Wait... what?! Really.", 3),
        ("A heading\n\nA body sentence.", 2),
        ("No terminator at all", 1),
        ("... !!! ???", 0),
    ],
)
def test_sentences_end_at_terminators_before_whitespace_and_at_blank_lines(
    text: str, count: int
) -> None:
    assert len(read(text).sentences) == count


@pytest.mark.parametrize(
    ("text", "count"),
    [
        ("One.\n\nTwo.\n \nThree.", 3),
        ("One.\nstill one.", 1),
        ("\n\n\nOne.\n\n\n\nTwo.\n\n", 2),
        ("Intro.\n\n---\n\nBody.", 2),
        ("Windows line ends.\r\n\r\nSecond.", 2),
        ("   ", 0),
    ],
)
def test_paragraphs_are_blank_line_separated_chunks_holding_a_word(text: str, count: int) -> None:
    assert len(read(text).paragraphs) == count


def test_lines_with_and_without_blank_lines() -> None:
    text = "\n\nroses are red\n\nviolets are blue\n   \nend\n\n"
    rule = {"rule": "line_count", "n": 3}
    assert holds(text, rule)
    assert holds(text, {**rule, "count_blank": True}) is False
    assert holds(text, {**rule, "n": 5, "count_blank": True})


@pytest.mark.parametrize(
    ("text", "count"),
    [
        ("- one\n* two\n+ three\n1. four\n12) five", 5),
        ("  - nested\n\t* tabbed", 2),
        ("**bold** line\n---\n-no space\n1.5 apples", 0),
        ("Intro:\n\n- a\n- b\n\nOutro.", 2),
    ],
)
def test_bullets_are_marked_lines(text: str, count: int) -> None:
    assert len(read(text).bullets) == count


def test_huge_and_pathological_outputs_are_read_fast() -> None:
    for text in ("." * 200_000, "-" * 200_000, "a!" * 100_000, " \n" * 100_000, "x" * 500_000):
        result = verdict(
            text, {"rule": "sentence_count", "max": 3}, {"rule": "word_count", "max": 9}
        )
        assert 0.0 <= result.score <= 1.0


# --- each rule, passing and failing ------------------------------------------------

GOLDEN: list[tuple[dict[str, Any], str, str]] = [
    (
        {"rule": "word_count", "min": 5, "max": 8},
        "The quick brown fox jumps over it.",
        "Sure! Here is a sentence about a quick brown fox that jumps.",
    ),
    ({"rule": "word_count", "n": 3}, "**Three** little words", "Only two"),
    (
        {"rule": "paragraph_count", "n": 2},
        "First paragraph here.\n\nSecond paragraph here.",
        "First paragraph here.\nSame paragraph, single line break.",
    ),
    (
        {"rule": "sentence_count", "n": 2},
        "I like tea. Do you?",
        "I like tea. Do you? I do!",
    ),
    ({"rule": "bullet_count", "n": 2}, "Options:\n- tea\n- coffee", "Options: tea, coffee"),
    ({"rule": "bullet_count", "n": 0}, "Walk north.\nTurn left.", "1. Walk north.\n2. Turn left."),
    ({"rule": "line_count", "max": 2}, "line one\nline two\n", "line one\nline two\nline three"),
    ({"rule": "max_chars", "n": 20}, "  Short and sweet.  ", "This answer is clearly too long."),
    (
        {"rule": "forbidden_substring", "text": "delve"},
        "Let us look at the data.",
        "Let us DELVE into the data.",
    ),
    (
        {"rule": "forbidden_substring", "text": "very"},
        "It is good.",
        "Every answer is good.",  # a substring rule: inside a word counts too
    ),
    (
        {"rule": "required_phrase", "text": "action items"},
        "Decisions and ACTION\nITEMS follow.",
        "Decisions and action-items follow.",
    ),
    (
        {"rule": "required_phrase", "text": "degrees", "min_count": 2},
        "Highs of 20 degrees, lows of 12 degrees.",
        "Highs of 20 degrees, lows of 12.",
    ),
    (
        {"rule": "starts_with", "text": "Dear Ms. Park,"},
        "\n  Dear Ms. Park,\nThanks for writing.",
        "Sure! Dear Ms. Park,\nThanks for writing.",
    ),
    ({"rule": "starts_with", "text": "Agenda:"}, "Agenda:\n- budget", "**Agenda:**\n- budget"),
    (
        {"rule": "ends_with", "text": "What am I?"},
        "I have keys but no locks. What am I?\n",
        "What am I? A piano.",
    ),
    ({"rule": "ends_with", "text": "Enjoy!"}, "Serve hot. Enjoy!", "Serve hot. enjoy!"),
    (
        {"rule": "banned_letters", "letters": "e"},
        "A big cat sat on a mat.",
        "A big cat sat on the mat.",
    ),
    ({"rule": "banned_letters", "letters": "st"}, "a big owl, calm and round", "A STAR shone."),
    ({"rule": "casing", "case": "lower"}, "all quiet here, 3 cats.", "all quiet here, 3 Cats."),
    ({"rule": "casing", "case": "upper"}, "DANGER: THIN ICE! 10 M", "DANGER: thin ice"),
    (
        {"rule": "casing", "case": "title"},
        "The Old Man and the Sea: A Tale of Courage",
        "The old man and the sea",
    ),
    ({"rule": "casing", "case": "title"}, '"Why We Test" (2nd Edition)', "Of Mice and men"),
]


@pytest.mark.parametrize(("rule", "good", "bad"), GOLDEN, ids=[g[0]["rule"] for g in GOLDEN])
def test_rule_passes_on_compliant_output_and_fails_on_violation(
    rule: dict[str, Any], good: str, bad: str
) -> None:
    passing, failing = verdict(good, rule), verdict(bad, rule)
    assert (passing.passed, passing.score) == (True, 1.0), passing.checks
    assert (failing.passed, failing.score) == (False, 0.0), failing.checks
    assert failing.checks[0].name == rule["rule"]


def test_details_say_expected_and_actual() -> None:
    checks = verdict(
        "Sure! Here you go.\n\nIt is very nice.",
        {"rule": "word_count", "min": 1, "max": 3},
        {"rule": "paragraph_count", "n": 1},
        {"rule": "starts_with", "text": "Dear team,"},
        {"rule": "forbidden_substring", "text": "very"},
    ).checks
    assert checks[0].detail == "expected 1–3 words, got 8"
    assert checks[1].detail == "expected exactly 1 paragraph, got 2"
    assert "'Dear team,'" in checks[2].detail and "'Sure! Here you go" in checks[2].detail
    assert "found 'very' 1 time(s)" in checks[3].detail


def test_score_is_the_share_of_rules_that_hold_and_repeats_are_numbered() -> None:
    result = verdict(
        "Moreover, the landscape is vibrant.",
        {"rule": "forbidden_substring", "text": "moreover"},
        {"rule": "forbidden_substring", "text": "tapestry"},
        {"rule": "sentence_count", "n": 1},
        {"rule": "casing", "case": "lower"},
    )
    assert (result.passed, result.score) == (False, 0.5)
    names = [c.name for c in result.checks]
    assert names == ["forbidden_substring", "forbidden_substring#2", "sentence_count", "casing"]


@pytest.mark.parametrize("output", ["", "   \n\t ", "\n\n"])
def test_an_empty_answer_fails_every_rule(output: str) -> None:
    result = verdict(
        output,
        {"rule": "forbidden_substring", "text": "x"},
        {"rule": "banned_letters", "letters": "e"},
    )
    assert (result.passed, result.score) == (False, 0.0)
    assert all(c.detail == "the output is empty" for c in result.checks)


def test_a_refusal_is_judged_by_the_rules_like_any_text() -> None:
    refusal = "I'm sorry, but I can't help with that request."
    result = verdict(
        refusal, {"rule": "word_count", "min": 40}, {"rule": "forbidden_substring", "text": "delve"}
    )
    assert (result.passed, result.score) == (False, 0.5)


# --- config problems -----------------------------------------------------------------

BAD_CONFIGS: list[tuple[dict[str, Any], str]] = [
    ({"type": "instruction"}, "'rules' must be a non-empty list"),
    ({"type": "instruction", "rules": []}, "'rules' must be a non-empty list"),
    (
        {"type": "instruction", "rules": [{"rule": "wordcount", "n": 3}]},
        "unknown rule 'wordcount'; known: word_count",
    ),
    ({"type": "instruction", "rules": ["word_count"]}, "rules[0]: must be an object"),
    (
        {"type": "instruction", "rules": [{"rule": "word_count"}]},
        "give 'n' (exact) or 'min' and/or 'max'",
    ),
    ({"type": "instruction", "rules": [{"rule": "word_count", "n": 3, "max": 4}]}, "not both"),
    (
        {"type": "instruction", "rules": [{"rule": "word_count", "min": 9, "max": 4}]},
        "'min' (9) is greater than 'max' (4)",
    ),
    (
        {"type": "instruction", "rules": [{"rule": "word_count", "n": -1}]},
        "'n' must be a whole number ≥ 0, got -1",
    ),
    ({"type": "instruction", "rules": [{"rule": "word_count", "n": "5"}]}, "got '5'"),
    (
        {"type": "instruction", "rules": [{"rule": "line_count", "n": 2, "count_blank": "yes"}]},
        "'count_blank' must be true or false",
    ),
    ({"type": "instruction", "rules": [{"rule": "starts_with"}]}, "starts_with: missing 'text'"),
    (
        {"type": "instruction", "rules": [{"rule": "ends_with", "text": " "}]},
        "'text' must be a non-empty string",
    ),
    (
        {"type": "instruction", "rules": [{"rule": "banned_letters", "letters": "e1"}]},
        "'letters' must be a string of letters",
    ),
    (
        {"type": "instruction", "rules": [{"rule": "casing", "case": "camel"}]},
        "'case' must be one of lower, upper, title",
    ),
    (
        {
            "type": "instruction",
            "rules": [{"rule": "required_phrase", "text": "x", "min_count": 0}],
        },
        "'min_count' must be a whole number ≥ 1",
    ),
    (
        {"type": "instruction", "rules": [{"rule": "max_chars", "n": 5, "min": 1}]},
        "unknown param 'min'; allowed: n",
    ),
    (
        {"type": "instruction", "rules": [{"rule": "max_chars", "n": 5}], "extra": 1},
        "unknown key 'extra'",
    ),
]


@pytest.mark.parametrize(("config", "message"), BAD_CONFIGS)
def test_problems_name_the_rule_the_value_and_what_is_allowed(
    config: dict[str, Any], message: str
) -> None:
    found = VERIFIER.problems(config)
    assert any(message in problem for problem in found), found


def test_a_good_config_has_no_problems() -> None:
    rules = [spec for spec, _, _ in GOLDEN] + [
        {"rule": "line_count", "min": 1, "count_blank": True}
    ]
    rules = [spec for index, spec in enumerate(rules) if spec not in rules[:index]]
    assert VERIFIER.problems({"type": "instruction", "rules": rules}) == []


# --- the pool and its templates --------------------------------------------------


@pytest.fixture(scope="module")
def pool() -> list[Task]:
    return generate("instruction", None, VARIANTS, 0)


def test_the_committed_pool_is_what_the_generator_makes(pool: list[Task]) -> None:
    committed = [to_task(record) for _, record in records(POOL / "instruction.jsonl")]
    assert committed == pool


def test_pool_size_templates_and_distinct_prompts(pool: list[Task]) -> None:
    assert len(templates("instruction")) >= 40
    assert len({task.turns for task in pool}) == len(pool) >= 171
    per_template = defaultdict(set)
    for task in pool:
        per_template[task.template_id].add(json.dumps(task.verifier["rules"], sort_keys=True))
    assert all(len(rules) >= 2 for rules in per_template.values()), (
        "variants differ in drawn values"
    )
    mixes = {tuple(sorted({r["rule"] for r in task.verifier["rules"]})) for task in pool}
    assert len(mixes) >= 30, "templates combine different rules"


def test_every_generated_config_is_valid(pool: list[Task]) -> None:
    for task in pool:
        assert 2 <= len(task.verifier["rules"]) <= 5, task.id
        assert VERIFIER.problems(task.verifier) == [], task.id
        assert task.source == "original" and task.approved


def test_the_seed_file_loads_without_problems() -> None:
    tasks, problems = load_tasks([POOL / "seed" / "instruction.yaml"])
    assert [str(p) for p in problems] == []
    assert len(tasks) >= 10 and all(t.source == "seed" and t.domain == "instruction" for t in tasks)


# --- self-test: a compliant answer built from the rules passes; breaking any rule fails ---

FILLER = (
    "calm", "map", "good", "day", "fun", "dog", "hill", "sun", "warm", "path", "kind", "quiet",
    "blue", "green", "bright", "soft", "plan", "idea", "work", "team", "city", "home", "park",
    "book", "road", "light", "water", "food", "time", "help", "walk", "open", "clear", "fresh",
    "slow", "quick", "small", "wide", "long", "high", "deep", "rich", "mild", "cold", "new",
    "old", "big", "tidy", "fair", "plain", "busy", "lucky",
)  # fmt: skip


def _bounds(rule: Mapping[str, Any]) -> tuple[int, float]:
    if "n" in rule:
        return rule["n"], rule["n"]
    return rule.get("min", 0), rule.get("max", float("inf"))


def _target(rules: Mapping[str, Mapping[str, Any]], name: str, default: int) -> int:
    if name not in rules:
        return default
    low, high = _bounds(rules[name])
    return low + 1 if high == float("inf") else (low + int(high)) // 2


def _split(total: int, parts: int) -> list[int]:
    return [total // parts + (i < total % parts) for i in range(parts)]


class Builder:
    """Writes a text that obeys a rule list: filler words laid out as prose, bullets or lines."""

    def __init__(self, rules: Sequence[Mapping[str, Any]]) -> None:
        self.rules = {r["rule"]: r for r in rules}
        self.case = self.rules.get("casing", {}).get("case")
        banned = set(self.rules.get("banned_letters", {}).get("letters", ""))
        forbidden = [r["text"].lower() for r in rules if r["rule"] == "forbidden_substring"]
        self.fixed = [
            (r["text"], r.get("min_count", 1)) for r in rules if r["rule"] == "required_phrase"
        ]
        self.vocab = cycle(
            [
                w
                for w in FILLER
                if not banned & set(w) and not any(f in w or w in f.split() for f in forbidden)
            ]
        )

    def units(self) -> tuple[str, list[int]]:
        """The layout and how many units (sentences, bullets or lines) each block holds."""
        rules = self.rules
        if _target(rules, "bullet_count", 0):
            return "bullets", [_target(rules, "bullet_count", 0) + ("starts_with" in rules)]
        blocks = _target(rules, "paragraph_count", 1)
        if "line_count" in rules:
            total = _target(rules, "line_count", 1)
            return "lines", _split(
                total - (blocks - 1) * rules["line_count"].get("count_blank", False), blocks
            )
        return "prose", _split(max(_target(rules, "sentence_count", 2 * blocks), blocks), blocks)

    def text(self) -> str:
        kind, blocks = self.units()
        count = sum(blocks)
        pieces: list[list[str]] = [[] for _ in range(count)]
        start, end = self.rules.get("starts_with"), self.rules.get("ends_with")
        if start:
            pieces[0].append(start["text"])
        required = [text for text, times in self.fixed for _ in range(times)]
        for index, text in enumerate(required):
            pieces[index % count].append(text)
        fixed_words = sum(len(read(t).words) for unit in pieces for t in unit) + (
            len(read(end["text"]).words) if end else 0
        )
        filler = _target(self.rules, "word_count", 4 * count + fixed_words) - fixed_words
        for unit, size in zip(pieces, _split(max(filler, 0), count), strict=True):
            unit.extend(cased(next(self.vocab), self.case) for _ in range(size))
        if end:
            pieces[-1].append(end["text"])
        return self.render(kind, blocks, [" ".join(unit) for unit in pieces], bool(end))

    def render(self, kind: str, blocks: list[int], units: list[str], ends: bool) -> str:
        if kind == "bullets":
            intro = [units.pop(0)] if "starts_with" in self.rules else []
            marker = self.rules["bullet_count"].get("marker", "-")
            marks = (f"{i}." if marker == "numbered" else marker for i in range(1, len(units) + 1))
            return "\n".join(intro + [f"{m} {u}" for m, u in zip(marks, units, strict=True)])
        if kind == "prose":
            units = [u if (ends and i == len(units) - 1) else u + "." for i, u in enumerate(units)]
        joiner = "\n" if kind == "lines" else " "
        grouped, at = [], 0
        for size in blocks:
            grouped.append(joiner.join(units[at : at + size]))
            at += size
        return "\n\n".join(grouped)


def break_rule(text: str, rule: Mapping[str, Any]) -> str:
    """``text`` changed so that ``rule`` no longer holds."""
    name = rule["rule"]
    low, high = _bounds(rule)
    counts = {
        "word_count": (len(read(text).words), " more"),
        "sentence_count": (len(read(text).sentences), " Extra."),
        "paragraph_count": (len(read(text).paragraphs), "\n\nExtra."),
        "bullet_count": (
            len(read(text).bullets),
            "\n9. extra" if rule.get("marker") == "numbered" else "\n- extra",
        ),
        "line_count": (sum(1 for line in read(text).lines if line.strip()), "\nextra"),
    }
    if name in counts and high != float("inf"):
        got, piece = counts[name]
        return text + piece * (int(high) - got + 1)
    if name == "word_count":
        return " ".join(text.split()[: low - 1])
    if name == "paragraph_count":
        return re.sub(r"\n\s*\n", "\n", text)
    edits = {
        "max_chars": lambda: text + " " + "x" * rule.get("n", 0),
        "forbidden_substring": lambda: text + " " + rule.get("text", ""),
        "required_phrase": lambda: re.sub(
            r"\s+".join(map(re.escape, rule["text"].split())), "", text, flags=re.I
        ),
        "starts_with": lambda: "Sure! " + text,
        "ends_with": lambda: text + " Thanks",
        "banned_letters": lambda: text + " " + rule["letters"][0] * 3,
        "casing": lambda: (
            text + {"lower": " Capital", "upper": " lower", "title": " lower"}[rule["case"]]
        ),
    }
    return edits[name]()


def test_a_reference_built_from_the_rules_passes_every_generated_task(pool: list[Task]) -> None:
    for task in pool:
        reference = Builder(task.verifier["rules"]).text()
        result = VERIFIER.verify(task.verifier, reference, [])
        assert result.passed, (task.id, reference, [c for c in result.checks if not c.passed])


def test_every_seed_task_accepts_a_reference_built_from_its_rules() -> None:
    tasks, _ = load_tasks([POOL / "seed" / "instruction.yaml"])
    for task in tasks:
        reference = Builder(task.verifier["rules"]).text()
        assert VERIFIER.verify(task.verifier, reference, []).passed, (task.id, reference)


def test_breaking_any_one_rule_of_any_generated_task_fails_that_rule(pool: list[Task]) -> None:
    for task in pool:
        reference = Builder(task.verifier["rules"]).text()
        for index, rule in enumerate(task.verifier["rules"]):
            broken = VERIFIER.verify(task.verifier, break_rule(reference, rule), [])
            assert not broken.passed and broken.score < 1, (task.id, rule)
            assert not broken.checks[index].passed, (task.id, rule, broken.checks[index])


COVER_LETTER = (
    "Dear Hiring Manager,\nI am writing to apply for the museum curator position at Harbor "
    "Logistics. For six years I have looked after the maritime collection of a small city "
    "museum, where I rebuilt the catalogue, planned four temporary exhibitions and trained a "
    "team of volunteer guides. Your company's archive of shipping records, photographs and "
    "instruments deserves a careful keeper, and I would love to turn it into a collection that "
    "staff, visitors and researchers can enjoy."
)
#: task id → (a compliant answer, a non-compliant one, the checks the latter fails)
HAND_WRITTEN: dict[str, tuple[str, str, set[str]]] = {
    "horror-story.0": (
        "I finally found the exit of the corn maze at midnight. Then I heard my own voice behind "
        "me, still calling for help from deep inside the stalks.",
        "Sure! Here's a two-sentence horror story:\n\nThe corn rustled. Suddenly, the path "
        "behind me was gone.",
        {"sentence_count", "forbidden_substring"},
    ),
    "seasonal-poem.0": (
        "fog rolls down the painted hills\nleaves drift past the funicular\nthe harbor smells "
        "of woodsmoke\nand every window hums with tea",
        "**Autumn in Valparaíso**\n\nfog rolls down the painted hills\nleaves drift past the "
        "funicular\nthe harbor smells of woodsmoke",
        {"casing", "forbidden_substring"},
    ),
    "cover-letter-opening.0": (
        COVER_LETTER,
        COVER_LETTER.replace("\nI am", "\n\nI am passionate and").replace(". ", ".\n\n", 1),
        {"paragraph_count", "forbidden_substring"},
    ),
    "packing-list.0": (
        "Packing list:\n- Road bike helmet\n- Padded cycling shorts\n- Rain jacket\n- Spare "
        "inner tubes\n- Sunscreen\n- Energy bars\n- Two water bottles\n- Phone mount",
        "Here is your packing list:\n1. Helmet\n2. Shorts\n3. Jacket, gloves, etc.",
        {"starts_with", "bullet_count", "forbidden_substring"},
    ),
    "headline.0": (
        "Orchards Celebrate a Record Apple Harvest Across the Valley",
        "Record apple harvest: farmers celebrate",
        {"casing", "word_count", "forbidden_substring"},
    ),
    "casual-text.0": (
        "sure, i can water them. just leave the key under the mat and tell me how often",
        "Of course! Just leave me the key.",
        {"casing", "forbidden_substring"},
    ),
    "definition.0": (
        "A vaccine is a harmless preview of a germ that teaches your immune system to recognise "
        "and fight the real thing.",
        "Vaccines are training for the immune system. They show it a harmless part of a germ.",
        {"sentence_count", "starts_with"},
    ),
    "labelled-dialogue.0": (
        "PILOT: Ready for your first landing?\nSTUDENT: My hands are shaking.\nPILOT: Keep the "
        "nose level and breathe.\nSTUDENT: Touchdown, we made it.",
        "PILOT: Ready?\n\nSTUDENT: Yes.\n\nPILOT: Go.",
        {"line_count", "required_phrase#2"},
    ),
    "animal-lipogram.0": (
        "This pink salamander lives in a misty highland lake. Its frilly gills resemble a "
        "feathery headdress. It can rebuild a missing leg in weeks.",
        "The axolotl is a salamander from Mexico.",
        {"banned_letters", "sentence_count"},
    ),
    "app-error-message.0": (
        "Your card was declined. Please check the details or try a different card.",
        "Oops! Payment error: your card was declined. Please try again.",
        {"sentence_count", "forbidden_substring", "forbidden_substring#2"},
    ),
}


@pytest.mark.parametrize("task_id", sorted(HAND_WRITTEN))
def test_hand_written_answers_for_a_sample_of_templates(pool: list[Task], task_id: str) -> None:
    task = next(t for t in pool if t.id == f"instruction.{task_id}")
    good, bad, failing = HAND_WRITTEN[task_id]
    assert VERIFIER.verify(task.verifier, good, []).passed, VERIFIER.verify(
        task.verifier, good, []
    ).checks
    result = VERIFIER.verify(task.verifier, bad, [])
    assert {c.name for c in result.checks if not c.passed} == failing
    assert result.score == pytest.approx(1 - len(failing) / len(result.checks))
