"""The structural rule pack: ast-grep YAML rules, one file per rule."""

from slopmark.code.measure.rules.catalog import (
    DOC_SECTIONS,
    LANG_DIR,
    PACK_DIR,
    PAPER_DIR,
    RULE_LANGUAGES,
    RULE_SETS,
    Rule,
    check_rule_id,
    check_rule_set,
    choose,
    load_catalog,
    parse_rules,
)

__all__ = [
    "DOC_SECTIONS",
    "LANG_DIR",
    "PACK_DIR",
    "PAPER_DIR",
    "RULE_LANGUAGES",
    "RULE_SETS",
    "Rule",
    "check_rule_id",
    "check_rule_set",
    "choose",
    "load_catalog",
    "parse_rules",
]
