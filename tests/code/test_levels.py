"""A project's language level from its own build files (`slopmark.code.measure.levels`):
the parsers on real build-file forms, and a rule with ``min_level`` that counts only where
the project reaches it (measure in-process and the real CLI)."""

from __future__ import annotations

from pathlib import Path

import pytest

from clirun import cli_json
from diff.repos import commit, new_repo
from slopmark.code.measure.levels import (
    cargo_levels,
    floors,
    go_mod_levels,
    gradle_levels,
    pom_levels,
    scale_of,
    tsconfig_levels,
)
from slopmark.code.measure.measure_diff import DiffRequest, diff_sides
from slopmark.code.measure.measure_history import measure_history
from slopmark.code.measure.measure_tree import MeasureOptions, floors_of, measure_tree
from slopmark.code.measure.metrics import Settings
from slopmark.code.measure.rules import load_catalog, parse_rules
from slopmark.errors import BadInput

# maven:com.squareup:javapoet@1.13.0, com/squareup/javapoet/AnnotationSpec.java (get): the
# library is built for Java 8, where `value instanceof Annotation a` does not compile.
CAST = """\
class AnnotationSpec {
  static void add(Builder builder, Method method, Object value) {
    if (value instanceof Annotation) {
      builder.addMember(method.getName(), "$L", get((Annotation) value));
    }
  }
  static boolean blank(StringBuilder result) {
    return result.length() > 0;
  }
}
"""


def pom(release: str) -> str:
    return (
        "<project><properties><java.version>" + release + "</java.version>"
        "<maven.compiler.source>${java.version}</maven.compiler.source></properties></project>"
    )


def test_pom_levels() -> None:
    assert pom_levels(pom("1.8")) == {"java": (8,)}
    assert pom_levels("<project><maven.compiler.release>17</maven.compiler.release>") == {
        "java": (17,)
    }
    plugin = "<plugin><configuration><source>11</source></configuration></plugin>"
    assert pom_levels(plugin) == {"java": (11,)}
    assert pom_levels("<project><parent>x</parent></project>") == {}


def test_other_build_files() -> None:
    assert gradle_levels("java { sourceCompatibility = JavaVersion.VERSION_1_8 }") == {"java": (8,)}
    toolchain = "java { toolchain { languageVersion = JavaLanguageVersion.of(21) } }"
    assert gradle_levels(toolchain) == {"java": (21,)}
    assert gradle_levels("sourceCompatibility = '17'") == {"java": (17,)}
    assert go_mod_levels("module x\n\ngo 1.21.3\n") == {"go": (1, 21, 3)}
    cargo = '[package]\nname = "x"\nrust-version = "1.65"\nedition = "2021"\n'
    assert cargo_levels(cargo) == {"rust": (1, 65), "edition": (2021,)}
    assert cargo_levels('[package]\nrust-version.workspace = true\n') == {}
    assert tsconfig_levels('{"compilerOptions": {"target": "ES2022"}}') == {"es": (2022,)}
    assert tsconfig_levels('{"extends": "./base", "compilerOptions": {"target": "ES5"}}') == {}


def test_min_level_scales() -> None:
    assert scale_of("java", "16") == ("java", (16,))
    assert scale_of("rust", "edition2021") == ("edition", (2021,))
    assert scale_of("typescript", "ES6") == ("es", (2015,))
    assert scale_of("python", "3.10") is None


def test_nearest_build_file_decides_and_unknown_drops() -> None:
    files = {"pom.xml": pom("1.8"), "new/pom.xml": pom("17")}
    found = floors([("r", "java", "16")], ["", "a/b", "new/c", "new"], files.get)
    assert found.of("Top.java") == {"r"} and found.of("a/b/Deep.java") == {"r"}
    assert found.of("new/c/Deep.java") == frozenset()
    unknown = floors([("r", "java", "16")], ["x"], {}.get)
    assert unknown.of("x/A.java") == {"r"} and unknown.of("elsewhere/A.java") == {"r"}


def test_min_level_must_be_a_level_of_the_language() -> None:
    rule = "id: r\nlanguage: java\nrule: {kind: if_statement}\nmetadata: {min_level: 'sixteen'}\n"
    with pytest.raises(BadInput, match="min_level 'sixteen' is not a java level"):
        parse_rules(rule, "r.yml")


def leveled_hits(
    tmp_path: Path, pom_text: str | None, settings: Settings = Settings()
) -> list[tuple[str, int]]:
    if pom_text is not None:
        (tmp_path / "pom.xml").write_text(pom_text)
    source = tmp_path / "src" / "AnnotationSpec.java"
    source.parent.mkdir(exist_ok=True)
    source.write_text(CAST)
    select = ["java-instanceof-then-cast", "java-length-zero-test"]
    options = MeasureOptions(select=select, settings=settings)
    return sorted((h.rule, h.start) for h in measure_tree(tmp_path, options).hits)


def test_java_8_project_gets_no_hit_and_java_17_does(tmp_path: Path) -> None:
    assert leveled_hits(tmp_path, pom("1.8")) == []
    assert leveled_hits(tmp_path, None) == []  # level unknown: the rule does not count
    assert leveled_hits(tmp_path, pom("17")) == [
        ("java-instanceof-then-cast", 4), ("java-length-zero-test", 8)
    ]  # fmt: skip


def test_the_benchmark_profile_reads_no_build_file(tmp_path: Path) -> None:
    """The measured never configures its measurement: an agent's pom sets no level."""
    assert leveled_hits(tmp_path, pom("17"), Settings(suppressions=False)) == []


@pytest.mark.slow
def test_cli_measure_reads_the_pom(tmp_path: Path) -> None:
    (tmp_path / "Cast.java").write_text(CAST)
    select = ("--select", "java-instanceof-then-cast")
    for release, expected in (("8", 0), ("17", 1), ("8", 0)):  # the cached report re-keyed
        (tmp_path / "pom.xml").write_text(pom(release))
        report = cli_json("code", "measure", str(tmp_path), *select)
        assert len(report["files"][0]["hits"]) == expected, release


def test_no_build_file_known_drops_leveled_rules() -> None:
    """Without build files (`code history`, the benchmark) such rules count nowhere."""
    found = floors_of(load_catalog())
    assert {"java-instanceof-then-cast", "java-length-zero-test"} <= found.of("src/A.java")
    assert "java-size-zero-test" not in found.of("src/A.java")


def added_rules(repo: Path, base_pom: str, head_pom: str) -> list[str]:
    """The rules `code diff` finds added when a change adds the cast of `CAST` (and sets
    the pom to ``head_pom``) over a base whose pom is ``base_pom``."""
    new_repo(repo, {"pom.xml": base_pom, "src/AnnotationSpec.java": "class AnnotationSpec {}\n"})
    commit(repo, {"pom.xml": head_pom, "src/AnnotationSpec.java": CAST})
    select = ["java-instanceof-then-cast"]
    report = diff_sides(DiffRequest(repo, "HEAD~1", "HEAD"), MeasureOptions(select=select))
    return [change.finding.rule for change in report.added if change.kind == "new-hits"]


@pytest.mark.slow
def test_diff_holds_both_sides_to_the_base_revisions_level(tmp_path: Path) -> None:
    assert added_rules(tmp_path / "old", pom("8"), pom("8")) == []
    assert added_rules(tmp_path / "new", pom("17"), pom("17")) == ["java-instanceof-then-cast"]
    # a change that raises the level does not turn the rule on for itself
    assert added_rules(tmp_path / "raised", pom("8"), pom("17")) == []


@pytest.mark.slow
def test_history_reads_each_commits_own_level(tmp_path: Path) -> None:
    """The commit that raises the pom to Java 17 is the first whose cast counts."""
    repo = new_repo(tmp_path, {"pom.xml": pom("8"), "src/AnnotationSpec.java": CAST})
    commit(repo, {"pom.xml": pom("17"), "src/AnnotationSpec.java": CAST + "// raised\n"})
    options = MeasureOptions(select=["java-instanceof-then-cast"])
    report = measure_history(repo, options=options)
    assert [c.verbosity for c in report.commits][0] == 0.0
    assert report.commits[-1].verbosity is not None and report.commits[-1].verbosity > 0
