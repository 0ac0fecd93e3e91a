"""docs/rules.md is `code rules --markdown`'s output, and every rule carries its set and
measured precision (issue 36: precision None with n 0 when nobody labelled it)."""

from __future__ import annotations

from pathlib import Path

from slopmark.cli.rules_view import rule_json, rules_markdown
from slopmark.code.measure.rules import load_catalog
from slopmark.code.measure.rules.precision import NOT_MEASURED, Precision, measured

DOC = Path(__file__).resolve().parents[2] / "docs" / "rules.md"


def test_the_rules_doc_is_the_generators_output() -> None:
    assert DOC.read_text(encoding="utf-8") == rules_markdown(load_catalog(rule_set="pedantic")), (
        "run `slopmark code rules --markdown > docs/rules.md`"
    )


def test_every_rule_carries_its_set_and_precision() -> None:
    shipped = measured()
    for rule in load_catalog(rule_set="pedantic"):
        row = rule_json(rule)
        assert row["set"] in ("default", "pedantic")
        if rule.id in shipped:
            assert (row["precision"], row["n"]) == (shipped[rule.id].precision, shipped[rule.id].n)
            assert row["interval"][0] <= row["precision"] <= row["interval"][1]
        else:
            assert (row["precision"], row["interval"], row["n"]) == (None, None, 0)


def test_a_precision_reads_as_a_share_with_its_interval() -> None:
    assert Precision(20, 17, 0.85, 0.64, 0.95, 130).line() == "85% [64%–95%], n=20"
    assert NOT_MEASURED.line() == "not measured"


def test_the_paper_sets_rules_are_not_measured() -> None:
    """The frozen rules are older versions of the measured ones."""
    assert all(rule_json(r)["precision"] is None for r in load_catalog(rule_set="paper"))
