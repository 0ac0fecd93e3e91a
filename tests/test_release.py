"""What a release is made of: one version (native/Cargo.toml's: maturin gives it to the
package metadata, and ``slopmark.__version__``, what ``--version`` prints, is a constant kept
equal to it), a changelog, and the workflow that builds the wheels on a tag."""

from __future__ import annotations

import tomllib
from importlib.metadata import version
from pathlib import Path

from slopmark import __version__

ROOT = Path(__file__).resolve().parents[1]


def _toml(name: str) -> dict[str, object]:
    with (ROOT / name).open("rb") as handle:
        return tomllib.load(handle)


def test_crate_package_and_metadata_agree() -> None:
    crate = _toml("native/Cargo.toml")["package"]
    assert isinstance(crate, dict)
    assert crate["version"] == __version__ == version("slopmark")


def test_pyproject_takes_the_version_from_the_crate() -> None:
    project = _toml("pyproject.toml")["project"]
    assert isinstance(project, dict)
    assert "version" not in project, "write the version once, in native/Cargo.toml"
    assert "version" in project["dynamic"]


def test_changelog_opens_with_unreleased() -> None:
    """Keep a Changelog: changes collect under Unreleased until a release tag names them."""
    text = (ROOT / "CHANGELOG.md").read_text(encoding="utf-8")
    headings = [line for line in text.splitlines() if line.startswith("## ")]
    assert headings[0] == "## [Unreleased]"


def test_release_workflow_builds_every_platform_on_a_tag() -> None:
    import yaml

    workflow = yaml.safe_load((ROOT / ".github/workflows/release.yml").read_text())
    assert workflow[True]["push"]["tags"] == ["v*"]  # YAML 1.1 reads the key `on` as True
    matrix = workflow["jobs"]["wheels"]["strategy"]["matrix"]["include"]
    platforms = {(row["os"].split("-")[0], row["target"]) for row in matrix}
    assert platforms == {(os, arch) for os in ("ubuntu", "macos") for arch in ("x86_64", "aarch64")}
    assert workflow["jobs"]["release"]["needs"] == ["wheels", "sdist"]
