"""A code report cut for the store (`slopmark.code.measure.bounded`) and its round trip
through a real SQLite store (`slopmark.code.measure.stored_reports`)."""

from __future__ import annotations

from pathlib import Path

from slopmark.code.measure import bounded
from slopmark.code.measure.bounded import history_record, measure_record
from slopmark.code.measure.clones import CloneGroup, CloneMember
from slopmark.code.measure.hits import RuleHit
from slopmark.code.measure.metrics import Settings
from slopmark.code.measure.report import CallableMetrics, FileMetrics, TreeReport
from slopmark.code.measure.rules import load_catalog
from slopmark.code.measure.stored_reports import (
    clone_members,
    get_report,
    list_reports,
    preview_hits,
    rows_of,
    rule_hits,
    store_report,
)
from slopmark.store import open_store
from slopmark.store.schema import code_report_callables, code_report_rules

CALLABLES = bounded.TOP_CALLABLES + 50
HITS = bounded.HITS_PER_RULE + 100
GROUPS = bounded.CLONE_GROUPS + 10
MEMBERS = bounded.MEMBERS_PER_GROUP + 5


def big_report() -> TreeReport:
    """One file with more callables, hits of one rule, clone groups and members than the
    store keeps."""
    callables = tuple(
        CallableMetrics("a.py", f"f{i}", i, i + 1, 1 + i % 15, 2, float(i))
        for i in range(CALLABLES)
    )
    hits = tuple(
        RuleHit("equality-with-none", "a.py", i, i, f"hit {i}", "warning") for i in range(HITS)
    ) + (RuleHit("custom-rule", "a.py", 1, 3, "custom <b>", "info"),)
    members = tuple(CloneMember("a.py", 10 * m + 1, 10 * m + 200, 5) for m in range(MEMBERS))
    groups = tuple(CloneGroup(f"{g:032x}", "def", members) for g in range(GROUPS))
    file = FileMetrics("a.py", 1000, 10, 20, 25, callables, hits, (), 0.5, 0.025)
    return TreeReport("tree", Settings(), (file,), (), groups, (), 3)


def numbered(path: str, start: int, end: int) -> str:
    return "".join(f"{path} line {n}\n" for n in range(start, end + 1))


def record() -> bounded.CodeRecord:
    summary = {"callables": CALLABLES, "clone_groups": GROUPS, "sloc": 1000}
    return measure_record(big_report(), ("v", summary), [], load_catalog(), numbered)


def test_callables_keep_the_heaviest_first() -> None:
    kept = record().callables
    assert len(kept) == bounded.TOP_CALLABLES
    assert [c["qualname"] for c in kept[:2]] == [f"f{CALLABLES - 1}", f"f{CALLABLES - 2}"]
    assert record().bounds["callables"] == {
        "total": CALLABLES, "stored": bounded.TOP_CALLABLES, "truncated": True,
    }  # fmt: skip


def test_rules_keep_their_counts_and_explanation_and_cap_their_hits() -> None:
    made = record()
    rules = {row["rule"]: row for row in made.rules}
    none = rules["equality-with-none"]
    assert (none["hits"], none["stored"], none["lines"]) == (HITS, bounded.HITS_PER_RULE, HITS)
    assert none["what"] and none["why"] and none["category"]
    assert rules["custom-rule"]["what"] == "" and rules["custom-rule"]["message"] == "custom <b>"
    assert [row["rule"] for row in made.rules] == ["equality-with-none", "custom-rule"]
    assert len(made.hits) == bounded.HITS_PER_RULE + 1
    assert made.bounds["rule_hits"]["truncated"]


def test_clone_groups_and_members_are_capped_and_long_text_cut() -> None:
    made = record()
    assert len(made.clones) == bounded.CLONE_GROUPS
    assert made.clones[0]["members"] == MEMBERS
    assert len(made.members) == bounded.CLONE_GROUPS * bounded.MEMBERS_PER_GROUP
    text = made.members[0]["text"]
    assert text.count("\n") == bounded.MEMBER_LINES + 1
    assert text.endswith(f"… ({200 - bounded.MEMBER_LINES} more lines)\n")


def test_a_small_report_is_kept_whole() -> None:
    file = FileMetrics("b.py", 3, 0, 0, 0, (CallableMetrics("b.py", "g", 1, 3, 1, 3, 1.7),),
                       (), (), 0.0, 0.0)  # fmt: skip
    report = TreeReport("t", Settings(), (file,), (), (), (), 1)
    made = measure_record(report, ("v", {"callables": 1}), [], (), numbered)
    assert not any(b["truncated"] for b in made.bounds.values())


def test_store_round_trip(tmp_path: Path) -> None:
    engine = open_store(f"sqlite:///{tmp_path / 'store.db'}")
    first = store_report(engine, record())
    history = {"slopmark": "v", "repo": "r", "rev": "HEAD", "erosion_slope": None,
               "commits": [{"sha": "ab" * 20, "date": "2026-01-01", "subject": "s", "files": 1,
                            "sloc": 2, "callables": 0, "complex_callables": 0, "erosion": None,
                            "verbosity": 0.5}]}  # fmt: skip
    second = store_report(engine, history_record("r", "HEAD", "v", history, {"cc_threshold": 10}))
    assert [row["id"] for row in list_reports(engine)] == [second, first]
    assert [row["id"] for row in list_reports(engine, before=second)] == [first]
    header = get_report(engine, first)
    assert header is not None and header["summary"]["sloc"] == 1000
    assert header["bounds"]["clone_members"]["truncated"]
    assert len(rows_of(engine, code_report_callables, first)) == bounded.TOP_CALLABLES
    assert len(rows_of(engine, code_report_rules, first)) == 2
    assert len(rule_hits(engine, first, "equality-with-none")) == bounded.HITS_PER_RULE
    assert {k: len(v) for k, v in preview_hits(engine, first).items()} == {
        "equality-with-none": 5, "custom-rule": 1,
    }  # fmt: skip
    assert len(clone_members(engine, first, 3)) == bounded.MEMBERS_PER_GROUP
    kept = get_report(engine, second)
    assert kept is not None and kept["summary"]["commits_measured"] == 1
    assert get_report(engine, 12345) is None
