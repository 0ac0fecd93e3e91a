"""The structural rule pack: ast-grep YAML rules, one file per rule."""

from slopmark.code.rules.catalog import (
    DOC_SECTIONS,
    PACK_DIR,
    Rule,
    check_rule_id,
    choose,
    load_catalog,
    parse_rules,
)

__all__ = [
    "DOC_SECTIONS",
    "PACK_DIR",
    "Rule",
    "check_rule_id",
    "choose",
    "load_catalog",
    "parse_rules",
]
