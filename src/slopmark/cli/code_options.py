"""The options `code measure`, `code history`, `code diff` and `code study` share, declared once.

Each is a Typer parameter default (``jobs: int = JOBS``), so the three commands take
the same name, bounds, default and help for the same setting.
"""

from __future__ import annotations

from typing import Any

import typer

from slopmark.code.measure.metrics import SIZE_TERMS, Settings
from slopmark.errors import BadInput

EXCLUDE = typer.Option([], "--exclude", help="Glob of paths to skip (repeatable).")
CC_THRESHOLD = typer.Option(
    10, "--cc-threshold", min=1, help="Callables with CC above this are complex (erosion)."
)
SIZE_TERM = typer.Option("sqrt", "--size-term", help="Size term of mass: sqrt, linear or none.")
JOBS = typer.Option(0, "--jobs", min=0, help="Threads of the core (0: one per core).")
LANGUAGE = typer.Option(
    [],
    "--language",
    help="Measure only this language (repeatable): python, javascript, typescript (with TSX), "
    "go, java or rust. Default: every language.",
)
SCOPE = typer.Option(
    [],
    "--scope",
    help="Measure only this part of the project (repeatable): source, tests, examples, docs "
    "or all (docs/languages.md, Scopes). Default: all (the paper's panel names no split, and "
    "stored numbers stay comparable); reports say how many files each scope held or left out.",
)
RULES = typer.Option([], "--rules", help="Extra folder of ast-grep YAML rules (repeatable).")
BASELINE = typer.Option(
    None, "--baseline", help="Report and gate only findings this baseline does not hold."
)
NO_CACHE = typer.Option(False, "--no-cache", help="Neither read nor write the cache.")
ALL_BRANCHES = typer.Option(
    False,
    "--all-branches",
    help="Take every commit the revision reaches (side branches, merged histories) instead "
    "of its first-parent line; the report flags each point's lineage and any second root.",
)


def rules_set_option(default: str) -> Any:
    """``--rules-set``, defaulting to ``default`` (the bench and the study: ``paper``)."""
    return typer.Option(
        default,
        "--rules-set",
        help="Built-in rules to run: default (the precise pack), pedantic (every rule) or "
        "paper (the paper's pack, frozen: numbers comparable with its tables).",
    )


RULES_SET = rules_set_option("default")
PAPER_RULES_SET = rules_set_option("paper")


def settings(cc_threshold: int, size_term: str, rule_set: str = "default") -> Settings:
    """The metric settings of ``--cc-threshold``, ``--size-term`` and ``--rules-set``."""
    from slopmark.code.measure.rules import check_rule_set

    if size_term not in SIZE_TERMS:
        raise BadInput(f"--size-term {size_term!r}: must be one of {', '.join(SIZE_TERMS)}")
    return Settings(cc_threshold, size_term, rule_set=check_rule_set(rule_set))


def languages(names: list[str]) -> tuple[str, ...]:
    """The languages of ``--language`` (every language when none is given)."""
    from slopmark.code.measure.languages import LANGUAGES, check_languages

    return check_languages(names) if names else LANGUAGES


def scopes(names: list[str]) -> tuple[str, ...]:
    """The scopes of ``--scope`` (every scope when none is given, or ``all``)."""
    from slopmark.code.measure.scopes import check_scopes

    return check_scopes(names)
