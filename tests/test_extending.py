"""docs/extending.md's recipes held to the tree, and its one registration spelling.

A recipe ("A language", "An eval domain") is a numbered list whose items start
with the path of a place to touch; ``<language>`` and ``<domain>`` stand for each
one supported today. Every place must exist for each of them and name each of
them, and every file naming all of them must be a place of the recipe: a list of
languages (or domains) added somewhere new fails here until the recipe says so.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from slopmark.code.measure.languages import LANGUAGES, suffixes
from slopmark.evals.task import DOMAINS
from slopmark.registry import Registry

ROOT = Path(__file__).parents[1]
GUIDE = ROOT / "docs" / "extending.md"
#: The folders and files a place may be in (a walk of these finds every list of names).
WALKED = ("src", "tests", "native", "docs", "benchmarks", "README.md", ".pre-commit-hooks.yaml")
SKIPPED = ("native/target", "benchmarks/.cache", "docs/extending.md", "tests/test_extending.py")
#: Python is the reference language, laid out apart (its pack in `rules/pack/`, its goldens
#: in `golden/code/`); the recipe is for the languages measured against an anchor.
RECIPE_LANGUAGES = tuple(language for language in LANGUAGES if language != "python")
#: Where a language's or a domain's module has another name than the language or domain.
MODULE = {"javascript": "ecmascript", "typescript": "ecmascript", "json": "json_output"}
#: Places a domain may rightly be absent from, and why.
NOT_EVERY_DOMAIN = {("tests/server/test_security.py", "refusal"): "no expected values"}


def recipe(title: str) -> list[str]:
    """The places (paths, placeholders kept) of the recipe under ``### title``, in order."""
    guide = GUIDE.read_text(encoding="utf-8")
    start = guide.index(f"\n### {title}\n")
    end = re.search(r"\n##+ ", guide[start + 1 :])
    section = guide[start : start + 1 + end.start()] if end else guide[start:]
    return re.findall(r"^\d+\. `([^`]+)`", section, re.MULTILINE)


LANGUAGE_PLACES = recipe("A language")
DOMAIN_PLACES = recipe("An eval domain")


def spelled(place: str, placeholder: str, name: str) -> str:
    """``place`` for ``name``: the placeholder replaced (by the module's name in a module
    of the package or the core; tests are named after the language or domain)."""
    module = MODULE.get(name, name)
    if place.startswith(("src/", "native/")) and place.endswith((".py", ".rs")):
        return place.replace(f"{placeholder}.", f"{module}.").replace(placeholder, name)
    return place.replace(placeholder, name)


def exists(relative: str) -> bool:
    """A file or folder; a module ``x.py`` may also be a package ``x/``."""
    path = ROOT / relative
    package = path.with_suffix("") / "__init__.py"
    return path.exists() or (path.suffix == ".py" and package.exists())


def where(title: str, place: str) -> str:
    return f"docs/extending.md, recipe {title!r}, place `{place}`"


def names(text: str, words: tuple[str, ...]) -> bool:
    return any(re.search(rf"\b{re.escape(w)}\b", text, re.I) for w in words)


def language_words(language: str) -> tuple[str, ...]:
    """How a file may name ``language``: its name, or one of its suffixes (``ts``, ``.rs``)."""
    return (language, *(suffix.lstrip(".") for suffix in suffixes((language,))))


def walk() -> Iterator[tuple[str, str]]:
    """(relative path, text) of every readable text file of `WALKED`."""
    for top in WALKED:
        path = ROOT / top
        for file in [path] if path.is_file() else sorted(path.rglob("*")):
            relative = file.relative_to(ROOT).as_posix()
            if not file.is_file() or relative.startswith(SKIPPED) or "__pycache__" in relative:
                continue
            if file.stat().st_size > 2_000_000:
                continue
            try:
                yield relative, file.read_text(encoding="utf-8")
            except (UnicodeDecodeError, OSError):
                continue


def listed(relative: str, places: list[str], placeholder: str, every: tuple[str, ...]) -> bool:
    """Whether ``relative`` is a place, or lies in one, for some name of ``every``."""
    for place in places:
        for name in every:
            spot = spelled(place, placeholder, name).rstrip("/")
            if relative == spot or relative.startswith(spot + "/"):
                return True
    return False


PLACES = [("A language", "<language>", RECIPE_LANGUAGES, p) for p in LANGUAGE_PLACES] + [
    ("An eval domain", "<domain>", DOMAINS, p) for p in DOMAIN_PLACES
]


def test_the_recipes_are_found() -> None:
    assert len(LANGUAGE_PLACES) >= 20 and "native/src/lang/mod.rs" in LANGUAGE_PLACES
    assert len(DOMAIN_PLACES) >= 6 and "src/slopmark/evals/task.py" in DOMAIN_PLACES
    assert len(set(LANGUAGE_PLACES)) == len(LANGUAGE_PLACES)
    assert len(set(DOMAIN_PLACES)) == len(DOMAIN_PLACES)


@pytest.mark.parametrize(("title", "placeholder", "every", "place"), PLACES,
                         ids=[f"{t.split()[-1]}:{p}" for t, _, _, p in PLACES])  # fmt: skip
def test_every_place_is_there_for_every_supported_one(
    title: str, placeholder: str, every: tuple[str, ...], place: str
) -> None:
    """A templated place exists for each language (domain); a file names each of them."""
    if placeholder in place:
        missing = [spelled(place, placeholder, n) for n in every]
        missing = [m for m in missing if not exists(m)]
        assert not missing, f"{where(title, place)}: missing {missing} (moved? fix the recipe)"
        return
    assert exists(place), f"{where(title, place)} does not exist (moved? fix the recipe)"
    text = (ROOT / place).read_text(encoding="utf-8")
    words: Callable[[str], tuple[str, ...]] = (
        language_words if placeholder == "<language>" else lambda name: (name,)
    )
    absent = [n for n in every if (place, n) not in NOT_EVERY_DOMAIN and not names(text, words(n))]
    assert not absent, f"{where(title, place)} names none of {absent}: is it the right place?"


@pytest.mark.parametrize(
    ("title", "places", "placeholder", "every", "words"),
    [
        ("A language", LANGUAGE_PLACES, "<language>", RECIPE_LANGUAGES, lambda n: (n,)),
        ("An eval domain", DOMAIN_PLACES, "<domain>", DOMAINS, lambda n: (n,)),
    ],
    ids=["language", "domain"],
)
def test_every_file_naming_them_all_is_a_place_of_the_recipe(
    title: str,
    places: list[str],
    placeholder: str,
    every: tuple[str, ...],
    words: Callable[[str], tuple[str, ...]],
) -> None:
    """A file naming every language (every domain) is a list a new one joins."""
    unlisted = [
        relative
        for relative, text in walk()
        if all(names(text, words(name)) for name in every)
        and not listed(relative, places, placeholder, every)
    ]
    assert not unlisted, f"docs/extending.md, recipe {title!r}, lists none of {unlisted}"


def test_every_kind_registers_with_the_one_decorator() -> None:
    """Each plug-in kind's package exports ``register``: its registry's `Registry.register`."""
    from slopmark import executor, sandbox
    from slopmark.code.bench import agents
    from slopmark.evals import generators, verifiers
    from slopmark.paper import measures

    for package in (verifiers, measures, agents, sandbox, executor):
        bound = package.register
        assert isinstance(bound.__self__, Registry), package.__name__
        assert bound.__func__ is Registry.register, package.__name__
    template = generators.TEMPLATES.items()["math.linear-one-side"]
    assert generators.templates("math")["linear-one-side"] is template
