"""The structural rule pack: ast-grep YAML rules, one file per rule."""

from slopmark.code.measure.rules.catalog import (
    DOC_SECTIONS,
    LANG_DIR,
    PACK_DIR,
    RULE_LANGUAGES,
    Rule,
    check_rule_id,
    choose,
    load_catalog,
    parse_rules,
)

__all__ = [
    "DOC_SECTIONS",
    "LANG_DIR",
    "PACK_DIR",
    "RULE_LANGUAGES",
    "Rule",
    "check_rule_id",
    "choose",
    "load_catalog",
    "parse_rules",
]
