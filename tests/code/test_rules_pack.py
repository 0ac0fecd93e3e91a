"""The built-in Python rule pack: size, documentation, and every example checked
(the other languages' packs: `test_rules_langs.py`)."""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import pytest

from slopmark.code.measure.native import Engine
from slopmark.code.measure.rules import DOC_SECTIONS, PACK_DIR, load_catalog, parse_rules
from slopmark.errors import BadInput

CATALOG = tuple(rule for rule in load_catalog(rule_set="pedantic") if rule.language == "python")


def test_pack_has_at_least_140_rules() -> None:
    assert len(CATALOG) >= 140


@pytest.mark.parametrize("rule", CATALOG, ids=lambda r: r.id)
def test_rule_is_documented(rule) -> None:
    path = Path(rule.source)
    assert path.stem == rule.id, "file name must equal the rule id"
    assert path.parent.name == rule.category, "folder must equal metadata.category"
    assert [k for k, _ in rule.docs] == list(DOC_SECTIONS), f"{rule.id}: missing doc sections"
    assert rule.id == rule.id.lower() and " " not in rule.id


@pytest.fixture(scope="module")
def example_hits() -> Counter[tuple[str, str]]:
    """Run the whole pack once over every rule's example and use-instead snippet."""
    sources = [
        ((rule.doc(section) + "\n").encode(), f"{rule.id}.{section}.py")
        for rule in CATALOG
        for section in ("example", "use_instead")
    ]
    found = Engine(CATALOG).analyze_sources(sources)
    return Counter((h.path, h.rule) for f in found for h in getattr(f, "hits", ()))


@pytest.mark.parametrize("rule", CATALOG, ids=lambda r: r.id)
def test_example_fires_and_fix_does_not(rule, example_hits) -> None:
    fired = example_hits[(f"{rule.id}.example.py", rule.id)]
    assert fired >= rule.min_hits, f"{rule.id}: example hit {fired} times, needs {rule.min_hits}"
    unfixed = example_hits[(f"{rule.id}.use_instead.py", rule.id)]
    assert unfixed < rule.min_hits, f"{rule.id}: use_instead still fires ({unfixed} hits)"


def test_examples_are_valid_python() -> None:
    import ast

    for rule in CATALOG:
        for section in ("example", "use_instead"):
            ast.parse(rule.doc(section), filename=f"{rule.id}:{section}")


def test_rules_dir_holds_only_rules() -> None:
    stray = [p for p in PACK_DIR.rglob("*") if p.is_file() and p.suffix != ".yml"]
    assert stray == []


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("id: x\nlanguage: python\n", "field 'rule' is missing"),
        ("language: python\nrule: {pattern: x}\n", "field 'id' is missing"),
        ("id: x\nlanguage: cobol\nrule: {pattern: x}\n", "'language' must be one of python"),
        ("id: x\nlanguage: python\nseverity: loud\nrule: {pattern: x}\n", "severity 'loud'"),
        ("id: [\n", "not valid YAML"),
    ],
)
def test_bad_rule_files_name_file_and_field(text: str, message: str) -> None:
    with pytest.raises(BadInput, match="my-rules.yml") as error:
        parse_rules(text, "my-rules.yml")
    assert message in str(error.value)


def test_every_built_in_rule_file_reads_as_pyyaml_reads_it() -> None:
    """The core reads rule files with ast-grep's YAML parser: no file of the packs means
    something else to PyYAML's safe loader (the YAML 1.1 reading of slopmark's other files)."""
    import json

    import yaml

    from slopmark import _core
    from slopmark.code.measure.rules import LANG_DIR

    paths = sorted(p for folder in (PACK_DIR, LANG_DIR) for p in folder.rglob("*.yml"))
    texts = [p.read_text(encoding="utf-8") for p in paths]
    for path, text, documents in zip(paths, texts, _core.yaml_documents(texts), strict=True):
        expected = [d for d in yaml.load_all(text, Loader=yaml.SafeLoader) if d is not None]  # noqa: S506
        assert [json.loads(d) for d in documents] == expected, path
        assert [list(json.loads(d)) for d in documents] == [list(d) for d in expected], path


def test_a_rule_file_that_is_not_yaml_or_uses_an_alias_is_refused_in_one_line() -> None:
    for text, says in (("id: [\n", "not valid YAML"), ("a: &x 1\nb: *x\n", "alias")):
        with pytest.raises(BadInput, match="my-rules.yml") as error:
            parse_rules(text, "my-rules.yml")
        assert says in str(error.value) and "\n" not in str(error.value)


def test_a_rule_file_that_is_not_utf8_is_one_line_naming_it(tmp_path: Path) -> None:
    (tmp_path / "latin.yml").write_bytes(b"id: caf\xe9\nlanguage: python\nrule: {pattern: x}\n")
    with pytest.raises(BadInput, match=r"latin\.yml: cannot read the rule file"):
        load_catalog([tmp_path])


#: Real lines a rule misfired on (issue 36's labelled precision set), each cited by the
#: package and file it came from: (rule, citation, snippet). None of them may fire now.
MISFIRES = [
    ("type-check-suppressed", "flask 3.1.3 src/flask/app.py",
     "def f(value):\n    return value  # type: ignore[no-any-return]\n"),
    ("type-check-suppressed", "requests 2.34.2 src/requests/auth.py",
     "def f(username):\n"
     "    if not isinstance(username, basestring):  # type: ignore[reportUnnecessaryIsInstance]  # runtime guard for non-str/bytes\n"  # noqa: E501
     "        raise TypeError(username)\n"),
    ("coverage-excluded-branch", "flask 3.1.3 src/flask/ctx.py",
     "import typing as t\nif t.TYPE_CHECKING:  # pragma: no cover\n"
     "    from .wrappers import Response\n"),
    ("coverage-excluded-branch", "packaging 26.4 src/packaging/version.py",
     "import sys, typing\n"
     "if sys.version_info >= (3, 13):  # pragma: no cover\n"
     "    from warnings import deprecated as _deprecated\n"
     "elif typing.TYPE_CHECKING:\n"
     "    from typing_extensions import deprecated as _deprecated\n"
     "else:  # pragma: no cover\n"
     "    import functools\n"),
    ("coverage-excluded-branch", "httpx 0.29.0 httpx/_decoders.py",
     "try:\n    import brotli\nexcept ImportError:  # pragma: no cover\n    brotli = None\n"),
    ("coverage-excluded-branch", "rich 15.0.0 rich/color.py",
     'if __name__ == "__main__":  # pragma: no cover\n    print("Hello")\n'),
    ("else-return-after-return", "flask 3.1.3 src/flask/cli.py",
     "def locate_app(module, app_name):\n    if app_name is None:\n"
     "        return find_best_app(module)\n    else:\n"
     "        return find_app_by_string(module, app_name)\n"),
    ("else-return-after-return", "flask 3.1.3 src/flask/sansio/scaffold.py",
     "def find_package(root_spec):\n    if root_spec.submodule_search_locations:\n"
     "        search_location = root_spec.submodule_search_locations[0]\n"
     "        return os.path.dirname(search_location)\n    else:\n"
     "        # package with __init__.py\n"
     "        return os.path.dirname(os.path.dirname(root_spec.origin))\n"),
    ("append-loop-extend", "packaging 26.4 src/packaging/metadata.py",
     "def process(self, value):\n    normalized_names = []\n    try:\n"
     "        for name in value:\n"
     "            normalized_names.append(utils.canonicalize_name(name, validate=True))\n"
     "    except utils.InvalidName as exc:\n"
     "        raise self._invalid_metadata(f\"{name!r} is invalid\", cause=exc) from exc\n"),
    ("except-isinstance-dispatch", "httpx 0.29.0 httpx/_transports/default.py",
     "def map_httpcore_exceptions():\n    try:\n        yield\n    except Exception as exc:\n"
     "        mapped_exc = None\n"
     "        for from_exc, to_exc in HTTPCORE_EXC_MAP.items():\n"
     "            if not isinstance(exc, from_exc):\n                continue\n"
     "            mapped_exc = to_exc\n"),
    ("unreachable-code-after-raise", "httpx 0.29.0 httpx/_types.py",
     "class SyncByteStream:\n    def __iter__(self):\n"
     "        raise NotImplementedError(\"The '__iter__' method must be implemented.\")\n"
     "        yield b\"\"  # pragma: no cover\n"),
    ("negated-equality-comparison", "requests 2.34.2 src/requests/auth.py",
     "class HTTPBasicAuth:\n    def __ne__(self, other):\n        return not self == other\n"),
    ("lambda-wraps-call", "attrs 26.1.0 src/attr/_make.py",
     "class Converter:\n    def __init__(self):\n"
     "        self.__call__ = lambda value, instance, __: self.converter(\n"
     "            value, instance\n        )\n"),
    ("identical-if-else-branches", "rich 15.0.0 rich/traceback.py",
     "def render(stack):\n    if stack.is_cause:\n        yield Text.from_markup(\n"
     "            \"\\n[i]The above exception was the direct cause of \"\n"
     "            \"the following exception:\\n\",\n"
     "        )\n    else:\n        yield Text.from_markup(\n"
     "            \"\\n[i]During handling of the above exception, \"\n"
     "            \"another exception occurred:\\n\",\n"
     "        )\n"),
    ("while-index-loop", "rich 15.0.0 rich/pretty.py",
     "def expand(node, expand_all, max_width, indent_size):\n"
     "    lines = [_Line(node=node, is_root=True)]\n    line_no = 0\n"
     "    while line_no < len(lines):\n        line = lines[line_no]\n"
     "        if expand_all or not line.check_length(max_width):\n"
     "            lines[line_no : line_no + 1] = line.expand(indent_size)\n"
     "        line_no += 1\n"),
    ("len-at-least-one-test", "attrs 26.1.0 src/attr/_version_info.py",
     "def _ensure_tuple(self, other):\n    if not (1 <= len(other) <= 4):\n"
     "        raise NotImplementedError\n    return other\n"),
    ("list-comprehension-in-reducer", "rich 15.0.0 rich/_unicode_data/__init__.py",
     "VERSION_ORDER = sorted(\n    [\n        tuple(\n            map(int, version.split(\".\")),\n"
     "        )\n        for version in VERSIONS\n    ]\n)\n"),
    ("if-return-bool-then-opposite", "httpx 0.29.0 httpx/_utils.py",
     "def matches(self, other):\n    if self.scheme and self.scheme != other.scheme:\n"
     "        return False\n    if self.port is not None and self.port != other.port:\n"
     "        return False\n    return True\n"),
]  # fmt: skip


@pytest.mark.parametrize(
    ("rule_id", "source", "snippet"), MISFIRES, ids=[f"{m[0]}:{m[1]}" for m in MISFIRES]
)
def test_a_real_misfire_stays_fixed(rule_id: str, source: str, snippet: str) -> None:
    rule = next(r for r in CATALOG if r.id == rule_id)
    (found,) = Engine([rule]).analyze_sources([(snippet.encode(), "real.py")])
    assert not found.hits, f"{rule_id} fires again on {source}"
