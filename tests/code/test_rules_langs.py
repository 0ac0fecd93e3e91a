"""The rule packs of JavaScript/TypeScript, Go, Java and Rust: size, documentation, and
every example checked in every grammar the rule runs on (a JavaScript rule also runs on
TypeScript and TSX files, a TypeScript rule on TSX)."""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import pytest

from slopmark.code.measure.languages import rule_targets
from slopmark.code.measure.native import Engine
from slopmark.code.measure.rules import DOC_SECTIONS, LANG_DIR, load_catalog

#: Every rule of the packs: the pedantic set holds them all (the default set leaves some out).
CATALOG = tuple(rule for rule in load_catalog(rule_set="pedantic") if rule.language != "python")
#: Minimum pack sizes (issue 16): JavaScript and TypeScript together, then each language.
MINIMUM = {("javascript", "typescript"): 40, ("go",): 20, ("java",): 20, ("rust",): 20}
#: A file suffix the engine reads with each grammar.
SUFFIX = {"javascript": ".js", "typescript": ".ts", "tsx": ".tsx", "go": ".go",
          "java": ".java", "rust": ".rs"}  # fmt: skip
PREFIX = {"javascript": "js-", "typescript": "ts-", "go": "go-", "java": "java-", "rust": "rust-"}


@pytest.mark.parametrize("languages", list(MINIMUM), ids="+".join)
def test_pack_sizes(languages: tuple[str, ...]) -> None:
    assert sum(rule.language in languages for rule in CATALOG) >= MINIMUM[languages]


@pytest.mark.parametrize("rule", CATALOG, ids=lambda r: r.id)
def test_rule_is_documented(rule) -> None:
    path = Path(rule.source)
    assert path.stem == rule.id, "file name must equal the rule id"
    assert path.parent.name == rule.category, "folder must equal metadata.category"
    assert path.parent.parent.name == rule.language, "language folder must equal `language:`"
    assert [k for k, _ in rule.docs] == list(DOC_SECTIONS), f"{rule.id}: missing doc sections"
    assert rule.id.startswith(PREFIX[rule.language]) and rule.id == rule.id.lower()


def cases() -> list[tuple[str, str]]:
    return [(rule.id, grammar) for rule in CATALOG for grammar in rule_targets(rule.language)]


@pytest.fixture(scope="module")
def example_hits() -> Counter[tuple[str, str]]:
    """Run every pack once over every rule's example and use-instead, in each grammar."""
    by_id = {rule.id: rule for rule in CATALOG}
    sources = [
        ((by_id[rule_id].doc(section) + "\n").encode(), f"{rule_id}.{section}{SUFFIX[grammar]}")
        for rule_id, grammar in cases()
        for section in ("example", "use_instead")
    ]
    found = Engine(CATALOG).analyze_sources(sources)
    assert all(not getattr(f, "notes", ()) for f in found), [f.notes for f in found if f.notes]
    return Counter((h.path, h.rule) for f in found for h in getattr(f, "hits", ()))


@pytest.mark.parametrize(("rule_id", "grammar"), cases(), ids="-in-".join)
def test_example_fires_and_fix_does_not(rule_id: str, grammar: str, example_hits) -> None:
    rule = next(r for r in CATALOG if r.id == rule_id)
    suffix = SUFFIX[grammar]
    fired = example_hits[(f"{rule_id}.example{suffix}", rule_id)]
    assert fired >= rule.min_hits, f"example hit {fired} times, needs {rule.min_hits}"
    unfixed = example_hits[(f"{rule_id}.use_instead{suffix}", rule_id)]
    assert unfixed < rule.min_hits, f"use_instead still fires ({unfixed} hits)"


def test_rules_dir_holds_only_rules() -> None:
    stray = [p for p in LANG_DIR.rglob("*") if p.is_file() and p.suffix != ".yml"]
    assert stray == []


def test_rule_ids_are_unique_across_languages() -> None:
    ids = [rule.id for rule in load_catalog(rule_set="pedantic")]
    assert len(ids) == len(set(ids))
