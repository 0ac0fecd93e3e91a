"""The languages `code measure` reads come from the native core (`_core.languages`)."""

from __future__ import annotations

from slopmark import _core
from slopmark.code.measure import languages
from slopmark.code.measure.rules import catalog


def test_every_core_grammar_is_reported_under_a_language_rules_may_name() -> None:
    grammars = [name for name, *_ in _core.languages()]
    assert [g.name for g in languages.GRAMMARS] == grammars
    assert set(languages.LANGUAGES) == {languages.language_of(g) for g in grammars}
    assert catalog.RULE_LANGUAGES == languages.RULE_LANGUAGES == languages.LANGUAGES
    for grammar in grammars:
        assert grammar in languages.grammars_of([languages.language_of(grammar)])


def test_tsx_files_are_typescript_and_run_javascript_rules() -> None:
    assert languages.language_of_path("app/view.tsx") == "typescript"
    assert languages.rule_targets("javascript") == ("javascript", "typescript", "tsx")
    assert languages.rule_targets("typescript") == ("typescript", "tsx")
    assert languages.rule_targets("python") == ("python",)
    assert ".tsx" in languages.suffixes(["typescript"])
