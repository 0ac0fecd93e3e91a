"""Scopes, ``.gitignore`` patterns and ecosystem rules as pure functions (issue 34, items 3
and 4): the path rules docs/languages.md states, one case per rule."""

from __future__ import annotations

import pytest

from slopmark.code.measure.ecosystems import folder_reason, go_reason, tracked_reason
from slopmark.code.measure.gitignore import Ignores, parse
from slopmark.code.measure.scopes import SCOPES, Choice, check_scopes, scope_of
from slopmark.errors import BadInput

SCOPE_CASES = {
    "src/flask/app.py": "source",
    "flask/app.py": "source",
    "tests/test_app.py": "tests",
    "test/helper.py": "tests",
    "pkg/test_util.py": "tests",
    "pkg/util_test.py": "tests",
    "conftest.py": "tests",
    "server/handler_test.go": "tests",
    "web/app.test.ts": "tests",
    "web/app.spec.jsx": "tests",
    "web/__tests__/app.js": "tests",
    "crate/benches/speed.rs": "tests",
    "crate/tests/it.rs": "tests",
    "src/test/java/org/x/FooTest.java": "tests",
    "src/main/java/org/x/test/Helper.java": "source",
    "src/main/java/org/apache/commons/io/build/AbstractOrigin.java": "source",
    "docs/conf.py": "docs",
    "doc/example.py": "docs",
    "docs_src/tutorial/app.py": "docs",
    "examples/basic/app.py": "examples",
    "example/main.go": "examples",
    "samples/demo.rs": "examples",
    "tests/docs/x.py": "tests",
    "docs/tests/x.py": "docs",
    "testing.py": "source",
    "pkg/latest.py": "source",
}


@pytest.mark.parametrize(("path", "scope"), SCOPE_CASES.items())
def test_scope_of_each_rule(path: str, scope: str) -> None:
    assert scope_of(path) == scope


def test_check_scopes_expands_all_and_refuses_unknown_names() -> None:
    assert check_scopes([]) == SCOPES
    assert check_scopes(["all"]) == SCOPES
    assert check_scopes(["Tests", "source", "tests"]) == ("source", "tests")
    with pytest.raises(BadInput, match=r"--scope: unknown scope 'test'; did you mean 'tests'\?"):
        check_scopes(["test"])


def test_choice_counts_what_each_choice_leaves_out() -> None:
    paths = ["a.py", "tests/test_a.py", "docs/conf.py", "lib.rs", "README.md", "tests/it.rs"]
    kept, coverage = Choice(("python",), ("source", "docs")).select(paths)
    assert kept == ["a.py", "docs/conf.py"]
    assert coverage.kept == {"source": 1, "docs": 1}
    assert coverage.by_language == {"rust": 2}  # a file of a language not chosen counts there
    assert coverage.by_scope == {"tests": 1}
    assert coverage.to_json()["excluded"] == {"by_language": {"rust": 2}, "by_scope": {"tests": 1}}
    assert "left out: 2 rust, 1 tests" in coverage.line()


GITIGNORE = """
# comment
*.gen.py
/build/
out/
!keep.gen.py
docs/**/draft_*.py
\\#literal.py
a?c.py
[xy]z.py
"""


@pytest.mark.parametrize(
    ("path", "is_folder", "ignored"),
    [
        ("pkg/x.gen.py", False, True),
        ("pkg/keep.gen.py", False, False),  # a later ! line re-includes it
        ("build", True, True),
        ("pkg/build", True, False),  # anchored to the file's folder
        ("out", True, True),
        ("pkg/out", True, True),  # no slash but the trailing one: any depth
        ("out", False, False),  # folders only
        ("docs/a/b/draft_1.py", False, True),
        ("docs/draft_1.py", False, True),
        ("#literal.py", False, True),
        ("abc.py", False, True),
        ("a/c.py", False, False),  # ? never matches a slash
        ("yz.py", False, True),
        ("zz.py", False, False),
    ],
)
def test_gitignore_patterns_match_as_git_does(path: str, is_folder: bool, ignored: bool) -> None:
    ignores = Ignores().below("", parse(GITIGNORE))
    assert (ignores.match(path, is_folder) is not None) == ignored


def test_a_deeper_gitignore_wins_and_sees_paths_from_its_folder() -> None:
    ignores = Ignores().below("", parse("*.py\n")).below("keep/", parse("!*.py\n/only.py\n"))
    assert ignores.match("a.py", False) is not None
    assert ignores.match("keep/a.py", False) is None
    assert ignores.match("keep/only.py", False) is not None
    assert ignores.match("keep/sub/only.py", False) is None  # anchored: not re-ignored below


def test_folder_rules_look_beside_a_folder_before_leaving_it_out() -> None:
    present = {"pyproject.toml", "venv/pyvenv.cfg", "java/pom.xml", "env2/conda-meta"}
    exists = present.__contains__
    assert folder_reason("build", exists) == "build output (beside pyproject.toml)"
    assert folder_reason("src/main/java/org/x/build", exists) is None
    assert folder_reason("java/target", exists) == "build output (beside pom.xml)"
    assert folder_reason("target", exists) is None  # no Cargo.toml or pom.xml beside it
    assert folder_reason("venv", exists) == "virtual environment (pyvenv.cfg)"
    assert folder_reason("env2", exists) == "virtual environment (conda-meta)"
    assert folder_reason("env", exists) is None  # a folder named env with source in it
    assert folder_reason("web/node_modules", exists) == "installed packages (npm)"


def test_go_rules_are_the_go_tools() -> None:
    assert go_reason("vendor/github.com/x/y.go") is not None
    assert go_reason("pkg/testdata/case.go") is not None
    assert go_reason("_old/x.go") is not None
    assert go_reason(".hidden/x.go") is not None
    assert go_reason("pkg/_x.go") is not None
    assert go_reason("pkg/x.go") is None
    assert go_reason("testdata/fixture.py") is None  # the rule is the go tool's, for .go files
    vendored = "installed packages (npm): node_modules/"
    assert tracked_reason("web/node_modules/x/index.js") == vendored
    assert tracked_reason("build/lib.py") is None  # tracked: the project's own files
